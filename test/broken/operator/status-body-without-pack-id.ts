import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 status binding broken: the answer is {status} without pack_id. */
class StatusBodyWithoutPackIdOperator extends ReferenceOperator {
  override async status(packId: string, authorization: string | undefined): Promise<OperatorResponse> {
    const response = await super.status(packId, authorization);
    const { status } = response.body as { status: string };
    return { status: response.status, body: { status } }; // the fault
  }
}

/** The status answer lacks pack_id. */
export const statusBodyWithoutPackId: BrokenImplementation = {
  id: 'operator-status-body-without-pack-id',
  target: 'operator',
  fault: 'the status answer is {status} without pack_id',
  expected: ['PRF-4-STATUS-BINDING'],
  start: ({ workDir }) => startBrokenOperator(workDir, StatusBodyWithoutPackIdOperator),
};
