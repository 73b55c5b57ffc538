/**
 * The fixed Ed25519 keys of the test vectors: each derived from a published seed (the SHA-256 of
 * its label), so every vector that names a key can be checked, and re-signed, in any language.
 * They are test keys, published on purpose; no real system may use them.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto';
import type { Ed25519KeyPair, Ed25519PrivateJwk } from '../../../src/crypto/ed25519.js';

/** PKCS #8 prefix of a raw 32-byte Ed25519 seed (RFC 8410). */
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The seed of a vector key: SHA-256 of `cpr-conformance test vectors: <label>`. */
export function seedOf(label: string): Buffer {
  return createHash('sha256').update(`cpr-conformance test vectors: ${label}`, 'utf8').digest();
}

/** The key pair whose private key is `seed` (RFC 8032 secret key). */
export function keyFromSeed(seed: Uint8Array): Ed25519KeyPair {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
  const jwk = key.export({ format: 'jwk' }) as { x: string; d: string };
  createPublicKey(key); // the pair is usable
  const privateJwk: Ed25519PrivateJwk = { kty: 'OKP', crv: 'Ed25519', x: jwk.x, d: jwk.d };
  return { publicKey: jwk.x, publicJwk: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, privateJwk };
}

const cache = new Map<string, Ed25519KeyPair>();

/** The vector key of `label` (see {@link seedOf}). */
export function vectorKey(label: string): Ed25519KeyPair {
  let k = cache.get(label);
  if (!k) {
    k = keyFromSeed(seedOf(label));
    cache.set(label, k);
  }
  return k;
}

/** A vector key as the vectors write it: label, seed (hex), public key and private JWK. */
export interface VectorKey {
  label: string;
  seed_hex: string;
  public_key: string;
  private_jwk: Ed25519PrivateJwk;
}

/** {@link vectorKey} in the vectors' own form. */
export function describeKey(label: string): VectorKey {
  const k = vectorKey(label);
  return {
    label,
    seed_hex: seedOf(label).toString('hex'),
    public_key: k.publicKey,
    private_jwk: k.privateJwk,
  };
}
