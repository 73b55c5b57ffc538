/**
 * Cryptographic building blocks of profile section 4: strict base64url, RFC 8785 JCS,
 * Ed25519 object signatures and JWK thumbprints, and the cash-pack chain digest.
 * @packageDocumentation
 */
export { base64urlDecode, base64urlEncode, isBase64url } from './base64url.js';
export { type ChainDigestSeed, chainDigestOf, initialChainDigest, nextChainDigest } from './chain-digest.js';
export {
  type Ed25519KeyPair,
  type Ed25519PrivateJwk,
  type Ed25519PublicJwk,
  generateEd25519KeyPair,
  jwkFromPublicKey,
  jwkThumbprint,
  publicKeyFromJwk,
  type Signed,
  signBytes,
  signObject,
  verifyBytes,
  verifyObject,
} from './ed25519.js';
export { canonicalBytes, canonicalize } from './jcs.js';
