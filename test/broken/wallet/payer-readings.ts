/**
 * Wallets that derive a CPR carrying payer or state data with that data ignored (allowed: profile
 * 3) but take some of it into the Payment first, through a name read in one of the forms profile
 * 2 lists (a dotted or slashed namespace prefix): the data reaches the Payment, which is the fault.
 */
import type { DerivedPayment } from '../../../src/reference/wallet/derive.js';
import { createWalletCore, type WalletCore } from '../../../src/reference/wallet/index.js';
import { validateCpr } from '../../../src/validator/validate-cpr.js';
import { brokenWallet, cprOf } from './harness.js';

/** Every member of `v` at any depth, with its name. */
function members(v: unknown, out: [string, unknown][] = []): [string, unknown][] {
  if (Array.isArray(v)) for (const x of v) members(x, out);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      out.push([k, x]);
      members(x, out);
    }
  return out;
}

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

/** Drops every member the validator names payer, authorization or state data (the allowed "ignored"). */
function ignorePayerData(cpr: Record<string, unknown>): void {
  for (let round = 0; round < 20; round++) {
    const found = validateCpr(cpr, { mode: 'wallet' }).findings.filter((f) =>
      ['CPR-INV-1-NO-PAYER-DATA', 'CPR-INV-6-SEPARATION'].includes(f.requirement),
    );
    if (!found.some((f) => removeAt(cpr, f.path))) break;
  }
}

/**
 * The reference core behind a step that reads `take` from the CPR's extensions, then ignores the
 * payer and state data (derives without it) and hands what it read to `apply` with the Payment.
 */
function takingCore<T>(
  inner: WalletCore,
  take: (extensions: unknown) => T | undefined,
  apply: (payment: DerivedPayment, taken: T) => void,
): WalletCore {
  return {
    async derive(body) {
      const cpr = cprOf(body);
      const taken = take(cpr?.extensions);
      if (cpr) ignorePayerData(cpr);
      const result = await inner.derive(body);
      if (result.ok && taken !== undefined) apply(result.payment, taken);
      return result;
    },
    close: () => inner.close(),
  };
}

/**
 * Contact details of the payer taken from the CPR: a string member at any depth of the extensions
 * whose name, after a `:` or `/` prefix, is `payer.<detail>` or `payer_<detail>`
 * (`acme:payer.email`, `Checkout Data/payer_ref`).
 */
const PAYER_DETAIL = /(?:^|[:/])payer[._]([a-z]+)$/i;

/** Step 3 enriches the payer with payer details named behind a namespace prefix in the extensions. */
export const payerDetailsFromExtensions = brokenWallet({
  id: 'wallet-payer-details-from-extensions',
  fault:
    "derives a CPR carrying payer data with it ignored, but first enriches the payer of 4.4 step 3 with the details named behind a namespace prefix in the CPR's extensions (acme:payer.email, Checkout Data/payer_ref)",
  expected: ['CPR-2.9-CONTEXT-FROM-APPLICATION', 'CPR-4.4-PAYER-FROM-APPLICATION'],
  core: (options) =>
    takingCore(
      createWalletCore(options),
      (extensions) => {
        const details: Record<string, string> = {};
        for (const [k, v] of members(extensions)) {
          const m = PAYER_DETAIL.exec(k);
          if (m && typeof v === 'string') details[(m[1] as string).toLowerCase()] = v;
        }
        return Object.keys(details).length > 0 ? details : undefined;
      },
      (payment, details) => {
        if (typeof payment.payer === 'object' && payment.payer !== null)
          Object.assign(payment.payer, details);
      },
    ),
});

/** An extension key whose last dotted segment is `status` (`com.example.status`). */
const DOTTED_STATUS = /^[a-z0-9-]+(?:\.[a-z0-9-]+)+\.status$/i;

/** Step 7 takes the Payment's state from a dotted status extension instead of starting fresh. */
export const stateFromDottedStatus = brokenWallet({
  id: 'wallet-state-from-dotted-status',
  fault:
    "derives a CPR carrying state data with it ignored, but carries the Payment's state over from a dotted-namespace status extension (com.example.status) instead of starting CREATED",
  expected: ['CPR-3-NO-STATE-CARRIED'],
  core: (options) =>
    takingCore(
      createWalletCore(options),
      (extensions) => {
        if (typeof extensions !== 'object' || extensions === null) return undefined;
        const found = Object.entries(extensions).find(
          ([k, v]) => DOTTED_STATUS.test(k) && typeof v === 'string',
        );
        return found?.[1] as string | undefined;
      },
      (payment, state) => {
        (payment as { state: string }).state = state;
      },
    ),
});
