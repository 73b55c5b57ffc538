import {
  OperatorError,
  type OperatorResponse,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 harness broken: cancelling a terminal pack answers 200 CANCELLED (nothing changes). */
class HarnessCancelTerminal200Operator extends ReferenceOperator {
  override async cancel(body: unknown): Promise<OperatorResponse> {
    try {
      return await super.cancel(body);
    } catch (error) {
      if (!(error instanceof OperatorError) || error.code !== 'INSTRUMENT_NOT_ACTIVE') throw error;
      // the fault: claims success instead of 409 INSTRUMENT_NOT_ACTIVE
      return { status: 200, body: { pack_id: (body as { pack_id?: unknown }).pack_id, status: 'CANCELLED' } };
    }
  }
}

/** The harness reports a terminal pack as cancelled. */
export const harnessCancelTerminal200: BrokenImplementation = {
  id: 'operator-harness-cancel-terminal-200',
  target: 'operator',
  fault: 'the harness answers 200 CANCELLED to a cancel of a pack that is already terminal',
  expected: ['PRF-4-HARNESS-TERMINAL-409'],
  start: ({ workDir }) => startBrokenOperator(workDir, HarnessCancelTerminal200Operator),
};
