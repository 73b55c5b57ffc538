import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, refusal, refuseFirst } from './harness.js';

/** Step 1 refuses every JSON-number amount, safe integers included. */
export const rejectsNumberAmount = brokenWallet({
  id: 'wallet-rejects-number-amount',
  fault: 'a JSON-number amount is refused even when it is a safe integer (profile 1 asks to accept it)',
  expected: ['PRF-1-AMOUNT-NUMBER-SAFE'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const value = cprOf(body)?.value as { amount?: unknown } | undefined;
      return typeof value?.amount === 'number'
        ? refusal('INVALID_STRUCTURE', '"value.amount" must be a string of digits, not a JSON number')
        : undefined;
    }),
});
