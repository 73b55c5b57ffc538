/**
 * The crypto group (profile 4): RFC 8785 JCS inputs and their exact output; Ed25519 signatures
 * over each cash-pack message, valid and broken (a flipped bit, another key, a member changed
 * after signing, a non-canonical encoding, a missing member); chain digests d0..dN of a pack and
 * its renewal entries, and digests computed the wrong ways; the Operator's kid (RFC 7638).
 */
import { createHash } from 'node:crypto';
import { base64urlDecode, base64urlEncode } from '../../../src/crypto/base64url.js';
import { initialChainDigest, nextChainDigest } from '../../../src/crypto/chain-digest.js';
import { signBytes, signObject } from '../../../src/crypto/ed25519.js';
import { canonicalize } from '../../../src/crypto/jcs.js';
import { vectorKey } from '../lib/keys.js';
import type { ChainCase, JcsCase, SignatureCase, ThumbprintCase } from '../lib/types.js';

type Spec<C> = Omit<C, 'requirements' | 'result'> & { req: string[]; valid: boolean };

const JCS = 'PRF-4-SIGNATURE-JCS';
const SIG = 'PRF-4-SIGNATURE-JCS';
const KEYS = 'PRF-4-ED25519-KEYS';
const CHAIN = 'PRF-4-CHAIN-DIGEST';

/** JCS specs: a JSON text each; valid ones have an RFC 8785 output. */
export function jcsSpecs(): Array<Spec<JcsCase>> {
  const j = (id: string, comment: string, input_json: string, valid = true): Spec<JcsCase> => ({
    kind: 'jcs',
    id: `jcs-${id}`,
    comment,
    input_json,
    req: [JCS],
    valid,
    flags: valid ? ['Jcs'] : ['Jcs', 'NotJcsInput'],
  });
  return [
    j('key-order-ascii', 'members sorted by name', '{"b":2,"a":1,"c":{"z":true,"y":null}}'),
    j(
      'key-order-utf16',
      'names sorted by UTF-16 code units: U+FB01 sorts after U+1F600 (a surrogate pair, 0xD83D...)',
      '{"\\ufb01":1,"\\ud83d\\ude00":2,"\\u00e9":3,"Z":4,"a":5}',
    ),
    j(
      'key-order-nested-arrays',
      'array order kept; objects inside sorted',
      '[{"b":1,"a":2},[3,{"d":4,"c":5}]]',
    ),
    j(
      'numbers-integers',
      'integers: -0 is 0, 1E3 is 1000, 100.0 is 100',
      '[0,-0,1E3,100.0,-17,9007199254740991]',
    ),
    j(
      'numbers-large',
      '1e20 written in full, 1e21 in exponent form, 2^53+1 rounds to 2^53',
      '[1e20,1e21,123456789012345678901234,9007199254740993]',
    ),
    j(
      'numbers-small',
      '0.000001 in full, 1e-7 in exponent form, the smallest subnormal',
      '[0.000001,1e-7,2.5e-7,5e-324,4.35,0.1]',
    ),
    j(
      'numbers-extremes',
      'the largest double and its negative',
      '[1.7976931348623157e308,-1.7976931348623157e308]',
    ),
    j(
      'string-escapes',
      'control characters: \\b \\t \\n \\f \\r short forms, the others \\u00XX lower-case; "/" and DEL literal',
      '"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f\\"\\\\/\\u007f"',
    ),
    j(
      'string-unicode',
      'non-ASCII written as UTF-8, never escaped: é, €, U+2028, U+1F600',
      '"\\u00e9\\u20ac\\u2028\\ud83d\\ude00"',
    ),
    j(
      'literals',
      'true, false, null and white space between tokens removed',
      ' { "t" : true , "f" : false , "n" : null } ',
    ),
    j(
      'lone-surrogate',
      'a lone high surrogate: no UTF-8 form, not I-JSON (RFC 8785 3.2.2.2)',
      '{"a":"\\ud800"}',
      false,
    ),
    j('number-overflow', '1e400 has no IEEE 754 double', '{"a":1e400}', false),
  ];
}

