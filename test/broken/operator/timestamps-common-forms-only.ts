import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** `YYYY-MM-DDTHH:MM:SS` with `Z` or a whole-hour offset: the forms most clients send, nothing else. */
const COMMON = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-](0\d|1[0-4]):00)$/;

/**
 * Profile 4 broken: only the common forms of RFC 3339 are read: lower-case t and z, fractions,
 * and offsets with minutes (+05:45) or beyond 14 hours are refused as malformed.
 */
class CommonFormsParser extends MessageParser {
  protected override timestamp(obj: Record<string, unknown>, key: string, where: string): string {
    const v = obj[key];
    if (typeof v !== 'string' || !COMMON.test(v)) throw this.bad(`"${key}" in ${where} is not a timestamp`); // the fault
    return super.timestamp(obj, key, where);
  }
}

class CommonFormsOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new CommonFormsParser();
  }
}

/** Valid RFC 3339 forms (lower case, fractions, +05:45, +23:59) are refused with 400. */
export const timestampsCommonFormsOnly: BrokenImplementation = {
  id: 'operator-timestamps-common-forms-only',
  target: 'operator',
  fault:
    'request timestamps in lower case, with a fraction, or with an offset having minutes or beyond +-14:00 are refused as malformed',
  expected: ['PRF-4-REQUEST-TIMESTAMP-OFFSET'],
  start: ({ workDir }) => startBrokenOperator(workDir, CommonFormsOperator),
};
