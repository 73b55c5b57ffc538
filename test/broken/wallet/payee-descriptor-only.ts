import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, editPayments } from './harness.js';

/** Step 7 copies the payee descriptor only, without the CPR's sub-interface fields. */
export const payeeDescriptorOnly = brokenWallet({
  id: 'wallet-payee-descriptor-only',
  fault: "payment.payee is the payee descriptor alone, without the CPR's sub-interface fields (profile 3)",
  expected: ['PRF-3-PAYMENT-PAYEE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      const { display_name, rail_address } = payment.payee;
      payment.payee = display_name === undefined ? { rail_address } : { display_name, rail_address };
      return payment;
    }),
});
