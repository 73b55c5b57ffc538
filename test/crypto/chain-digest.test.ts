import { createHash, createPrivateKey, randomUUID, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { chainDigestOf, initialChainDigest, nextChainDigest } from '../../src/crypto/chain-digest.js';
import { generateEd25519KeyPair, signObject } from '../../src/crypto/ed25519.js';

describe('profile section 4 chain digest', () => {
  // Worked example, recomputed here by hand (string concatenation in sorted member order, node:crypto).
  const packId = '3f0e3c1a-2b4d-4e5f-8a9b-0c1d2e3f4a5b';
  const initial = generateEd25519KeyPair();
  const second = generateEd25519KeyPair();
  const seed = {
    pack_id: packId,
    amount: '2500',
    asset: { type: 'fiat', code: 'EUR' },
    expires_at: '2026-12-01T00:00:00Z',
    initial_bearer_pk: initial.publicKey,
  };
  const d0Text =
    `{"amount":"2500","asset":{"code":"EUR","type":"fiat"},"expires_at":"2026-12-01T00:00:00Z",` +
    `"initial_bearer_pk":"${initial.publicKey}","pack_id":"${packId}"}`;
  const d0 = createHash('sha256').update(d0Text, 'utf8').digest('hex');

  it('d0 = SHA-256(JCS({pack_id, amount, asset, expires_at, initial_bearer_pk}))', () => {
    expect(initialChainDigest(seed)).toBe(d0);
    expect(initialChainDigest({ ...seed, amount: '2501' })).not.toBe(d0);
  });

  it('dN = SHA-256(hex bytes of d(N-1) || JCS(entry with signature)) and chainDigestOf folds the chain', () => {
    const entry = signObject(
      {
        renewal_id: randomUUID(),
        pack_id: packId,
        prev_chain_digest: d0,
        bearer_pk: initial.publicKey,
        new_bearer_pk: second.publicKey,
        created_at: '2026-11-22T10:00:00Z',
      },
      initial.privateJwk,
    );
    const unsigned = `{"bearer_pk":"${initial.publicKey}","created_at":"2026-11-22T10:00:00Z","new_bearer_pk":"${second.publicKey}","pack_id":"${packId}","prev_chain_digest":"${d0}","renewal_id":"${entry.renewal_id}"}`;
    const sig = sign(
      null,
      Buffer.from(unsigned),
      createPrivateKey({ key: { ...initial.privateJwk }, format: 'jwk' }),
    );
    expect(entry.signature).toBe(sig.toString('base64url'));
    const entryText = `${unsigned.slice(0, -1)},"signature":"${entry.signature}"}`;
    const d1 = createHash('sha256').update(d0, 'ascii').update(entryText, 'utf8').digest('hex');
    expect(nextChainDigest(d0, entry)).toBe(d1);

    const pack = { ...seed, renewal_chain: [entry] };
    expect(chainDigestOf(pack, initial.publicKey)).toBe(d1);
    expect(chainDigestOf({ ...seed, renewal_chain: [] }, initial.publicKey)).toBe(d0);
    // The digest binds the signature too.
    expect(nextChainDigest(d0, { ...entry, signature: 'x' })).not.toBe(d1);
  });

  it('rejects a malformed previous digest and a non-array chain', () => {
    expect(() => nextChainDigest('ABC', {})).toThrow(/64 lowercase hex/);
    expect(() => nextChainDigest(d0.toUpperCase(), {})).toThrow(/64 lowercase hex/);
    expect(() => chainDigestOf({ ...seed, renewal_chain: 'x' }, initial.publicKey)).toThrow(/renewal_chain/);
  });
});
