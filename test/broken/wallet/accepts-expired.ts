import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet } from './harness.js';

/** Step 1's expiry check reads a clock stuck at 1970, so expired requests are derived. */
export const acceptsExpired = brokenWallet({
  id: 'wallet-accepts-expired',
  fault:
    'the expiry check of 4.4 step 1 uses a clock stuck in 1970, so requests whose expires_at is past are derived',
  expected: [
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-7-EXPIRED-REJECTED',
    'CPR-8-REQUEST-VALIDITY',
    'CPR-INV-2-EXPIRY-ENFORCEMENT',
    'CPR-INV-7-REJECTS-EXPIRED',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-1-TIMESTAMP-ANY-OFFSET',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) => createWalletCore({ ...options, clock: () => new Date(0) }),
});
