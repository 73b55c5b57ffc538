import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: an empty string passes as a string member. */
class EmptyStringParser extends MessageParser {
  protected override str(obj: Record<string, unknown>, key: string, where: string): string {
    const v = obj[key];
    if (typeof v !== 'string') throw this.bad(`"${key}" in ${where} must be a string`); // the fault: '' passes
    return v;
  }
}

class EmptyStringsAcceptedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new EmptyStringParser();
  }
}

/** An empty destination reference (and other empty string members) are accepted. */
export const emptyStringsAccepted: BrokenImplementation = {
  id: 'operator-empty-strings-accepted',
  target: 'operator',
  fault: 'empty strings are accepted as string members (an empty destination reference is redeemed to)',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-LOCK-REQUEST-SHAPE', // an asset with an empty chain_id
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, EmptyStringsAcceptedOperator),
};
