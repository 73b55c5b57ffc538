import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 3 broken, on an Operator without a test clock: packs never expire on the live timeline. */
class ExpiryNotEnforcedOperator extends ReferenceOperator {
  protected override hasExpired(): boolean {
    return false; // the fault: `now >= pack.expiresAtMs` made false
  }
}

/** Without a clock (min_expiry_seconds 4), the waiting real-expiry check must catch it. */
export const expiryNotEnforcedNoClock: BrokenImplementation = {
  id: 'operator-expiry-not-enforced-no-clock',
  target: 'operator',
  fault: 'a pack past its expires_at stays ACTIVE, on an Operator without a test clock (caught by waiting)',
  expected: ['CP-3-EXPIRED', 'CP-7-INSTRUMENT-NOT-ACTIVE', 'PRF-4-EXPIRED-ON-ACCESS'],
  start: ({ workDir }) =>
    startBrokenOperator(workDir, ExpiryNotEnforcedOperator, {
      testClock: false,
      policy: { min_expiry_seconds: 4 },
    }),
};
