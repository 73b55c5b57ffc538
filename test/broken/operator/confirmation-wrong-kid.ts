import { signObject } from '../../../src/crypto/ed25519.js';
import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken for redemptions: the Redemption Confirmation names a kid that is not published. */
class ConfirmationWrongKidOperator extends ReferenceOperator {
  override async redeem(body: unknown): Promise<OperatorResponse> {
    const response = await super.redeem(body);
    // the fault: re-signed (same key, valid signature) under the kid of a retired key
    return {
      ...response,
      body: signObject(response.body as object, this.deps.signingKey, { kid: 'cprc-retired-key' }),
    };
  }
}

/** Confirmations carry the wrong kid. */
export const confirmationWrongKid: BrokenImplementation = {
  id: 'operator-confirmation-wrong-kid',
  target: 'operator',
  fault: "the Redemption Confirmation carries a kid other than the published key's",
  expected: ['PRF-4-OPERATOR-KID', 'PRF-4-SIGNATURE-JCS'],
  start: ({ workDir }) => startBrokenOperator(workDir, ConfirmationWrongKidOperator),
};
