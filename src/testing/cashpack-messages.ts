/**
 * Signed bearer messages of profile section 4, built the same way by the Operator suite and by
 * the reference Operator's own tests: a Renewal Entry and a Redemption Request for the current
 * copy of a pack, signed with the submitting bearer key (JCS + Ed25519, `src/crypto/`).
 *
 * @packageDocumentation
 */
import { randomUUID } from 'node:crypto';
import { type Ed25519KeyPair, signObject } from '../crypto/ed25519.js';
import type { CashPack } from '../generated/cashpack/cashpack.js';
import type { RedemptionRequest } from '../generated/cashpack/redemption-request.js';
import type { RenewalEntry } from '../generated/cashpack/renewal-entry.js';

/**
 * Profile 4 RenewalEntry for the current copy `pack`, signed by `signer`, handing the pack to
 * `next`; `overrides` replace members before signing (to break exactly one condition).
 *
 * @example
 * ```ts
 * const entry = signedRenewalEntry(pack, bearer, generateEd25519KeyPair(), new Date().toISOString());
 * ```
 */
export function signedRenewalEntry(
  pack: CashPack,
  signer: Ed25519KeyPair,
  next: Ed25519KeyPair,
  createdAt: string,
  overrides: Partial<RenewalEntry> = {},
): RenewalEntry {
  return signObject(
    {
      renewal_id: randomUUID(),
      pack_id: pack.pack_id,
      prev_chain_digest: pack.chain_digest,
      bearer_pk: signer.publicKey,
      new_bearer_pk: next.publicKey,
      created_at: createdAt,
      ...overrides,
    },
    signer.privateJwk,
  ) as RenewalEntry;
}

/** What a Redemption Request carries besides the pack and the bearer key. */
export interface RedemptionParams {
  /** `redeemer.identity_token`; undefined leaves `redeemer` out. */
  identityToken: string | undefined;
  /** `destination.reference` (an account). */
  destinationReference: string;
  createdAt: string;
}

/**
 * Profile 4 RedemptionRequest for the current copy `pack`, signed by `signer`; `overrides`
 * replace members before signing.
 *
 * @example
 * ```ts
 * signedRedemptionRequest(pack, bearer, { identityToken, destinationReference: 'acct-1', createdAt });
 * ```
 */
export function signedRedemptionRequest(
  pack: CashPack,
  signer: Ed25519KeyPair,
  params: RedemptionParams,
  overrides: Partial<RedemptionRequest> = {},
): RedemptionRequest {
  return signObject(
    {
      redemption_id: randomUUID(),
      pack_id: pack.pack_id,
      prev_chain_digest: pack.chain_digest,
      bearer_pk: signer.publicKey,
      destination: { type: 'account' as const, reference: params.destinationReference },
      ...(params.identityToken === undefined ? {} : { redeemer: { identity_token: params.identityToken } }),
      created_at: params.createdAt,
      ...overrides,
    },
    signer.privateJwk,
  ) as RedemptionRequest;
}
