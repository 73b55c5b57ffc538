import { type ConsumeResult, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: a token never issued is reported as consumed. */
class ConsumedByDefaultStore extends TokenStore {
  override consume(token: string, now: Date): ConsumeResult | Promise<ConsumeResult> {
    if (!this.records.has(token)) return { outcome: 'consumed' };
    return super.consume(token, now);
  }
}

/** Unknown tokens answer 410 TOKEN_CONSUMED. */
export const unknownTokenConsumed: BrokenImplementation = {
  id: 'payee-unknown-token-consumed',
  target: 'payee',
  fault: 'a token never issued answers 410 TOKEN_CONSUMED instead of 404 TOKEN_UNKNOWN',
  expected: ['PRF-2-TOKEN-UNKNOWN-404'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new ConsumedByDefaultStore() }),
};
