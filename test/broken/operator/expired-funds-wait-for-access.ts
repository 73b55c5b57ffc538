import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: an expired pack's funds come back only once the pack itself is accessed. */
class ExpiredFundsWaitForAccessOperator extends ReferenceOperator {
  protected override async settleExpiredOf(): Promise<void> {
    // the fault: the Principal's balance is read without settling their expired packs
  }
}

/** The balance locked by an expired, untouched pack is still unavailable. */
export const expiredFundsWaitForAccess: BrokenImplementation = {
  id: 'operator-expired-funds-wait-for-access',
  target: 'operator',
  fault: 'the funds of a pack past its expires_at stay locked until the pack itself is accessed',
  expected: ['CP-3-EXPIRED', 'CP-7-INSTRUMENT-NOT-ACTIVE', 'PRF-4-EXPIRED-ON-ACCESS'],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiredFundsWaitForAccessOperator),
};
