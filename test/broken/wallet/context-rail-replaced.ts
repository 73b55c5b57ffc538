import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 7 puts the wallet's own rail record in the payment's context instead of the ExecutionContext given. */
export const contextRailReplaced = brokenWallet({
  id: 'wallet-context-rail-replaced',
  fault: "payment.context.rail is the wallet's own rail record instead of the ExecutionContext given",
  expected: ['CPR-2.10-CONTEXT', 'PRF-3-CONTEXT-RAIL-OPAQUE', 'PRF-3-PAYMENT-CONTEXT-RAIL'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      payment.context.rail = { rail: payment.intent.conditions.rail };
      return payment;
    }),
});
