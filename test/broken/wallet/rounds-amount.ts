import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 4 passes the amount through a JS number, so amounts beyond 2^53 are rounded. */
export const roundsAmount = brokenWallet({
  id: 'wallet-rounds-amount',
  fault: 'the value of 4.4 step 4 goes through a JS number, so amounts beyond 2^53 come out rounded',
  expected: [
    'CPR-2.10-VALUE',
    'CPR-2.3-AMOUNT-OMITTED-OPEN',
    'CPR-4.4-VALUE-FROM-REQUEST',
    'CPR-4.5-OPEN-AMOUNT',
    'CPR-INV-5-VALUE-INTEGRITY',
    'PRF-1-AMOUNT-PRECISION',
  ],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      payment.value.amount = BigInt(Number(payment.value.amount)).toString();
      return payment;
    }),
});
