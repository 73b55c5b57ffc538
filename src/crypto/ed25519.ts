import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  sign,
  verify,
} from 'node:crypto';
import { boundedCache } from '../caches.js';
import { CprcError } from '../errors.js';
import { base64urlDecode, base64urlEncode, isBase64url } from './base64url.js';
import { canonicalBytes, canonicalize } from './jcs.js';

/** An Ed25519 public key as an OKP JWK (RFC 8037), optionally with `kid`, `alg`, `use`. */
export interface Ed25519PublicJwk {
  kty: 'OKP';
  crv: 'Ed25519';
  x: string;
  kid?: string;
  alg?: 'EdDSA';
  use?: 'sig';
}

/** An Ed25519 private key as an OKP JWK (profile section 5: `{kty, crv, x, d}`). */
export interface Ed25519PrivateJwk extends Ed25519PublicJwk {
  d: string;
}

/** A fresh Ed25519 key pair in the forms the profile uses. */
export interface Ed25519KeyPair {
  /** base64url of the raw 32-byte public key (how bearer and principal keys appear in messages). */
  publicKey: string;
  /** The public key as a JWK. */
  publicJwk: Ed25519PublicJwk;
  /** The private key as a JWK (secret). */
  privateJwk: Ed25519PrivateJwk;
}

/**
 * Generates an Ed25519 key pair (profile section 4: "Keys: Ed25519").
 *
 * @example
 * ```ts
 * const bearer = generateEd25519KeyPair();
 * bearer.publicKey; // 43 base64url characters
 * ```
 */
export function generateEd25519KeyPair(): Ed25519KeyPair {
  // DER out, raw bytes cut from it: the generated KeyObjects never reach JS. Exporting a freshly
  // generated key as JWK can deadlock Node 20 (KeyObjectHandle::ExportJWK holds the key's mutex
  // while a GC-run ~KeyGenJob waits for it; seen as a hung suite process under load).
  const { publicKey, privateKey } = generateKeyPairSync('ed25519', {
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'der' },
  });
  const x = base64urlEncode(rawEd25519(publicKey, SPKI_ED25519_LENGTH));
  const d = base64urlEncode(rawEd25519(privateKey, PKCS8_ED25519_LENGTH));
  const publicJwk: Ed25519PublicJwk = { kty: 'OKP', crv: 'Ed25519', x };
  return { publicKey: x, publicJwk, privateJwk: { ...publicJwk, d } };
}

/** DER lengths of an Ed25519 SubjectPublicKeyInfo and PKCS #8 key (RFC 8410): a fixed prefix, then the 32 raw bytes. */
const SPKI_ED25519_LENGTH = 44;
const PKCS8_ED25519_LENGTH = 48;

/** The trailing 32 raw key bytes of an Ed25519 SPKI or PKCS #8 DER encoding. */
function rawEd25519(der: Buffer, expectedLength: number): Uint8Array {
  if (der.length !== expectedLength) {
    throw new CprcError(
      'CPRC_INTERNAL',
      `unexpected ed25519 DER length ${der.length} (expected ${expectedLength})`,
    );
  }
  return der.subarray(der.length - 32);
}

/**
 * The raw-key form (base64url of 32 bytes) of an Ed25519 public key given as a JWK.
 *
 * @example
 * ```ts
 * publicKeyFromJwk({ kty: 'OKP', crv: 'Ed25519', x: '11qY...', d: '...' }); // '11qY...'
 * ```
 */
export function publicKeyFromJwk(jwk: Ed25519PublicJwk): string {
  return importPrivateOrPublic(jwk, false).x;
}

/**
 * The public JWK of a raw base64url Ed25519 public key.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when the text is not 32 bytes of strict base64url.
 * @example
 * ```ts
 * jwkFromPublicKey(bearer.publicKey); // { kty: 'OKP', crv: 'Ed25519', x: bearer.publicKey }
 * ```
 */
export function jwkFromPublicKey(publicKey: string): Ed25519PublicJwk {
  if (!isBase64url(publicKey, 32)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'ed25519 public key must be base64url (no padding) of exactly 32 raw bytes',
    );
  }
  return { kty: 'OKP', crv: 'Ed25519', x: publicKey };
}

/**
 * Imported keys by their JWK members (`x`, or `x` and `d`): importing a private JWK checks that `x`
 * belongs to `d` (three key operations), and a run signs with the same keys many times.
 */
const importedKeys = boundedCache<string, KeyObject>(1024);

