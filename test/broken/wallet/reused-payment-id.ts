import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 7 gives every Payment the id of the first one. */
export const reusedPaymentId = brokenWallet({
  id: 'wallet-reused-payment-id',
  fault: 'every derived Payment gets the id of the first one instead of a new id',
  expected: ['CPR-2.10-ID', 'CPR-4.4-SEVERAL-ATTEMPTS'],
  core: (options) => {
    let first: string | undefined;
    return editPayments(createWalletCore(options), (payment) => {
      first ??= payment.id;
      payment.id = first;
      return payment;
    });
  },
});
