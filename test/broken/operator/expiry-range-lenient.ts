import { OperatorError, parseRfc3339, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 8 broken: 30 s of tolerance beyond either end of the published range. */
class ExpiryRangeLenientOperator extends ReferenceOperator {
  protected override checkExpiryRange(expiresAt: string, now: number): number {
    const ms = parseRfc3339(expiresAt) as number;
    const seconds = (ms - now) / 1000;
    const { min_expiry_seconds: min, max_expiry_seconds: max } = this.deps.policy;
    if (seconds < min - 30 || seconds > max + 30) {
      throw new OperatorError('EXPIRY_INVALID', '"expires_at" is out of range'); // the fault: 30 s slack
    }
    return ms;
  }
}

/** An expiry a few seconds outside the range is accepted. */
export const expiryRangeLenient: BrokenImplementation = {
  id: 'operator-expiry-range-lenient',
  target: 'operator',
  fault: 'an expiry up to 30 s outside the published range is accepted',
  expected: ['CP-7-EXPIRY-INVALID', 'CP-8-EXPIRY-RANGE'],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiryRangeLenientOperator),
};
