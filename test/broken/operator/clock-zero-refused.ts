import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 2 broken: the test clock refuses an advance of 0 s (it asks for a positive N). */
class PositiveClockParser extends MessageParser {
  override clockAdvance(body: unknown): number {
    const n = super.clockAdvance(body);
    if (n === 0) throw this.bad('"advance_seconds" must be positive'); // the fault
    return n;
  }
}

class ClockZeroRefusedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new PositiveClockParser();
  }
}

/** POST {harness}/clock {"advance_seconds": 0} answers 400. */
export const clockZeroRefused: BrokenImplementation = {
  id: 'operator-clock-zero-refused',
  target: 'operator',
  fault: 'the test clock refuses {"advance_seconds": 0} with 400 instead of answering 200 {now}',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-2-HARNESS-CLOCK-OPERATOR'],
  start: ({ workDir }) => startBrokenOperator(workDir, ClockZeroRefusedOperator),
};
