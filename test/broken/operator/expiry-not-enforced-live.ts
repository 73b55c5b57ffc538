import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 3 broken: a pack never expires on the live timeline (only the harness expires it). */
class ExpiryNotEnforcedLiveOperator extends ReferenceOperator {
  protected override hasExpired(): boolean {
    return false; // the fault: `now >= pack.expiresAtMs` made false (a mutation-testing survivor)
  }
}

/** Packs past their expires_at stay ACTIVE. */
export const expiryNotEnforcedLive: BrokenImplementation = {
  id: 'operator-expiry-not-enforced-live',
  target: 'operator',
  fault: 'a pack past its expires_at stays ACTIVE: expiry is never enforced on the live timeline',
  expected: [
    'CP-3-EXPIRED',
    'CP-7-INSTRUMENT-NOT-ACTIVE',
    'PRF-2-HARNESS-CLOCK-OPERATOR',
    'PRF-4-EXPIRED-ON-ACCESS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiryNotEnforcedLiveOperator),
};
