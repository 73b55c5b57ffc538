import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 7 leaves the request_id out of the payment's context. */
export const requestIdUnbound = brokenWallet({
  id: 'wallet-request-id-unbound',
  fault: "the request_id is not bound in the payment's context (context carries the rail only)",
  expected: ['CPR-2.10-REQUEST-ID-BOUND', 'PRF-3-HARNESS-MESSAGE-SCHEMA', 'PRF-3-PAYMENT-SHAPE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      delete (payment.context as { request_id?: string }).request_id;
      return payment;
    }),
});
