import { OperatorError, parseRfc3339, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** The wall time of an RFC 3339 text read as if it were UTC (the offset dropped). */
function wallTimeAsUtc(text: string): number {
  return parseRfc3339(`${text.slice(0, 19)}Z`) as number;
}

/** Profile 4 broken: the offset of expires_at is ignored (its wall time is read as UTC). */
class OffsetIgnoredOperator extends ReferenceOperator {
  protected override checkExpiryRange(expiresAt: string, now: number): number {
    const ms = wallTimeAsUtc(expiresAt); // the fault
    const seconds = (ms - now) / 1000;
    const { min_expiry_seconds: min, max_expiry_seconds: max } = this.deps.policy;
    if (seconds < min || seconds > max)
      throw new OperatorError('EXPIRY_INVALID', '"expires_at" is out of range');
    return ms;
  }
}

/** `...T10:00:00+14:00` is read as `...T10:00:00Z`. */
export const offsetIgnored: BrokenImplementation = {
  id: 'operator-offset-ignored',
  target: 'operator',
  fault: 'the offset of a request expires_at is ignored: its wall time is read as UTC',
  expected: ['PRF-4-REQUEST-TIMESTAMP-OFFSET'],
  start: ({ workDir }) => startBrokenOperator(workDir, OffsetIgnoredOperator),
};
