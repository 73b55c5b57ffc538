import { RAILS } from '../../../src/model/cpr.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet } from './harness.js';

/** Rails this wallet declares and executes: no instant-key rail, no SWIFT. */
const DECLARED = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH'] as const;

/** Rail selection (4.4 step 2) never refuses: an unsupported rail is derived anyway, silently. */
export const silentUnsupportedRail = brokenWallet({
  id: 'wallet-silent-unsupported-rail',
  fault:
    'rail selection of 4.4 step 2 never refuses: a request on a rail the wallet does not support is derived silently',
  expected: [
    'CPR-4.4-REJECT-UNSERVABLE-RAIL',
    'CPR-4.5-UNSUPPORTED-RAIL-MESSAGE',
    'CPR-4.5-UNSUPPORTED-RAIL-NOT-IGNORED',
    'CPR-7-UNSUPPORTED-RAIL',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  supportedRails: DECLARED,
  core: (options) => {
    const core = createWalletCore(options);
    const anyRail = createWalletCore({ ...options, supportedRails: RAILS });
    return {
      async derive(body) {
        const result = await core.derive(body);
        if (!result.ok && result.error.code === 'UNSUPPORTED_RAIL') return anyRail.derive(body);
        return result;
      },
      async close() {
        await core.close();
        await anyRail.close();
      },
    };
  },
});
