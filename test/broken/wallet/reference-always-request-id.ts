import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 5 ignores the memo: intent.reference is always the request_id. */
export const referenceAlwaysRequestId = brokenWallet({
  id: 'wallet-reference-always-request-id',
  fault: 'intent.reference is always the request_id, even when the request has a memo',
  expected: ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      payment.intent.reference = payment.context.request_id;
      return payment;
    }),
});
