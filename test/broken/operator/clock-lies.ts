import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile broken: the test clock answers the advanced now but no expiry decision sees it. */
class ClockLiesOperator extends ReferenceOperator {
  private claimedMs = 0;

  override async advanceClock(body: unknown): Promise<OperatorResponse> {
    const seconds = (body as { advance_seconds?: unknown }).advance_seconds;
    if (typeof seconds !== 'number' || seconds < 0) return super.advanceClock(body);
    this.claimedMs += seconds * 1000; // the fault: only the answer moves
    return { status: 200, body: { now: new Date(this.now() + this.claimedMs).toISOString() } };
  }
}

/** The clock endpoint lies: it advances nothing. */
export const clockLies: BrokenImplementation = {
  id: 'operator-clock-lies',
  target: 'operator',
  fault: 'POST {harness}/clock answers the advanced now but moves no expiry decision',
  expected: [
    'CP-3-EXPIRED',
    'CP-7-INSTRUMENT-NOT-ACTIVE',
    'PRF-2-HARNESS-CLOCK-OPERATOR',
    'PRF-4-EXPIRED-ON-ACCESS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, ClockLiesOperator),
};
