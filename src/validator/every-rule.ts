/**
 * `isValidUnderEveryRule`: the filter for generated documents that a suite demands acceptance of.
 *
 * @packageDocumentation
 */
import type { ValidateCprOptions } from './types.js';
import { validateCpr } from './validate-cpr.js';

/**
 * True when `doc` gives no finding at all, neither error nor warning, in both readings (payee
 * and wallet) of {@link validateCpr}: a document valid under every SPEC and PROFILE rule of
 * profile section 2, with nothing doubtful. Profile section 3 lets a wallet refuse any document
 * that breaks a rule of section 2, so a suite that demands a Payment gives it only documents
 * this predicate accepts (filter generators with it). `opts.mode` is ignored.
 *
 * @param doc - a parsed CPR (anything).
 * @param opts - `now` (default: the current time) and `maxValiditySeconds`, as {@link validateCpr}.
 * @example
 * ```ts
 * const arb = cprArbitrary({ now }).filter((d) => isValidUnderEveryRule(d, { now }));
 * ```
 */
export function isValidUnderEveryRule(doc: unknown, opts: Omit<ValidateCprOptions, 'mode'> = {}): boolean {
  const base = { ...opts };
  delete (base as ValidateCprOptions).mode;
  return (
    validateCpr(doc, { ...base, mode: 'payee' }).findings.length === 0 &&
    // Stryker disable next-line ConditionalExpression: equivalent today: each wallet-reading finding has a payee-reading one on the same document (the wallet reading is the more lenient); the wallet half keeps the promise for rules to come
    validateCpr(doc, { ...base, mode: 'wallet' }).findings.length === 0
  );
}
