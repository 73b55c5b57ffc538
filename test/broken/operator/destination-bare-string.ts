import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { Destination } from '../../../src/reference/operator/types.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: a bare-string destination is read as an account reference. */
class BareDestinationParser extends MessageParser {
  protected override destination(obj: Record<string, unknown>, key: string): Destination {
    const value = obj[key];
    if (typeof value === 'string' && value !== '') return { type: 'account', reference: value }; // the fault
    return super.destination(obj, key);
  }
}

class DestinationBareStringOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new BareDestinationParser();
  }
}

/** `"destination": "acct"` is accepted. */
export const destinationBareString: BrokenImplementation = {
  id: 'operator-destination-bare-string',
  target: 'operator',
  fault: 'a redemption destination given as a bare string is accepted',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, DestinationBareStringOperator),
};
