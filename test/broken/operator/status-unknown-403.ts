import {
  OperatorError,
  type OperatorResponse,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 status binding broken: an unknown pack answers 403 FORBIDDEN even to the Operator. */
class StatusUnknown403Operator extends ReferenceOperator {
  override async status(packId: string, authorization: string | undefined): Promise<OperatorResponse> {
    if (this.store.getPack(packId) === undefined) {
      throw new OperatorError('FORBIDDEN', 'no access'); // the fault: should be 404 PACK_UNKNOWN
    }
    return super.status(packId, authorization);
  }
}

/** Unknown packs are 403 instead of 404. */
export const statusUnknown403: BrokenImplementation = {
  id: 'operator-status-unknown-403',
  target: 'operator',
  fault:
    'the status of an unknown pack answers 403 FORBIDDEN instead of 404 PACK_UNKNOWN to authenticated callers',
  expected: ['PRF-4-STATUS-UNKNOWN-404'],
  start: ({ workDir }) => startBrokenOperator(workDir, StatusUnknown403Operator),
};
