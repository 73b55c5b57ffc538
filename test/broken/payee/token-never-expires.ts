import { type TokenRecord, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 5 rule 1 broken: a token is never past its lifetime. */
class ImmortalTokenStore extends TokenStore {
  override isExpired(_record: TokenRecord, _now: Date): boolean {
    return false;
  }
}

/** Tokens work after token_expires_at. */
export const tokenNeverExpires: BrokenImplementation = {
  id: 'payee-token-never-expires',
  target: 'payee',
  fault: 'a token still serves the CPR after its token_expires_at',
  expected: ['CPR-5-TOKEN-EXPIRY', 'PRF-2-TOKEN-EXPIRED-410'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new ImmortalTokenStore() }),
};
