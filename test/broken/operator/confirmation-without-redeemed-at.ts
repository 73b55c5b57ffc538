import { signObject } from '../../../src/crypto/ed25519.js';
import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 RedemptionConfirmation shape broken: redeemed_at is left out (still validly signed). */
class ConfirmationWithoutRedeemedAtOperator extends ReferenceOperator {
  override async redeem(body: unknown): Promise<OperatorResponse> {
    const response = await super.redeem(body);
    const { redeemed_at: _omitted, signature: _old, ...rest } = response.body as Record<string, unknown>; // the fault
    return { ...response, body: signObject(rest, this.deps.signingKey) };
  }
}

/** Confirmations lack redeemed_at. */
export const confirmationWithoutRedeemedAt: BrokenImplementation = {
  id: 'operator-confirmation-without-redeemed-at',
  target: 'operator',
  fault: 'the Redemption Confirmation lacks "redeemed_at"',
  expected: ['PRF-4-MESSAGE-SCHEMA', 'PRF-4-REDEEM-BINDING'],
  start: ({ workDir }) => startBrokenOperator(workDir, ConfirmationWithoutRedeemedAtOperator),
};
