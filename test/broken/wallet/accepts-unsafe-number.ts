import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, brokenWallet, cprOf, editRequests } from './harness.js';

/** Step 1 reads any JSON-number amount as digits, beyond 2^53 and with fractions too. */
export const acceptsUnsafeNumber = brokenWallet({
  id: 'wallet-accepts-unsafe-number',
  fault:
    'a JSON-number amount that is not a safe integer is accepted (its digits, rounded) instead of refused',
  expected: [
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-1-AMOUNT-NUMBER-UNSAFE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      const value = cpr?.value as { amount?: unknown } | undefined;
      if (!cpr || typeof value?.amount !== 'number' || Number.isSafeInteger(value.amount)) return body;
      const digits = BigInt(Math.max(1, Math.round(value.amount))).toString();
      return { ...bodyOf(body), cpr: { ...cpr, value: { ...value, amount: digits } } };
    }),
});
