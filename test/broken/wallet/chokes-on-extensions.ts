import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, refusal, refuseFirst } from './harness.js';

/** Step 1 refuses any extension key it does not know (it knows none). */
export const chokesOnExtensions = brokenWallet({
  id: 'wallet-chokes-on-extensions',
  fault: 'an extensions map with keys the wallet does not recognise is refused instead of ignored',
  expected: ['CPR-9-EXTENSIONS-NO-BREAK', 'CPR-9-IGNORE-UNKNOWN-EXTENSIONS', 'PRF-3-EXTENSIONS-NEVER-FIELDS'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const ext = cprOf(body)?.extensions;
      const keys = typeof ext === 'object' && ext !== null ? Object.keys(ext) : [];
      return keys.length > 0
        ? refusal('INVALID_STRUCTURE', `unknown extension key ${JSON.stringify(keys[0])}`)
        : undefined;
    }),
});
