import {
  type PackRecord,
  ReferenceOperator,
  type StoreState,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Spec CP 3 broken: expiry does not look at the status, so a REDEEMED or CANCELLED pack whose
 * expires_at passes turns EXPIRED and its amount goes back to the Principal (a mutation-testing
 * survivor: `record.status !== 'ACTIVE'` made `false`).
 */
class TerminalPackExpiresOperator extends ReferenceOperator {
  protected override expireIfDue(state: StoreState, record: PackRecord, now: number): void {
    if (!this.hasExpired(record, now)) return; // the fault: the status is not tested
    record.status = 'EXPIRED';
    this.moveFunds(state, record, 'locked', 'available');
  }
}

/** A terminal pack turns EXPIRED once its expires_at passes. */
export const terminalPackExpires: BrokenImplementation = {
  id: 'operator-terminal-pack-expires',
  target: 'operator',
  fault:
    'a REDEEMED or CANCELLED pack turns EXPIRED (funds back to the Principal) once its expires_at passes',
  expected: ['CP-3-CANCELLED', 'CP-3-REDEEMED', 'CP-3-TERMINAL-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, TerminalPackExpiresOperator),
};
