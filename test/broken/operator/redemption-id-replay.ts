import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { IdKind, StoreState } from '../../../src/reference/operator/store.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 1 DUPLICATE_ID broken for redemptions: a redemption_id seen before is accepted again. */
class RedemptionIdReplayOperator extends ReferenceOperator {
  protected override checkDuplicateId(state: StoreState, kind: IdKind, id: string): void {
    if (kind === 'redemption_id') return; // the fault
    super.checkDuplicateId(state, kind, id);
  }
}

/** A redemption re-using a redemption_id is accepted. */
export const redemptionIdReplay: BrokenImplementation = {
  id: 'operator-redemption-id-replay',
  target: 'operator',
  fault: 'a redemption_id seen before is accepted in a new redemption',
  expected: ['PRF-1-REDEMPTION-ID-REPLAY'],
  start: ({ workDir }) => startBrokenOperator(workDir, RedemptionIdReplayOperator),
};