/** A fixed pack and its messages, all signed with the vector keys. */
function messages() {
  const principal = vectorKey('principal-funded');
  const operator = vectorKey('operator');
  const b0 = vectorKey('bearer-0');
  const b1 = vectorKey('bearer-1');
  const asset = { type: 'fiat', code: 'EUR' };
  const lock = signObject(
    {
      request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
      principal_id: 'principal-funded',
      amount: '2500',
      asset,
      initial_bearer_pk: b0.publicKey,
      expires_at: '2026-06-08T12:00:00Z',
      created_at: '2026-06-01T12:00:00Z',
    },
    principal.privateJwk,
  );
  const packId = '9d7b2f4e-1c3a-4e5b-8f6d-0a1b2c3d4e5f';
  const d0 = initialChainDigest({
    pack_id: packId,
    amount: '2500',
    asset,
    expires_at: '2026-06-08T12:00:00Z',
    initial_bearer_pk: b0.publicKey,
  });
  const entry = signObject(
    {
      renewal_id: '6f1c3e2a-8b4d-4f7e-9a0b-1c2d3e4f5a6b',
      pack_id: packId,
      prev_chain_digest: d0,
      bearer_pk: b0.publicKey,
      new_bearer_pk: b1.publicKey,
      created_at: '2026-06-02T09:30:00Z',
    },
    b0.privateJwk,
  );
  const d1 = nextChainDigest(d0, entry);
  const kid = createHash('sha256')
    .update(canonicalize({ crv: 'Ed25519', kty: 'OKP', x: operator.publicKey }), 'utf8')
    .digest('base64url');
  const pack = signObject(
    {
      cashpack_version: 'CP-1.0',
      pack_id: packId,
      amount: '2500',
      asset,
      issued_at: '2026-06-01T12:00:00Z',
      expires_at: '2026-06-08T12:00:00Z',
      current_bearer_pk: b1.publicKey,
      chain_digest: d1,
      renewal_chain: [entry],
      status: 'ACTIVE',
    },
    operator.privateJwk,
    { kid },
  );
  const redemption = signObject(
    {
      redemption_id: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d',
      pack_id: packId,
      prev_chain_digest: d1,
      bearer_pk: b1.publicKey,
      destination: { type: 'account', reference: 'DE89370400440532013000' },
      redeemer: { identity_token: 'idt-level-2' },
      created_at: '2026-06-03T10:00:00Z',
    },
    b1.privateJwk,
  );
  const confirmation = signObject(
    {
      redemption_id: redemption.redemption_id,
      pack_id: packId,
      amount: '2500',
      asset,
      redeemed_at: '2026-06-03T10:00:01Z',
      status: 'REDEEMED',
    },
    operator.privateJwk,
    { kid },
  );
  return {
    list: [
      ['LockRequest', 'lock-request', lock, 'principal-funded', 'PRF-4-LOCK-REQUEST-SHAPE'],
      ['CashPack', 'cashpack', pack, 'operator', 'PRF-4-CASHPACK-SHAPE'],
      ['RenewalEntry', 'renewal-entry', entry, 'bearer-0', 'PRF-4-RENEWAL-ENTRY-SHAPE'],
      ['RedemptionRequest', 'redemption-request', redemption, 'bearer-1', 'PRF-4-REDEMPTION-REQUEST-SHAPE'],
      ['RedemptionConfirmation', 'redemption-confirmation', confirmation, 'operator', 'PRF-4-REDEEM-BINDING'],
    ] as Array<[string, string, Record<string, unknown>, string, string]>,
    kid,
  };
}

/** The group order L of Ed25519 (RFC 8032 5.1). */
const L = 2n ** 252n + 27742317777372353535851937790883648493n;

/** The signature with S replaced by S + L: the same point equation, a non-canonical S. */
function malleable(signature: string): string {
  const bytes = base64urlDecode(signature);
  let s = 0n;
  for (let i = 63; i >= 32; i--) s = (s << 8n) | BigInt(bytes[i] as number);
  s += L;
  for (let i = 32; i < 64; i++) {
    bytes[i] = Number(s & 0xffn);
    s >>= 8n;
  }
  return base64urlEncode(bytes);
}

