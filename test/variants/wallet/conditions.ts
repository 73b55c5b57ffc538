import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { SUB_INTERFACES, subInterfaceOf } from '../../../src/reference/wallet/rails.js';
import { cprOf, editPayments } from '../../broken/wallet/harness.js';
import { walletVariant } from './harness.js';

const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** intent.conditions repeats no sub-interface field at all (only the rail chosen). */
export const conditionsFew = walletVariant({
  id: 'wallet-variant-conditions-few',
  choice:
    'intent.conditions repeats no sub-interface field (only the chosen rail): Payment.payee carries them all',
  clause:
    'profile 3: "which sub-interface fields it repeats is the wallet\'s choice, since Payment.payee carries them all"',
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      payment.intent.conditions = { rail: payment.intent.conditions.rail };
      return payment;
    }),
});

/** intent.conditions repeats every sub-interface field, and writes the acquirer_id default. */
export const conditionsAllWithDefault = walletVariant({
  id: 'wallet-variant-conditions-all-with-acquirer-default',
  choice:
    "intent.conditions repeats every sub-interface field of the CPR (address and beneficiary fields too) and, on-chain, writes acquirer_id's zero-UUID default when the CPR has none",
  clause:
    'profile 3: each member named after a sub-interface field "equals the CPR\'s value (an absent acquirer_id equals 00000000-0000-0000-0000-000000000000, written or not)"',
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      const cpr = cprOf(body) ?? {};
      const sub = subInterfaceOf(cpr);
      if (!sub) return payment;
      const fields = SUB_INTERFACES[sub];
      for (const name of [...fields.required, ...fields.optional]) {
        if (cpr[name] !== undefined) payment.intent.conditions[name] = structuredClone(cpr[name]);
      }
      if (sub === 'onchain' && cpr.acquirer_id === undefined)
        payment.intent.conditions.acquirer_id = ZERO_UUID;
      return payment;
    }),
});
