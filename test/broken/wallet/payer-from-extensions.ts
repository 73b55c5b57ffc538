import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, editPayments } from './harness.js';

/** Member names this wallet takes a payer from, when the CPR's extensions carry one. */
const PAYER_LIKE = /payer|buyer|customer|debtor/i;

/** Step 3 takes the payer from the CPR's extensions when they carry payer-looking data. */
export const payerFromExtensions = brokenWallet({
  id: 'wallet-payer-from-extensions',
  fault:
    "the payer of 4.4 step 3 is taken from payer-looking data in the CPR's extensions instead of the context",
  expected: ['CPR-2.9-CONTEXT-FROM-APPLICATION', 'CPR-4.4-PAYER-FROM-APPLICATION'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      const ext = cprOf(body)?.extensions;
      if (typeof ext !== 'object' || ext === null) return payment;
      const found = Object.entries(ext).find(([key]) => PAYER_LIKE.test(key));
      if (found) payment.payer = found[1];
      return payment;
    }),
});