function importPrivateOrPublic(jwk: unknown, needPrivate: boolean): { key: KeyObject; x: string } {
  const j = jwk as Partial<Ed25519PrivateJwk> | null;
  if (j === null || typeof j !== 'object' || j.kty !== 'OKP' || j.crv !== 'Ed25519') {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'key must be an Ed25519 JWK with "kty": "OKP" and "crv": "Ed25519"',
    );
  }
  if (!isBase64url(j.x, 32)) {
    throw new CprcError('CPRC_INPUT_INVALID', 'ed25519 JWK "x" must be base64url of 32 bytes');
  }
  if (needPrivate && !isBase64url(j.d, 32)) {
    throw new CprcError('CPRC_INPUT_INVALID', 'ed25519 private JWK "d" must be base64url of 32 bytes');
  }
  const cacheKey = needPrivate ? `${j.x}.${j.d}` : (j.x as string);
  const known = importedKeys.get(cacheKey);
  if (known !== undefined) return { key: known, x: j.x as string };
  try {
    const key = needPrivate
      ? createPrivateKey({ key: { kty: 'OKP', crv: 'Ed25519', x: j.x, d: j.d as string }, format: 'jwk' })
      : createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: j.x }, format: 'jwk' });
    if (needPrivate) {
      // RFC 8037 section 2: "x" must be the public key of "d"; a mismatched pair signs unverifiably.
      const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
      const derived = base64urlEncode(rawEd25519(spki, SPKI_ED25519_LENGTH));
      if (derived !== j.x) {
        throw new CprcError('CPRC_INPUT_INVALID', 'ed25519 private JWK "x" is not the public key of its "d"');
      }
    }
    importedKeys.set(cacheKey, key);
    return { key, x: j.x };
  } catch (error) {
    if (error instanceof CprcError) throw error;
    throw new CprcError('CPRC_INPUT_INVALID', 'ed25519 JWK could not be imported; check "x" and "d"', {
      cause: error,
    });
  }
}

/**
 * Signs bytes with an Ed25519 private JWK (RFC 8032 PureEdDSA); returns the 64-byte signature.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` for a malformed key.
 * @example
 * ```ts
 * const sig = signBytes(new TextEncoder().encode('hello'), bearer.privateJwk);
 * ```
 */
export function signBytes(data: Uint8Array, privateJwk: Ed25519PrivateJwk): Uint8Array {
  const { key } = importPrivateOrPublic(privateJwk, true);
  return new Uint8Array(sign(null, data, key));
}

/**
 * Verifies an Ed25519 signature over bytes. Never throws: a malformed key or signature is `false`.
 *
 * @example
 * ```ts
 * verifyBytes(data, sig, bearer.publicKey); // true
 * ```
 */
export function verifyBytes(
  data: Uint8Array,
  signature: Uint8Array,
  publicKey: string | Ed25519PublicJwk,
): boolean {
  try {
    if (signature.length !== 64) return false;
    const jwk = typeof publicKey === 'string' ? jwkFromPublicKey(publicKey) : publicKey;
    const { key } = importPrivateOrPublic(jwk, false);
    return verify(null, data, key, signature);
  } catch {
    return false;
  }
}

/** An object carrying a profile-section-4 `signature` member. */
export type Signed<T extends object> = T & { signature: string };

/**
 * Profile section 4 "Signature": returns `obj` plus `extra` (e.g. `{ kid }` for Operator-signed
 * objects) plus `signature` = base64url(Ed25519(JCS(object without its `signature` member))).
 * Any `signature` member already on `obj` is replaced.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` for a malformed key or a value JCS cannot encode.
 * @example
 * ```ts
 * const entry = signObject({ renewal_id, pack_id, prev_chain_digest, bearer_pk, new_bearer_pk, created_at }, bearer.privateJwk);
 * verifyObject(entry, bearer.publicKey); // true
 * ```
 */
export function signObject<T extends object, E extends object = Record<never, never>>(
  obj: T,
  privateJwk: Ed25519PrivateJwk,
  extra?: E,
): Signed<Omit<T, 'signature'> & E> {
  const { signature: _ignored, ...rest } = { ...obj, ...(extra ?? {}) } as Record<string, unknown>;
  const sig = signBytes(canonicalBytes(rest), privateJwk);
  return { ...rest, signature: base64urlEncode(sig) } as Signed<Omit<T, 'signature'> & E>;
}

/**
 * Profile section 4 "Signature": true when `obj.signature` is a valid Ed25519 signature by
 * `publicKey` (raw base64url or JWK) over the JCS bytes of `obj` without `signature`.
 * Never throws: a non-object, a missing or malformed signature, or an unusable key is `false`.
 *
 * @example
 * ```ts
 * verifyObject(cashpack, operatorPublicJwk); // true for an untampered pack
 * verifyObject({ ...cashpack, amount: '1' }, operatorPublicJwk); // false
 * ```
 */
export function verifyObject(obj: unknown, publicKey: string | Ed25519PublicJwk): boolean {
  try {
    if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) return false;
    const { signature, ...rest } = obj as Record<string, unknown>;
    if (!isBase64url(signature, 64)) return false;
    return verifyBytes(canonicalBytes(rest), base64urlDecode(signature), publicKey);
  } catch {
    return false;
  }
}

/**
 * RFC 7638 JWK thumbprint of an Ed25519 key (RFC 8037 section 2: members `crv`, `kty`, `x`),
 * base64url of SHA-256. Used as the Operator's `kid`.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` for a malformed key.
 * @example
 * ```ts
 * jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' });
 * // 'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k' (RFC 8037 appendix A.3)
 * ```
 */
export function jwkThumbprint(jwk: Ed25519PublicJwk | string): string {
  const x = typeof jwk === 'string' ? jwkFromPublicKey(jwk).x : importPrivateOrPublic(jwk, false).x;
  const required = canonicalize({ crv: 'Ed25519', kty: 'OKP', x });
  return createHash('sha256').update(required, 'utf8').digest('base64url');
}
