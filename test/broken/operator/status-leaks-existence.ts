import {
  OperatorError,
  type OperatorResponse,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: an unknown pack answers 404 before the credential is looked at. */
class StatusLeaksExistenceOperator extends ReferenceOperator {
  override async status(packId: string, authorization: string | undefined): Promise<OperatorResponse> {
    if (this.store.getPack(packId) === undefined) {
      throw new OperatorError('PACK_UNKNOWN', 'no such cash-pack'); // the fault: tells an outsider
    }
    return super.status(packId, authorization);
  }
}

/** An outsider learns which pack_ids exist. */
export const statusLeaksExistence: BrokenImplementation = {
  id: 'operator-status-leaks-existence',
  target: 'operator',
  fault: 'the status endpoint answers 404 PACK_UNKNOWN to a caller without a valid credential',
  expected: ['PRF-4-STATUS-NO-EXISTENCE-LEAK'],
  start: ({ workDir }) => startBrokenOperator(workDir, StatusLeaksExistenceOperator),
};
