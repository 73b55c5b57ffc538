import { createPrivateKey, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base64urlEncode } from '../../src/crypto/base64url.js';
import {
  generateEd25519KeyPair,
  jwkFromPublicKey,
  jwkThumbprint,
  publicKeyFromJwk,
  signBytes,
  signObject,
  verifyBytes,
  verifyObject,
} from '../../src/crypto/ed25519.js';
import { canonicalize } from '../../src/crypto/jcs.js';

// RFC 8032 section 7.1, TEST 1 (empty message); RFC 8037 appendix A.1 is the same key as a JWK.
const RFC8032_SECRET = '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60';
const RFC8032_PUBLIC = 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a';
const RFC8032_SIG =
  'e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b';
const rfcJwk = {
  kty: 'OKP' as const,
  crv: 'Ed25519' as const,
  d: base64urlEncode(Buffer.from(RFC8032_SECRET, 'hex')),
  x: base64urlEncode(Buffer.from(RFC8032_PUBLIC, 'hex')),
};

describe('Ed25519 (RFC 8032) and profile section 4 signatures', () => {
  it('RFC 8032 test 1: the JWK form is the one RFC 8037 appendix A.1 gives', () => {
    expect(rfcJwk.d).toBe('nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A');
    expect(rfcJwk.x).toBe('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo');
  });

  it('RFC 8032 test 1: signBytes and Node sign both produce the published signature', () => {
    const ours = Buffer.from(signBytes(new Uint8Array(0), rfcJwk)).toString('hex');
    const node = sign(null, Buffer.alloc(0), createPrivateKey({ key: rfcJwk, format: 'jwk' })).toString(
      'hex',
    );
    expect(ours).toBe(RFC8032_SIG);
    expect(node).toBe(RFC8032_SIG);
    expect(verifyBytes(new Uint8Array(0), Buffer.from(RFC8032_SIG, 'hex'), rfcJwk.x)).toBe(true);
  });

  it('RFC 8037 appendix A.3: JWK thumbprint of the test key', () => {
    expect(jwkThumbprint({ kty: 'OKP', crv: 'Ed25519', x: rfcJwk.x })).toBe(
      'kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k',
    );
    expect(jwkThumbprint(rfcJwk.x)).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
  });

  it('generates 32-byte public keys and matching JWKs', () => {
    const pair = generateEd25519KeyPair();
    expect(pair.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(publicKeyFromJwk(pair.privateJwk)).toBe(pair.publicKey);
    expect(jwkFromPublicKey(pair.publicKey)).toEqual(pair.publicJwk);
  });

  it('signObject signs the JCS of the object without its signature; verifyObject accepts raw key and JWK', () => {
    const pair = generateEd25519KeyPair();
    const signed = signObject({ b: '2', a: '1', signature: 'stale' }, pair.privateJwk, { kid: 'k1' });
    expect(signed.kid).toBe('k1');
    expect(signed.signature).not.toBe('stale');
    // Independent check: the signature is Ed25519 over exactly JCS({a, b, kid}).
    const expected = sign(
      null,
      Buffer.from(canonicalize({ a: '1', b: '2', kid: 'k1' })),
      createPrivateKey({ key: { ...pair.privateJwk }, format: 'jwk' }),
    ).toString('base64url');
    expect(signed.signature).toBe(expected);
    expect(verifyObject(signed, pair.publicKey)).toBe(true);
    expect(verifyObject(signed, pair.publicJwk)).toBe(true);
  });

  it('tampering with any member, the kid or the signature makes verification fail', () => {
    const pair = generateEd25519KeyPair();
    const signed = signObject({ amount: '100', asset: { type: 'fiat', code: 'EUR' } }, pair.privateJwk, {
      kid: 'k1',
    });
    expect(verifyObject({ ...signed, amount: '101' }, pair.publicKey)).toBe(false);
    expect(verifyObject({ ...signed, asset: { type: 'fiat', code: 'USD' } }, pair.publicKey)).toBe(false);
    expect(verifyObject({ ...signed, kid: 'k2' }, pair.publicKey)).toBe(false);
    expect(verifyObject({ ...signed, extra: 1 }, pair.publicKey)).toBe(false);
    const flipped = `${signed.signature[0] === 'A' ? 'B' : 'A'}${signed.signature.slice(1)}`;
    expect(verifyObject({ ...signed, signature: flipped }, pair.publicKey)).toBe(false);
    expect(verifyObject(signed, generateEd25519KeyPair().publicKey)).toBe(false);
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'x'],
    ['no signature', { a: 1 }],
    ['a numeric signature', { a: 1, signature: 5 }],
    ['a padded signature', { a: 1, signature: `${'A'.repeat(86)}==` }],
    ['an unencodable member', { a: Number.NaN, signature: 'A'.repeat(86) }],
  ])('verifyObject returns false and never throws for %s', (_name, value) => {
    expect(verifyObject(value, generateEd25519KeyPair().publicKey)).toBe(false);
  });

  it('verifyObject returns false for a malformed key instead of throwing', () => {
    const pair = generateEd25519KeyPair();
    const signed = signObject({ a: 1 }, pair.privateJwk);
    expect(verifyObject(signed, 'not-a-key')).toBe(false);
    expect(verifyObject(signed, { kty: 'OKP', crv: 'Ed25519', x: 'AAAA' })).toBe(false);
  });

  it('signObject refuses a private JWK whose x does not match d', () => {
    const a = generateEd25519KeyPair();
    const b = generateEd25519KeyPair();
    expect(() => signObject({ a: 1 }, { ...a.privateJwk, x: b.publicKey })).toThrow(/not the public key/);
    expect(() => signObject({ a: 1 }, { ...a.privateJwk, d: 'short' })).toThrow(/"d"/);
  });
});
