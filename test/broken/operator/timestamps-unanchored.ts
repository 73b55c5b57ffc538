import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Date-time found anywhere in the text; only the upper bounds of the fields are checked. */
const SOMEWHERE = /(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d*)?([Zz]|[+-]\d{2}:\d{2})/;

/**
 * Profile 1 broken: a timestamp is read by an unanchored pattern from the member's text (an
 * array holding one passes), and only the upper bound of each field is checked: month 00,
 * day 00, second 61, offset minute 60, a fraction without digits and text around it pass.
 */
class UnanchoredTimestampParser extends MessageParser {
  protected override timestamp(obj: Record<string, unknown>, key: string, where: string): string {
    const m = SOMEWHERE.exec(String(obj[key]));
    const [mo, d, h, mi] = (m?.slice(2, 6) ?? []).map(Number) as number[];
    if (m === null || (mo as number) > 12 || (d as number) > 31 || (h as number) > 23 || (mi as number) > 59)
      throw this.bad(`"${key}" in ${where} is not a timestamp`);
    return String(obj[key]); // the fault: no anchors, no lower bounds, no second or offset-minute bound
  }
}

class TimestampsUnanchoredOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new UnanchoredTimestampParser();
  }
}

/** Timestamps such as month 00, second 61 or `...Zx` are accepted in every message. */
export const timestampsUnanchored: BrokenImplementation = {
  id: 'operator-timestamps-unanchored',
  target: 'operator',
  fault:
    'request timestamps are found by an unanchored pattern with upper field bounds only: month 00, day 00, second 61, offset +01:60 or text around a timestamp pass',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-LOCK-REQUEST-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
    'PRF-4-RENEW-BINDING',
    'PRF-4-RENEWAL-ENTRY-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, TimestampsUnanchoredOperator),
};
