import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 3 answers a default payer instead of context.payer. */
export const payerReplaced = brokenWallet({
  id: 'wallet-payer-replaced',
  fault: 'payment.payer is a default anonymous payer instead of context.payer',
  expected: ['CPR-2.10-PAYER', 'CPR-2.9-CONTEXT-FROM-APPLICATION', 'CPR-4.4-PAYER-FROM-APPLICATION'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      payment.payer = { id: 'anonymous' };
      return payment;
    }),
});
