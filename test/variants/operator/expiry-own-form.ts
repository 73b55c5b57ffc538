import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/**
 * Writes the cash-pack's expires_at in its own `Z` form (with milliseconds) whatever text the
 * Lock Request used, where the reference keeps a request already written with `Z` verbatim.
 */
class ExpiryOwnFormOperator extends ReferenceOperator {
  protected override emittedExpiry(_requested: string, expiresAtMs: number): string {
    return new Date(expiresAtMs).toISOString();
  }
}

/** The emitted expires_at is the same instant in the Operator's own Z form. */
export const expiryOwnForm: PermittedVariant = {
  id: 'operator-variant-expiry-own-form',
  target: 'operator',
  choice:
    "the cash-pack's expires_at is written in the Operator's own Z form (milliseconds), not as the request wrote it",
  clause:
    'profile 1: timestamps "RFC 3339 with Z in everything an implementation emits"; profile 4: the Operator "compares instants ... and emits Z"',
  start: ({ workDir }) => startBrokenOperator(workDir, ExpiryOwnFormOperator),
};
