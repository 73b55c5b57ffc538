import { type TokenRecord, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 5 rule 2 broken: `invalidate` forgets to mark the token used. */
class ReusableTokenStore extends TokenStore {
  override invalidate(_record: TokenRecord): void {
    // the fault: the token stays valid after a successful retrieval
  }
}

/** A consumed token serves the CPR again. */
export const tokenReuse: BrokenImplementation = {
  id: 'payee-token-reuse',
  target: 'payee',
  fault: 'a token is never invalidated: every retrieval of it serves the CPR again',
  expected: [
    'CPR-5-TOKEN-SINGLE-USE',
    'CPR-8-TOKEN-USES',
    'CPR-5-TOKEN-REUSE-ERROR',
    'CPR-7-TOKEN-REUSE',
    'PRF-2-TOKEN-CONSUMED-410',
  ],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new ReusableTokenStore() }),
};
