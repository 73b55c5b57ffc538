import { TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: tokens are written in upper-case base32. */
class UpperCaseTokenStore extends TokenStore {
  override generateToken(): string {
    return super.generateToken().toUpperCase();
  }
}

/** Tokens in upper case (a URI parser may fold a host's case). */
export const uppercaseTokens: BrokenImplementation = {
  id: 'payee-uppercase-tokens',
  target: 'payee',
  fault: 'tokens are upper-case base32, which a URI parser may fold to lower case',
  expected: ['PRF-2-TOKEN-FORMAT'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new UpperCaseTokenStore() }),
};
