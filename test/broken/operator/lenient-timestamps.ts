import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 1 broken: a timestamp is whatever `Date.parse` reads, so hour 24 rolls over to the next
 * day and a date without offset or time passes.
 */
class LenientTimestampParser extends MessageParser {
  protected override timestamp(obj: Record<string, unknown>, key: string, where: string): string {
    const v = obj[key];
    if (typeof v !== 'string' || Number.isNaN(Date.parse(v)))
      throw this.bad(`"${key}" in ${where} is not a time`);
    return v; // the fault: no RFC 3339 grammar, no field ranges
  }
}

class LenientTimestampsOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new LenientTimestampParser();
  }
}

/** Impossible timestamps (hour 24, no offset, a bare date) are accepted. */
export const lenientTimestamps: BrokenImplementation = {
  id: 'operator-lenient-timestamps',
  target: 'operator',
  fault: 'request timestamps are read by Date.parse: hour 24, a missing offset or a bare date are accepted',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-LOCK-REQUEST-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
    'PRF-4-RENEW-BINDING',
    'PRF-4-RENEWAL-ENTRY-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, LenientTimestampsOperator),
};
