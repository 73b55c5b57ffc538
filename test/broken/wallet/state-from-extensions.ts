import type { DerivedPayment } from '../../../src/reference/wallet/derive.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, editPayments } from './harness.js';

/** Extension member names this wallet reads a payment state from (names the validator lets through). */
const STATE_LIKE = /(^|:)(payment_stage|lifecycle)$/i;

/** Step 7 takes the Payment's state from state-like data in the CPR's extensions. */
export const stateFromExtensions = brokenWallet({
  id: 'wallet-state-from-extensions',
  fault:
    "the Payment's state is carried over from state-like data in the CPR's extensions instead of starting fresh",
  expected: ['CPR-3-NO-STATE-CARRIED'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      const ext = cprOf(body)?.extensions;
      if (typeof ext !== 'object' || ext === null) return payment;
      const found = Object.entries(ext).find(
        ([key, value]) => STATE_LIKE.test(key) && typeof value === 'string',
      );
      if (found) (payment as { state: string }).state = found[1] as string;
      return payment as DerivedPayment;
    }),
});
