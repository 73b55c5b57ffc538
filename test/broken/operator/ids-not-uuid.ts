import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 1 broken: an identifier is any non-empty string (no UUID grammar). */
class AnyIdParser extends MessageParser {
  protected override uuid(obj: Record<string, unknown>, key: string, where: string): string {
    return this.str(obj, key, where); // the fault: "urn:uuid:...", "not-a-uuid" pass
  }
}

class IdsNotUuidOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new AnyIdParser();
  }
}

/** A renewal_id or redemption_id that is no UUID is accepted, and written back into what the Operator emits. */
export const idsNotUuid: BrokenImplementation = {
  id: 'operator-ids-not-uuid',
  target: 'operator',
  fault:
    'renewal_id and redemption_id need not be UUIDs: a non-UUID id is accepted and emitted in renewal_chain and the Redemption Confirmation',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
    'PRF-4-RENEW-BINDING',
    'PRF-4-RENEWAL-ENTRY-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, IdsNotUuidOperator),
};
