import { type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 3 broken: a pack moved to EXPIRED is still accepted for renewal and redemption. */
class ExpiredStillActiveOperator extends ReferenceOperator {
  protected override checkActive(pack: PackRecord, now: number): void {
    if (pack.status === 'EXPIRED') return; // the fault
    super.checkActive(pack, now);
  }
}

/** An EXPIRED pack can still be renewed or redeemed. */
export const expiredStillActive: BrokenImplementation = {
  id: 'operator-expired-still-active',
  target: 'operator',
  fault: 'an EXPIRED pack is still accepted for renewal and redemption',
  // the random sequences of the CP-3 model check meet this fault only after their first 25 runs
  runs: 100,
  expected: [
    'CP-3-ACTIVE',
    'CP-3-EXPIRED',
    'CP-3-TERMINAL-STATUS',
    'CP-7-INSTRUMENT-NOT-ACTIVE',
    'PRF-4-EXPIRED-ON-ACCESS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiredStillActiveOperator),
};
