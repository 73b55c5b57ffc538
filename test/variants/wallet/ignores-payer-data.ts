import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { validateCpr } from '../../../src/validator/validate-cpr.js';
import { bodyOf, editRequests } from '../../broken/wallet/harness.js';
import { walletVariant } from './harness.js';

/** The requirements of the validator's payer / authorization / state data findings. */
const PAYER_OR_STATE = new Set(['CPR-INV-1-NO-PAYER-DATA', 'CPR-INV-6-SEPARATION']);

/** Removes the member a JSON pointer names. */
function removeAt(doc: Record<string, unknown>, pointer: string): boolean {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let at: unknown = doc;
  for (const p of parts.slice(0, -1)) at = (at as Record<string, unknown>)?.[p];
  const last = parts.at(-1);
  if (typeof at !== 'object' || at === null || last === undefined || !(last in at)) return false;
  delete (at as Record<string, unknown>)[last];
  return true;
}

/**
 * Derives a CPR carrying payer, authorization or state data with that data ignored: every member
 * the validator names as such is dropped before derivation, where the reference refuses the CPR.
 */
export const ignoresPayerData = walletVariant({
  id: 'wallet-variant-ignores-payer-data',
  choice:
    'derives a CPR carrying payer, authorization or state data with that data ignored (instead of refusing it)',
  clause:
    'profile 3: "A CPR carrying payer, authorization or state data ... may be refused with 422 INVALID_STRUCTURE or derived with that data ignored"',
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = bodyOf(body)?.cpr;
      if (typeof cpr !== 'object' || cpr === null || Array.isArray(cpr)) return body;
      for (let round = 0; round < 20; round++) {
        const found = validateCpr(cpr, { mode: 'wallet' }).findings.filter((f) =>
          PAYER_OR_STATE.has(f.requirement),
        );
        if (!found.some((f) => removeAt(cpr, f.path))) break;
      }
      return body;
    }),
});
