import { OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import { parseRfc3339 } from '../../../src/reference/operator/parse.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 4 broken: the expiry range is measured from the Lock Request's created_at (an allowed
 * reading, AMB-40) with an exclusive upper bound, so an expiry exactly max_expiry_seconds after
 * created_at is refused.
 */
class ExpiryMaxExclusiveFromCreatedOperator extends ReferenceOperator {
  override async issue(body: unknown) {
    const request = body as { created_at?: unknown; expires_at?: unknown } | null;
    if (typeof request?.created_at === 'string' && typeof request.expires_at === 'string') {
      const created = parseRfc3339(request.created_at);
      const expires = parseRfc3339(request.expires_at);
      if (typeof created === 'number' && typeof expires === 'number') {
        if ((expires - created) / 1000 >= this.deps.policy.max_expiry_seconds) {
          throw new OperatorError('EXPIRY_INVALID', '"expires_at" is too far after "created_at"'); // the fault
        }
      }
    }
    return super.issue(body);
  }
}

/** An expiry exactly max_expiry_seconds after created_at is refused. */
export const expiryMaxExclusiveFromCreated: BrokenImplementation = {
  id: 'operator-expiry-max-exclusive-from-created',
  target: 'operator',
  fault:
    'the expiry range is counted from created_at with an exclusive upper bound: an expiry exactly max_expiry_seconds after created_at is EXPIRY_INVALID',
  expected: ['CP-8-EXPIRY-RANGE', 'PRF-4-LIMITS-INCLUSIVE'],
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiryMaxExclusiveFromCreatedOperator),
};
