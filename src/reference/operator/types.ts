/**
 * Wire types of the cash-pack binding (profile section 4) as the reference Operator uses them.
 * @packageDocumentation
 */
import type { Ed25519PrivateJwk } from '../../crypto/ed25519.js';

/** Spec CPR 2.3 AssetDescriptor, as carried in cash-pack messages. */
export interface AssetDescriptor {
  type: 'fiat' | 'stablecoin' | 'crypto' | 'tokenized';
  code: string;
  chain_id?: string;
}

/** Spec CP 3: the four instrument statuses. */
export type PackStatus = 'ACTIVE' | 'REDEEMED' | 'EXPIRED' | 'CANCELLED';

/** Profile 4 LockRequest, signed by the principal. */
export interface LockRequest {
  request_id: string;
  principal_id: string;
  amount: string;
  asset: AssetDescriptor;
  initial_bearer_pk: string;
  expires_at: string;
  created_at: string;
  signature: string;
}

/** Profile 4 RenewalEntry, signed by the submitting bearer key. */
export interface RenewalEntry {
  renewal_id: string;
  pack_id: string;
  prev_chain_digest: string;
  bearer_pk: string;
  new_bearer_pk: string;
  created_at: string;
  signature: string;
}

/** Profile 4 CashPack, signed by the Operator. */
export interface CashPack {
  cashpack_version: 'CP-1.0';
  pack_id: string;
  amount: string;
  asset: AssetDescriptor;
  issued_at: string;
  expires_at: string;
  current_bearer_pk: string;
  chain_digest: string;
  renewal_chain: RenewalEntry[];
  status: PackStatus;
  kid: string;
  signature: string;
}

/** Profile 4 redemption destination. */
export interface Destination {
  type: 'account';
  reference: string;
}

/** Profile 4 RedemptionRequest, signed by the bearer key. */
export interface RedemptionRequest {
  redemption_id: string;
  pack_id: string;
  prev_chain_digest: string;
  bearer_pk: string;
  destination: Destination;
  redeemer?: { identity_token: string };
  created_at: string;
  signature: string;
}

/** Profile 4 RedemptionConfirmation, signed by the Operator. */
export interface RedemptionConfirmation {
  redemption_id: string;
  pack_id: string;
  amount: string;
  asset: AssetDescriptor;
  redeemed_at: string;
  status: 'REDEEMED';
  kid: string;
  signature: string;
}

/** Profile 4 Operator Policy Document, served at `/.well-known/cashpack-policy.json`. */
export interface Policy {
  operator_id: string;
  max_amount: string;
  min_expiry_seconds: number;
  max_expiry_seconds: number;
  max_chain_depth: number;
  required_identity_level: number;
  assets: AssetDescriptor[];
  signature_alg: 'EdDSA';
}

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

/** Profile 1 error body. */
export interface ErrorBody {
  error: { code: string; message: string };
}
