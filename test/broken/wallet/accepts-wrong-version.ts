import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, brokenWallet, cprOf, editRequests } from './harness.js';

/** Step 1 skips the cpr_version check: any version of a direct CPR is read as CPR-1.0. */
export const acceptsWrongVersion = brokenWallet({
  id: 'wallet-accepts-wrong-version',
  fault: 'the cpr_version check of 4.4 step 1 is skipped: a CPR of any or no version is derived as CPR-1.0',
  // the mutations version-missing (CPR-2.1-REQUIRED-FIELDS) and version-wrong (CPR-2.1-VERSION)
  // are derived instead of refused
  expected: [
    'CPR-2.1-REQUIRED-FIELDS',
    'CPR-2.1-VERSION',
    'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-9-VERSION-VALIDATED',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (cpr) {
        cpr.cpr_version = 'CPR-1.0';
        return { ...bodyOf(body), cpr };
      }
      return body;
    }),
});