/** Signature specs: each message valid, then broken one way at a time. */
export function signatureSpecs(): Array<Spec<SignatureCase>> {
  const out: Array<Spec<SignatureCase>> = [];
  const { list } = messages();
  for (const [type, slug, message, signer, shape] of list) {
    const pk = vectorKey(signer).publicKey;
    const other = vectorKey('intruder').publicKey;
    const sig = message.signature as string;
    const { signature: _s, ...unsigned } = message;
    const add = (
      id: string,
      comment: string,
      msg: Record<string, unknown>,
      key: string,
      valid: boolean,
      flags: string[],
    ) =>
      out.push({
        kind: 'signature',
        id: `sig-${slug}-${id}`,
        comment,
        message_type: type,
        public_key: key,
        message: msg,
        signing_input: '',
        req: [SIG, KEYS, 'PRF-4-PUBLIC-KEY-ENCODING', shape, 'CP-5-MESSAGES-SIGNED'],
        valid,
        flags,
      });
    add('valid', `a ${type} signed over its JCS bytes`, message, pk, true, ['Valid']);
    const flipped = base64urlDecode(sig);
    flipped[5] = (flipped[5] as number) ^ 0x10;
    add(
      'flipped-bit',
      'one bit of R flipped',
      { ...message, signature: base64urlEncode(flipped) },
      pk,
      false,
      ['FlippedBit'],
    );
    const flippedS = base64urlDecode(sig);
    flippedS[40] = (flippedS[40] as number) ^ 0x01;
    add(
      'flipped-bit-s',
      'one bit of S flipped',
      { ...message, signature: base64urlEncode(flippedS) },
      pk,
      false,
      ['FlippedBit'],
    );
    add('other-key', 'verified with another key than the signer', message, other, false, ['WrongKey']);
    const changedName = 'amount' in message ? 'amount' : 'created_at';
    add(
      'member-changed',
      `${changedName} changed after signing`,
      { ...message, [changedName]: changedName === 'amount' ? '2501' : '2026-06-02T09:30:01Z' },
      pk,
      false,
      ['ModifiedMessage'],
    );
    add('member-added', 'a member added after signing', { ...message, note: 'x' }, pk, false, [
      'ModifiedMessage',
    ]);
    const { signature: _x, ...missing } = message;
    add('signature-missing', 'no signature member', missing, pk, false, ['MissingMember']);
    const [first] = Object.keys(unsigned);
    const { [first as string]: _dropped, ...without } = message;
    add('member-removed', `${first} removed after signing`, without, pk, false, [
      'MissingMember',
      'ModifiedMessage',
    ]);
    add(
      'signature-padded',
      'the signature written with "=" padding: not base64url as profile 4 writes it',
      { ...message, signature: `${sig}==` },
      pk,
      false,
      ['NonCanonicalEncoding'],
    );
    add(
      'signature-standard-base64',
      'the signature in standard base64 ("+" "/")',
      { ...message, signature: Buffer.from(base64urlDecode(sig)).toString('base64').replace(/=+$/, '') },
      pk,
      sig === Buffer.from(base64urlDecode(sig)).toString('base64').replace(/=+$/, ''),
      ['NonCanonicalEncoding'],
    );
    add(
      'signature-s-plus-l',
      'S replaced by S + L: a non-canonical S (RFC 8032 5.1.7 rejects S >= L)',
      { ...message, signature: malleable(sig) },
      pk,
      false,
      ['NonCanonicalEncoding', 'Malleability'],
    );
    const nonJcs = base64urlEncode(
      signBytes(new TextEncoder().encode(JSON.stringify(unsigned)), vectorKey(signer).privateJwk),
    );
    add(
      'signed-non-jcs',
      'signed over JSON.stringify bytes (insertion order) instead of JCS',
      { ...message, signature: nonJcs },
      pk,
      false,
      ['NotJcsSigned'],
    );
    const withSig = base64urlEncode(
      signBytes(
        new TextEncoder().encode(canonicalize({ ...unsigned, signature: '' })),
        vectorKey(signer).privateJwk,
      ),
    );
    add(
      'signed-with-signature-member',
      'signed over JCS bytes that include an empty signature member',
      { ...message, signature: withSig },
      pk,
      false,
      ['NotJcsSigned'],
    );
    add(
      'signature-truncated',
      'a signature of 63 bytes',
      { ...message, signature: base64urlEncode(base64urlDecode(sig).subarray(0, 63)) },
      pk,
      false,
      ['NonCanonicalEncoding'],
    );
  }
  return out.filter((s) => !(s.id.endsWith('standard-base64') && s.valid));
}

