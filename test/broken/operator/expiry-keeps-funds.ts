import { type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { StoreState } from '../../../src/reference/operator/store.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 3 EXPIRED broken: the funds of an expired pack are not returned to the Principal. */
class ExpiryKeepsFundsOperator extends ReferenceOperator {
  protected override moveFunds(
    state: StoreState,
    record: PackRecord,
    from: 'locked' | 'available',
    to: 'available' | 'redeemedOut' | 'locked',
  ): void {
    if (from === 'locked' && to === 'available') return; // the fault: expiry returns nothing
    super.moveFunds(state, record, from, to);
  }
}

/** An EXPIRED pack's funds stay locked. */
export const expiryKeepsFunds: BrokenImplementation = {
  id: 'operator-expiry-keeps-funds',
  target: 'operator',
  fault: 'an EXPIRED pack does not return its funds to the Principal',
  // the real-expiry check also sees it: the whole balance it locked does not come back
  expected: ['CP-3-EXPIRED', 'CP-7-INSTRUMENT-NOT-ACTIVE', 'PRF-4-EXPIRED-ON-ACCESS'],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiryKeepsFundsOperator),
};
