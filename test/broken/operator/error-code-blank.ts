import { MessageParser, OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { ErrorBody } from '../../../src/reference/operator/types.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** An INVALID_REQUEST whose body carries an empty code (status 400 kept). */
class BlankCodeError extends OperatorError {
  override toBody(): ErrorBody {
    return { error: { code: '' as ErrorBody['error']['code'], message: this.message } }; // the fault
  }
}

class BlankCodeParser extends MessageParser {
  protected override bad(message: string): OperatorError {
    return new BlankCodeError('INVALID_REQUEST', message);
  }
}

/** Profile 1 broken: schema failures answer 400 with `"code": ""`. */
class ErrorCodeBlankOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new BlankCodeParser();
  }
}

/** Schema failures carry an empty error code. */
export const errorCodeBlank: BrokenImplementation = {
  id: 'operator-error-code-blank',
  target: 'operator',
  fault: 'a schema failure answers 400 with an empty error code',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-2-HARNESS-CLOCK-OPERATOR', // the clock's refusal of a malformed body has no code either
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-HARNESS-BALANCE-INVALID-400', // the balance harness's refusals have no code either
    'PRF-4-LOCK-REQUEST-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
    'PRF-4-RENEW-BINDING',
    'PRF-4-RENEWAL-ENTRY-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, ErrorCodeBlankOperator),
};
