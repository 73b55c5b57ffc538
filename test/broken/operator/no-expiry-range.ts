import { parseRfc3339, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 8 permitted expiry range broken: expires_at is parsed but never range-checked. */
class NoExpiryRangeOperator extends ReferenceOperator {
  protected override checkExpiryRange(expiresAt: string): number {
    return parseRfc3339(expiresAt) as number; // the fault: no min/max comparison
  }
}

/** An expires_at outside [min_expiry_seconds, max_expiry_seconds] is accepted. */
export const noExpiryRange: BrokenImplementation = {
  id: 'operator-no-expiry-range',
  target: 'operator',
  fault: "expires_at is not checked against the policy's expiry range",
  expected: ['CP-7-EXPIRY-INVALID', 'CP-8-EXPIRY-RANGE', 'PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, NoExpiryRangeOperator),
};
