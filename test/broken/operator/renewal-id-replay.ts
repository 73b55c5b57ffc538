import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { IdKind, StoreState } from '../../../src/reference/operator/store.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 2 and 8 broken for Renewal Entries: a renewal_id seen before is accepted again. */
class RenewalIdReplayOperator extends ReferenceOperator {
  protected override checkDuplicateId(state: StoreState, kind: IdKind, id: string): void {
    if (kind === 'renewal_id') return; // the fault
    super.checkDuplicateId(state, kind, id);
  }
}

/** A renewal re-using a renewal_id is accepted. */
export const renewalIdReplay: BrokenImplementation = {
  id: 'operator-renewal-id-replay',
  target: 'operator',
  fault: 'a renewal_id seen before is accepted in a new renewal',
  // the random sequences of the CP-3 model check meet this fault only after their first 25 runs
  runs: 100,
  expected: [
    'CP-2-RENEWAL-ID-REPLAY',
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-7-DUPLICATE-ID',
    'CP-8-ID-SINGLE-USE',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, RenewalIdReplayOperator),
};
