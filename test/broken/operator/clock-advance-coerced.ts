import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 2 broken: the clock body's `advance_seconds` is coerced with `Number()`, so a string
 * "5", null, true or [5] advances the clock (by 5, 0, 1, 5 s) instead of being refused.
 */
class CoercingClockParser extends MessageParser {
  override clockAdvance(body: unknown): number {
    const raw =
      body !== null && typeof body === 'object'
        ? (body as Record<string, unknown>).advance_seconds
        : undefined;
    const n = Number(raw); // the fault: no type check
    if (!Number.isSafeInteger(n) || n < 0) return super.clockAdvance(body);
    return n;
  }
}

class ClockAdvanceCoercedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new CoercingClockParser();
  }
}

/** A clock request whose advance_seconds is no number moves the clock. */
export const clockAdvanceCoerced: BrokenImplementation = {
  id: 'operator-clock-advance-coerced',
  target: 'operator',
  fault:
    'the test clock coerces advance_seconds with Number(): "5", null, true or [5] move the clock instead of a 400',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-2-HARNESS-CLOCK-OPERATOR'],
  start: ({ workDir }) => startBrokenOperator(workDir, ClockAdvanceCoercedOperator),
};
