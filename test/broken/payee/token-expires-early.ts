import { type TokenRecord, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (token_ttl_seconds sets the lifetime): a token dies 10 s before its reported expiry. */
class EarlyTokenStore extends TokenStore {
  override isExpired(record: TokenRecord, now: Date): boolean {
    return now.getTime() >= record.expiresAt.getTime() - 10_000;
  }
}

/** Tokens stop working 10 s before token_expires_at. */
export const tokenExpiresEarly: BrokenImplementation = {
  id: 'payee-token-expires-early',
  target: 'payee',
  fault: 'a token stops serving its CPR 10 s before the token_expires_at the harness reported',
  expected: ['PRF-2-HARNESS-TOKEN-TTL'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new EarlyTokenStore() }),
};
