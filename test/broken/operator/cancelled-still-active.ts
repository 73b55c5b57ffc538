import { type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 3 broken: CANCELLED is treated as not terminal. */
class CancelledStillActiveOperator extends ReferenceOperator {
  protected override checkActive(pack: PackRecord, now: number): void {
    if (pack.status === 'CANCELLED') return; // the fault
    super.checkActive(pack, now);
  }
}

/** A CANCELLED pack can still be renewed, redeemed or cancelled again. */
export const cancelledStillActive: BrokenImplementation = {
  id: 'operator-cancelled-still-active',
  target: 'operator',
  fault: 'a CANCELLED pack is still accepted for renewal and redemption',
  expected: ['CP-3-ACTIVE', 'CP-3-CANCELLED', 'CP-3-TERMINAL-STATUS', 'CP-7-INSTRUMENT-NOT-ACTIVE'],
  start: ({ workDir }) => startBrokenOperator(workDir, CancelledStillActiveOperator),
};
