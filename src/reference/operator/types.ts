/**
 * Wire types of the cash-pack binding (profile section 4): the types generated from
 * `schemas/cashpack/`, plus the profile section 5 test identities.
 * @packageDocumentation
 */
import type { Ed25519PrivateJwk } from '../../crypto/ed25519.js';
import type { RedemptionRequest } from '../../generated/cashpack/redemption-request.js';

export type { CashPack } from '../../generated/cashpack/cashpack.js';
export type { ErrorBody } from '../../generated/cashpack/error-body.js';
export type { LockRequest } from '../../generated/cashpack/lock-request.js';
export type { PackStatus } from '../../generated/cashpack/pack-status.js';
export type { Policy } from '../../generated/cashpack/policy.js';
export type { RedemptionConfirmation } from '../../generated/cashpack/redemption-confirmation.js';
export type { RedemptionRequest } from '../../generated/cashpack/redemption-request.js';
export type { RenewalEntry } from '../../generated/cashpack/renewal-entry.js';
export type { AssetDescriptor } from '../../generated/cpr/asset-descriptor.js';

/** Profile 4 redemption destination. */
export type Destination = RedemptionRequest['destination'];

/** One principal as profile section 5 hands it to the suite. */
export interface PrincipalIdentity {
  principal_id: string;
  private_key_jwk: Ed25519PrivateJwk;
  status_credential: string;
  available_balance?: string;
}

/**
 * The test identities of a running Operator: exactly the profile section 5 `operator` config
 * minus `base_url` and `harness_url`. Every key, credential and token here is a secret.
 */
export interface OperatorIdentities {
  principals: { funded: PrincipalIdentity; low_balance: PrincipalIdentity };
  redeemer_identity_tokens: { sufficient: string; insufficient: string };
  operator_status_credential: string;
}
