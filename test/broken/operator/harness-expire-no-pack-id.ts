import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 harness broken: expire answers {status} without pack_id. */
class HarnessExpireNoPackIdOperator extends ReferenceOperator {
  override async expire(body: unknown): Promise<OperatorResponse> {
    const response = await super.expire(body);
    const { status } = response.body as { status: string };
    return { status: response.status, body: { status } }; // the fault
  }
}

/** The harness expire answer lacks pack_id. */
export const harnessExpireNoPackId: BrokenImplementation = {
  id: 'operator-harness-expire-no-pack-id',
  target: 'operator',
  fault: 'the harness expire answer is {status} without pack_id',
  expected: ['PRF-4-HARNESS-EXPIRE-CANCEL'],
  start: ({ workDir }) => startBrokenOperator(workDir, HarnessExpireNoPackIdOperator),
};
