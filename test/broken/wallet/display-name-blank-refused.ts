import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, refusal, refuseFirst } from './harness.js';

/** Empty or only (Unicode) white space. */
const BLANK = /^\s*$/u;

/** A payee.display_name that is empty or only white space is refused (a payee rule applied by the wallet). */
export const displayNameBlankRefused = brokenWallet({
  id: 'wallet-display-name-blank-refused',
  fault:
    'a payee.display_name that is empty or only white space is refused with INVALID_STRUCTURE (profile 2: only a payee must not emit it; a wallet accepts it)',
  expected: ['PRF-2-DISPLAY-NAME-NOT-BLANK'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const payee = cprOf(body)?.payee as { display_name?: unknown } | undefined;
      const name = typeof payee === 'object' && payee !== null ? payee.display_name : undefined;
      return typeof name === 'string' && BLANK.test(name)
        ? refusal('INVALID_STRUCTURE', `"payee.display_name" ${JSON.stringify(name)} is blank`)
        : undefined;
    }),
});
