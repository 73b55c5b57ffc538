import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { IdKind, StoreState } from '../../../src/reference/operator/store.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 2 and 8 broken for Lock Requests: a request_id seen before is accepted again. */
class RequestIdReplayOperator extends ReferenceOperator {
  protected override checkDuplicateId(state: StoreState, kind: IdKind, id: string): void {
    if (kind === 'request_id') return; // the fault
    super.checkDuplicateId(state, kind, id);
  }
}

/** A replayed request_id issues a second cash-pack. */
export const requestIdReplay: BrokenImplementation = {
  id: 'operator-request-id-replay',
  target: 'operator',
  fault: 'a replayed request_id is accepted and issues another cash-pack',
  expected: [
    'CP-2-REQUEST-ID-REPLAY',
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-7-DUPLICATE-ID',
    'CP-8-ID-SINGLE-USE',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, RequestIdReplayOperator),
};
