import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 1 and 4 broken: the cash-pack carries expires_at with the offset the request used. */
class OffsetEchoedOperator extends ReferenceOperator {
  protected override emittedExpiry(requested: string): string {
    return requested; // the fault: not normalised to Z
  }
}

/** expires_at is emitted as `...+14:00` when requested so. */
export const offsetEchoed: BrokenImplementation = {
  id: 'operator-offset-echoed',
  target: 'operator',
  fault: 'the cash-pack echoes the request expires_at with its offset instead of writing Z',
  expected: ['PRF-4-REQUEST-TIMESTAMP-OFFSET'],
  start: ({ workDir }) => startBrokenOperator(workDir, OffsetEchoedOperator),
};
