import { OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: an expiry within 30 s of either end of the published range is refused. */
class ExpiryRangeNarrowedOperator extends ReferenceOperator {
  protected override checkExpiryRange(expiresAt: string, now: number): number {
    const ms = super.checkExpiryRange(expiresAt, now);
    const seconds = (ms - now) / 1000;
    const { min_expiry_seconds: min, max_expiry_seconds: max } = this.deps.policy;
    if (seconds < min + 30 || seconds > max - 30) {
      throw new OperatorError('EXPIRY_INVALID', '"expires_at" is too close to the limits'); // the fault
    }
    return ms;
  }
}

/** The edges of the expiry range are refused. */
export const expiryRangeNarrowed: BrokenImplementation = {
  id: 'operator-expiry-range-narrowed',
  target: 'operator',
  fault: 'an expiry within 30 s of min_expiry_seconds or max_expiry_seconds is refused as EXPIRY_INVALID',
  expected: ['CP-8-EXPIRY-RANGE', 'PRF-4-LIMITS-INCLUSIVE'],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiryRangeNarrowedOperator),
};
