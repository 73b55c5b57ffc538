import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, brokenWallet, editRequests } from './harness.js';

/** Step 4 ignores the payer's amount and fills an open amount with 1 unit. */
export const openAmountIgnored = brokenWallet({
  id: 'wallet-open-amount-ignored',
  fault: "an open amount is filled with a default of 1 unit instead of the payer's amount",
  expected: ['CPR-2.3-AMOUNT-OMITTED-OPEN', 'CPR-4.5-OPEN-AMOUNT', 'PRF-3-DERIVE-ERROR-CODES'],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const b = bodyOf(body);
      if (!b || typeof b.context !== 'object' || b.context === null) return body;
      return { ...b, context: { ...b.context, payer_amount: '1' } };
    }),
});
