import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile broken: a negative advance moves the test clock back. */
class ClockMovesBackOperator extends ReferenceOperator {
  override async advanceClock(body: unknown): Promise<OperatorResponse> {
    const seconds = (body as { advance_seconds?: unknown }).advance_seconds;
    if (typeof seconds === 'number' && Number.isSafeInteger(seconds) && seconds < 0) {
      this.clockOffsetMs += seconds * 1000; // the fault: the clock goes back
      return { status: 200, body: { now: new Date(this.now()).toISOString() } };
    }
    return super.advanceClock(body);
  }
}

/** `{"advance_seconds": -60}` moves now back a minute. */
export const clockMovesBack: BrokenImplementation = {
  id: 'operator-clock-moves-back',
  target: 'operator',
  fault: 'POST {harness}/clock with a negative advance moves the clock back',
  expected: ['PRF-2-HARNESS-CLOCK-OPERATOR'],
  start: ({ workDir }) => startBrokenOperator(workDir, ClockMovesBackOperator),
};
