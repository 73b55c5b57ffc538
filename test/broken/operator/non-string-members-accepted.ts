import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: a string member of any other JSON type is turned into a string. */
class CoercingParser extends MessageParser {
  protected override str(obj: Record<string, unknown>, key: string, where: string): string {
    const v = obj[key];
    if (v === undefined || v === null || v === '') throw this.bad(`"${key}" in ${where} is required`);
    return typeof v === 'string' ? v : JSON.stringify(v); // the fault: no type check
  }
}

class NonStringMembersAcceptedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new CoercingParser();
  }
}

/** A number destination reference (and other non-string members) are accepted. */
export const nonStringMembersAccepted: BrokenImplementation = {
  id: 'operator-non-string-members-accepted',
  target: 'operator',
  fault: 'non-string values are coerced to strings (a number destination reference is redeemed to)',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-LOCK-REQUEST-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, NonStringMembersAcceptedOperator),
};