/** Chain specs: d0..dN of a pack renewed three times, and digests computed wrongly. */
export function chainSpecs(): Array<Spec<ChainCase>> {
  const asset = { type: 'stablecoin', code: 'USDC', chain_id: 'eip155:8453' };
  const keys = [0, 1, 2, 3].map((i) => vectorKey(`bearer-${i}`));
  const seed = {
    pack_id: '2c5ea4c0-4067-4e6b-9d3a-6f5b1e8d7c90',
    amount: '1000000',
    asset,
    expires_at: '2026-07-01T00:00:00Z',
    initial_bearer_pk: (keys[0] as (typeof keys)[number]).publicKey,
  };
  const digests = [initialChainDigest(seed)];
  const chain: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 3; i++) {
    const k = keys[i] as (typeof keys)[number];
    const entry = signObject(
      {
        renewal_id: `00000000-0000-4000-8000-00000000000${i + 1}`,
        pack_id: seed.pack_id,
        prev_chain_digest: digests[i] as string,
        bearer_pk: k.publicKey,
        new_bearer_pk: (keys[i + 1] as (typeof keys)[number]).publicKey,
        created_at: `2026-06-0${i + 2}T10:00:00+02:00`,
      },
      k.privateJwk,
    );
    chain.push(entry);
    digests.push(nextChainDigest(digests[i] as string, entry));
  }
  const base = (id: string, comment: string, n: number): Spec<ChainCase> => ({
    kind: 'chain',
    id: `chain-${id}`,
    comment,
    seed,
    renewal_chain: chain.slice(0, n),
    digests: digests.slice(0, n + 1),
    req: [CHAIN, 'PRF-4-SIGNATURE-JCS'],
    valid: true,
    flags: ['Valid'],
  });
  const last = chain.slice(0, 2);
  const d2 = digests[2] as string;
  const wrong = (id: string, comment: string, claimed: string, flags: string[]): Spec<ChainCase> => ({
    kind: 'chain',
    id: `chain-${id}`,
    comment,
    seed,
    renewal_chain: last,
    chain_digest: claimed,
    req: [CHAIN],
    valid: false,
    flags,
  });
  const sha = (...parts: Array<string | Uint8Array>) => {
    const h = createHash('sha256');
    for (const p of parts) h.update(p);
    return h.digest('hex');
  };
  const { signature: _s, ...entry2Unsigned } = chain[1] as Record<string, unknown>;
  return [
    base('d0', 'a pack never renewed: d0 only', 0),
    base('d1', 'one renewal: d0, d1', 1),
    base('d3', 'three renewals (the entries carry +02:00 timestamps, hashed as written): d0..d3', 3),
    wrong('upper-case-hex', 'd2 written in upper-case hex', d2.toUpperCase(), ['UpperCaseHex']),
    wrong(
      'entry-unsigned',
      'd2 over the renewal entry without its signature',
      sha(Buffer.from(digests[1] as string, 'ascii'), canonicalize(entry2Unsigned)),
      ['EntryWithoutSignature'],
    ),
    wrong(
      'prev-raw-bytes',
      'd2 over the 32 raw bytes of d1 instead of its 64 hex characters',
      sha(Buffer.from(digests[1] as string, 'hex'), canonicalize(chain[1])),
      ['RawDigestBytes'],
    ),
    wrong(
      'entry-not-jcs',
      'd2 over JSON.stringify of the entry (insertion order) instead of JCS',
      sha(Buffer.from(digests[1] as string, 'ascii'), JSON.stringify(chain[1])),
      ['NotJcs'],
    ),
    wrong(
      'd0-extra-member',
      'a d0 that also covers issued_at, carried forward',
      sha(
        Buffer.from(
          nextChainDigest(
            sha(canonicalize({ ...seed, issued_at: '2026-06-01T00:00:00Z' })),
            chain[0] as object,
          ),
          'ascii',
        ),
        canonicalize(chain[1]),
      ),
      ['WrongSeed'],
    ),
    wrong(
      'order-reversed',
      'the digest of the two entries in reverse order',
      nextChainDigest(nextChainDigest(digests[0] as string, chain[1] as object), chain[0] as object),
      ['WrongOrder'],
    ),
  ];
}

/** The Operator key's kid (RFC 7638 thumbprint over {crv, kty, x}). */
export function thumbprintSpecs(): Array<Spec<ThumbprintCase>> {
  return [
    {
      kind: 'jwk-thumbprint',
      id: 'kid-operator',
      comment: 'the kid of the vector Operator key: base64url SHA-256 of JCS {crv, kty, x}',
      public_key: vectorKey('operator').publicKey,
      kid: messages().kid,
      req: ['PRF-4-OPERATOR-KID', 'PRF-4-OPERATOR-JWK'],
      valid: true,
      flags: ['Valid'],
    },
  ];
}
