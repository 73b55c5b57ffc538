import { MessageParser, OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 1 broken: the test clock refuses a malformed or negative advance with an empty message. */
class SilentClockParser extends MessageParser {
  override clockAdvance(body: unknown): number {
    try {
      return super.clockAdvance(body);
    } catch (e) {
      if (e instanceof OperatorError) throw new OperatorError(e.code, ''); // the fault: no text for a person
      throw e;
    }
  }
}

class ClockRefusalWithoutMessageOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new SilentClockParser();
  }
}

/** POST {harness}/clock with a bad advance_seconds answers {"error": {"code": "INVALID_REQUEST", "message": ""}}. */
export const clockRefusalWithoutMessage: BrokenImplementation = {
  id: 'operator-clock-refusal-without-message',
  target: 'operator',
  fault: 'the test clock refuses a malformed or negative advance_seconds with an empty error message',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-2-HARNESS-CLOCK-OPERATOR'],
  start: ({ workDir }) => startBrokenOperator(workDir, ClockRefusalWithoutMessageOperator),
};
