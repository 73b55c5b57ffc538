import { type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { StoreState } from '../../../src/reference/operator/store.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 money broken: a redemption returns the funds to the Principal's available balance. */
class RedeemRefundsPrincipalOperator extends ReferenceOperator {
  protected override moveFunds(
    state: StoreState,
    record: PackRecord,
    from: 'locked' | 'available',
    to: 'available' | 'redeemedOut' | 'locked',
  ): void {
    super.moveFunds(state, record, from, to === 'redeemedOut' ? 'available' : to); // the fault
  }
}

/** Redeemed funds go back to the Principal. */
export const redeemRefundsPrincipal: BrokenImplementation = {
  id: 'operator-redeem-refunds-principal',
  target: 'operator',
  fault: "a redemption puts the pack's funds back into the Principal's available balance",
  expected: ['CP-3-REDEEMED', 'PRF-4-MONEY-FLOWS'],
  start: ({ workDir }) => startBrokenOperator(workDir, RedeemRefundsPrincipalOperator),
};
