import type { DerivedPayment } from '../../../src/reference/wallet/derive.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 7 assembles the Payment in state PENDING instead of CREATED. */
export const stateNotCreated = brokenWallet({
  id: 'wallet-state-not-created',
  fault: 'the derived Payment starts in state PENDING instead of CREATED',
  expected: [
    'CPR-2.10-STATE',
    'CPR-3-PAYMENT-CREATED',
    'PRF-3-HARNESS-MESSAGE-SCHEMA',
    'PRF-3-PAYMENT-SHAPE',
  ],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      (payment as { state: string }).state = 'PENDING';
      return payment as DerivedPayment;
    }),
});
