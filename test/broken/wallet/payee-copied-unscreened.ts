import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { isPayerDataName } from '../../../src/validator/index.js';
import { brokenWallet, cprOf, editPayments, editRequests } from './harness.js';

/** `value` without its payer, authorization and state members, at every depth. */
function screened(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(screened);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !isPayerDataName(key, false))
      .map(([key, v]) => [key, screened(v)]),
  );
}

/**
 * The payer-data screen skips the payee object: the CPR is validated with its payee screened, and
 * Payment.payee is then copied from the payee as the CPR carries it (payee.payer_ref, a
 * payee.status, a payee.rail_address.mandate_id... reach the Payment).
 */
export const payeeCopiedUnscreened = brokenWallet({
  id: 'wallet-payee-copied-unscreened',
  fault:
    "the payer-data screen skips the CPR's payee object, which is copied into Payment.payee with whatever payer, authorization or state data it carries",
  expected: [
    'CPR-2.9-CONTEXT-FROM-APPLICATION',
    'CPR-4.4-PAYER-FROM-APPLICATION',
    'CPR-4.4-OWN-AUTHORIZATION',
    'CPR-3-NO-STATE-CARRIED',
  ],
  core: (options) =>
    editPayments(
      editRequests(createWalletCore(options), (body) => {
        const cpr = cprOf(body);
        if (cpr !== undefined && 'payee' in cpr) cpr.payee = screened(cpr.payee); // the fault: a screen the validator never sees
        return body;
      }),
      (payment, body) => {
        const payee = cprOf(body)?.payee;
        if (typeof payee === 'object' && payee !== null && !Array.isArray(payee))
          payment.payee = { ...payment.payee, ...structuredClone(payee as Record<string, unknown>) };
        return payment;
      },
    ),
});
