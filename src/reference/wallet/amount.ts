/**
 * Amount strings (profile section 1): base-10 digits in the asset's smallest unit, no sign,
 * no leading zero, no fraction, no spaces, from 1 to 2^256 - 1. Amounts are never parsed into a
 * JS number; the range check uses BigInt, which is exact.
 */

const AMOUNT_PATTERN = /^[1-9][0-9]*$/;
const MAX_AMOUNT = 2n ** 256n - 1n;

/** True when `value` is an amount string of profile section 1. */
export function isAmountString(value: unknown): value is string {
  return typeof value === 'string' && AMOUNT_PATTERN.test(value) && BigInt(value) <= MAX_AMOUNT;
}

/**
 * A value given in a harness request or a CPR, for messages: its JSON text, cut to 60 characters
 * (`undefined` when absent).
 */
// Stryker disable next-line BlockStatement: message wording only (an emptied body reads "undefined": the message stays non-empty)
export function describeGiven(value: unknown): string {
  // Stryker disable next-line MethodExpression: message wording only (profile 1 and 3 fix the code and a non-empty message, not its words)
  return String(JSON.stringify(value)).slice(0, 60);
}
