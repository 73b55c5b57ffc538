import { createHash } from 'node:crypto';
import { CprcError } from '../errors.js';
import { canonicalBytes } from './jcs.js';

/** The members of a cash-pack that the initial chain digest d0 covers (profile section 4). */
export interface ChainDigestSeed {
  pack_id: string;
  amount: string;
  asset: unknown;
  expires_at: string;
  initial_bearer_pk: string;
}

const HEX64 = /^[0-9a-f]{64}$/;

/**
 * Profile section 4 "Chain digest", d0 = SHA-256(JCS({pack_id, amount, asset, expires_at,
 * initial_bearer_pk})), lowercase hex. Members other than these five are ignored.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when a value cannot be canonicalized.
 * @example
 * ```ts
 * const d0 = initialChainDigest({ pack_id, amount: '100', asset: { type: 'fiat', code: 'EUR' }, expires_at, initial_bearer_pk });
 * ```
 */
export function initialChainDigest(seed: ChainDigestSeed): string {
  const { pack_id, amount, asset, expires_at, initial_bearer_pk } = seed;
  return createHash('sha256')
    .update(canonicalBytes({ pack_id, amount, asset, expires_at, initial_bearer_pk }))
    .digest('hex');
}

/**
 * Profile section 4 "Chain digest", dN = SHA-256(ASCII bytes of the hex string d(N-1) ||
 * JCS(renewal entry N, signature included)), lowercase hex.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when `prevHex` is not 64 lowercase hex digits or the
 *   entry cannot be canonicalized.
 * @example
 * ```ts
 * const d1 = nextChainDigest(d0, signedRenewalEntry);
 * ```
 */
export function nextChainDigest(prevHex: string, renewalEntry: object): string {
  if (typeof prevHex !== 'string' || !HEX64.test(prevHex)) {
    throw new CprcError('CPRC_INPUT_INVALID', 'previous chain digest must be 64 lowercase hex digits');
  }
  return createHash('sha256')
    .update(Buffer.from(prevHex, 'ascii'))
    .update(canonicalBytes(renewalEntry))
    .digest('hex');
}

/**
 * The chain digest a cash-pack should carry: d0 from its fixed members and the initial bearer's
 * key, folded with {@link nextChainDigest} over every entry of `renewal_chain` in order.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when `renewal_chain` is not an array or a value cannot
 *   be canonicalized.
 * @example
 * ```ts
 * chainDigestOf(renewedPack, initialBearer.publicKey) === renewedPack.chain_digest; // true
 * ```
 */
export function chainDigestOf(
  pack: { pack_id: string; amount: string; asset: unknown; expires_at: string; renewal_chain: unknown },
  initialBearerPk: string,
): string {
  if (!Array.isArray(pack.renewal_chain)) {
    throw new CprcError('CPRC_INPUT_INVALID', 'cash-pack "renewal_chain" must be an array');
  }
  let digest = initialChainDigest({ ...pack, initial_bearer_pk: initialBearerPk });
  for (const entry of pack.renewal_chain) {
    if (entry === null || typeof entry !== 'object') {
      throw new CprcError('CPRC_INPUT_INVALID', 'every "renewal_chain" entry must be an object');
    }
    digest = nextChainDigest(digest, entry);
  }
  return digest;
}
