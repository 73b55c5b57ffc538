import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, brokenWallet, editPayments } from './harness.js';

/** Step 4 lets the payer's amount replace a fixed amount (a partial payment). */
export const partialAmount = brokenWallet({
  id: 'wallet-partial-amount',
  fault: "a payer's amount replaces the request's fixed amount, so a request is paid in part",
  expected: ['CPR-4.5-FULL-AMOUNT', 'CPR-4.5-NO-PARTIAL', 'CPR-7-AMOUNT-NOT-PAYABLE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      const offered = bodyOf(body)?.context?.payer_amount;
      if (typeof offered === 'string') payment.value.amount = offered;
      return payment;
    }),
});
