import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 6 answers a made-up authorization instead of the one the application produced (the context's). */
export const ownAuthorization = brokenWallet({
  id: 'wallet-own-authorization',
  fault: 'payment.authorization is a fixed placeholder instead of context.authorization',
  expected: ['CPR-2.10-AUTHORIZATION', 'CPR-4.4-OWN-AUTHORIZATION'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      payment.authorization = { type: 'none' };
      return payment;
    }),
});
