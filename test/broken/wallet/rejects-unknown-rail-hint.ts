import { isRailHint } from '../../../src/model/cpr.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, cprOf, refusal, refuseFirst } from './harness.js';

/** Step 1 treats a rail_hint outside the eight values as a structure error. */
export const rejectsUnknownRailHint = brokenWallet({
  id: 'wallet-rejects-unknown-rail-hint',
  fault:
    'a rail_hint outside the eight values of 2.4 is refused as INVALID_STRUCTURE instead of being ignored',
  expected: ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const hint = cprOf(body)?.rail_hint;
      return hint !== undefined && !isRailHint(hint)
        ? refusal('INVALID_STRUCTURE', `"rail_hint" ${JSON.stringify(hint)} is not a RailHint`)
        : undefined;
    }),
});
