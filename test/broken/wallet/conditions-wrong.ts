import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 5 writes the conditions with a value that is not the request's. */
export const conditionsWrong = brokenWallet({
  id: 'wallet-conditions-wrong',
  fault: "intent.conditions carries a remittance_info / txid / order_reference that is not the request's",
  expected: ['CPR-2.10-INTENT-CONDITIONS', 'PRF-3-INTENT-CONDITIONS'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      const c = payment.intent.conditions;
      for (const name of ['remittance_info', 'txid', 'order_reference', 'end_to_end_id']) {
        if (typeof c[name] === 'string') c[name] = `${c[name]}-x`;
      }
      return payment;
    }),
});
