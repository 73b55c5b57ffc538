// Amounts: base-10 digit strings in the asset's smallest unit, 1 .. 2^256 - 1.
// Arithmetic is BigInt only; an amount is never turned into a JS number.

export const MAX_AMOUNT = 2n ** 256n - 1n;
const AMOUNT_RE = /^[1-9][0-9]*$/;

/** Parse a profile amount string to BigInt, or null when it is not one. */
export function parseAmount(text) {
  if (typeof text !== 'string' || !AMOUNT_RE.test(text) || text.length > 78) return null;
  const v = BigInt(text);
  return v <= MAX_AMOUNT ? v : null;
}

export const amountText = (v) => v.toString(10);
