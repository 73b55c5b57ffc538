/**
 * The reference payee's error behaviour over real HTTPS: every error code of profile 2, single
 * use under a 32-way race, lifetime and validity caps (with a controllable clock: no timed
 * tests), the plain-HTTP listener, and option errors. Every response is schema-checked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeCprUri } from '../../src/codec/index.js';
import { isCprcError } from '../../src/errors.js';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import { type RunningPayee, startReferencePayee } from '../../src/reference/payee/index.js';
import {
  createRecordingClient,
  type Exchange,
  type RecordingClient,
  validateTraffic,
} from '../_support/https.js';
import { PAYEE_ROUTES } from '../_support/routes.js';

const CPR_FIELDS = [
  'cpr_version',
  'request_id',
  'created_at',
  'expires_at',
  'payee',
  'value',
  'rail_hint',
  'iban',
  'receiver_address',
];

let pki: LoopbackPki;
let client: RecordingClient;
const running: RunningPayee[] = [];

/** A payee with its own controllable clock. */
async function startPayee(opts: { maxTokenTtlSeconds?: number; maxValiditySeconds?: number } = {}) {
  const clock: { offsetMs: number; at?: number } = { offsetMs: 0 };
  const payee = await startReferencePayee({
    tls: pki.server,
    clock: () => new Date(clock.at ?? Date.now() + clock.offsetMs),
    ...opts,
  });
  running.push(payee);
  return { payee, clock };
}

beforeAll(async () => {
  pki = await createLoopbackPki();
  client = createRecordingClient({ ca: pki.ca.certPem });
});
afterEach(() => {
  validateTraffic(client.take(), PAYEE_ROUTES);
});
afterAll(async () => {
  await client.close();
  await Promise.all(running.map((p) => p.close()));
});

async function issue(payee: RunningPayee, body: Record<string, unknown> = {}) {
  const ex = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'reference', ...body });
  expect(ex.status).toBe(201);
  const answer = ex.body as { uri: string; request_id: string; token_expires_at: string };
  const d = decodeCprUri(answer.uri);
  if (!d.ok || d.value.kind !== 'reference') throw new Error('expected a reference uri');
  return { ...answer, token: d.value.token, retrievalUrl: d.value.retrievalUrl };
}

/** Profile 1 error body, profile 2: never CPR fields. */
function expectErrorBody(ex: Exchange, status: number, code: string) {
  expect(ex.status).toBe(status);
  expect(Object.keys(ex.body as object)).toEqual(['error']);
  const err = (ex.body as { error: Record<string, unknown> }).error;
  expect(Object.keys(err).sort()).toEqual(['code', 'message']);
  expect(err.code).toBe(code);
  expect(typeof err.message === 'string' && err.message.length > 0).toBe(true);
  for (const f of CPR_FIELDS) expect(ex.text).not.toContain(`"${f}"`);
}

describe('CPR retrieval errors (spec 5, 7; profile 2)', () => {
  it('a second use of a token is 410 TOKEN_CONSUMED [CPR-5-TOKEN-SINGLE-USE CPR-5-TOKEN-REUSE-ERROR PRF-2-TOKEN-CONSUMED-410]', async () => {
    const { payee } = await startPayee();
    const r = await issue(payee);
    expect((await client.get(r.retrievalUrl)).status).toBe(200);
    expectErrorBody(await client.get(r.retrievalUrl), 410, 'TOKEN_CONSUMED');
    expectErrorBody(await client.get(r.retrievalUrl), 410, 'TOKEN_CONSUMED');
  });

  it('a token past its lifetime is 410 TOKEN_EXPIRED, and a used one stays TOKEN_CONSUMED [CPR-5-TOKEN-EXPIRY PRF-2-TOKEN-EXPIRED-410]', async () => {
    const { payee, clock } = await startPayee();
    const fresh = await issue(payee, { token_ttl_seconds: 60 });
    const used = await issue(payee, { token_ttl_seconds: 60 });
    expect((await client.get(used.retrievalUrl)).status).toBe(200);
    clock.offsetMs = 60_000;
    expectErrorBody(await client.get(fresh.retrievalUrl), 410, 'TOKEN_EXPIRED');
    expectErrorBody(await client.get(used.retrievalUrl), 410, 'TOKEN_CONSUMED');
  });

  it('a token never issued is 404 TOKEN_UNKNOWN [PRF-2-TOKEN-UNKNOWN-404]', async () => {
    const { payee } = await startPayee();
    expectErrorBody(await client.get(`${payee.baseUrl}/cpr/${'a'.repeat(32)}`), 404, 'TOKEN_UNKNOWN');
    expectErrorBody(await client.get(`${payee.baseUrl}/cpr/`), 404, 'TOKEN_UNKNOWN');
  });

  it('exactly one of 32 concurrent retrievals of one token succeeds [CPR-5-TOKEN-SINGLE-USE CPR-8-TOKEN-USES]', async () => {
    const { payee } = await startPayee();
    // Warm the pool: 32 concurrent requests open 32 TLS connections, so the race below is not
    // serialised behind handshakes.
    const warm = await Promise.all(
      Array.from({ length: 32 }, () => client.get(`${payee.baseUrl}/cpr/warmup`)),
    );
    expect(warm.every((w) => w.status === 404)).toBe(true);
    for (let round = 0; round < 3; round++) {
      const r = await issue(payee);
      const results = await Promise.all(Array.from({ length: 32 }, () => client.get(r.retrievalUrl)));
      const ok = results.filter((x) => x.status === 200);
      expect(ok).toHaveLength(1);
      const [winner] = ok as [Exchange];
      expect((winner.body as { request_id: string }).request_id).toBe(r.request_id);
      for (const x of results.filter((y) => y.status !== 200)) expectErrorBody(x, 410, 'TOKEN_CONSUMED');
    }
  });

  it('retrieval takes GET only, and unknown paths are 404 error bodies', async () => {
    const { payee } = await startPayee();
    const r = await issue(payee);
    expectErrorBody(await client.post(r.retrievalUrl, {}), 400, 'INVALID_REQUEST');
    expect((await client.get(r.retrievalUrl)).status).toBe(200); // the POST did not consume it
    expectErrorBody(await client.get(`${payee.baseUrl}/nothing/here`), 404, 'INVALID_REQUEST');
  });
});

describe('token lifetime and validity caps (spec 5 rule 1, INV-8; profile 2) [PRF-2-HARNESS-TOKEN-TTL PRF-2-HARNESS-VALIDITY PRF-2-TOKEN-LIFETIME CPR-INV-8-BOUNDED-EXPIRY]', () => {
  it('caps the token lifetime at 900 s by default, and honours a shorter one', async () => {
    const { payee } = await startPayee();
    for (const [asked, expected] of [
      [5000, 900],
      [undefined, 900],
      [120, 120],
    ] as const) {
      const before = Date.now();
      const r = await issue(payee, asked === undefined ? {} : { token_ttl_seconds: asked });
      const after = Date.now();
      const expiresAt = Date.parse(r.token_expires_at);
      expect(expiresAt).toBeGreaterThanOrEqual(before + expected * 1000);
      expect(expiresAt).toBeLessThanOrEqual(after + expected * 1000);
    }
  });

  it("caps at the payee's own lower maximum, and the token really stops at that instant", async () => {
    const { payee, clock } = await startPayee({ maxTokenTtlSeconds: 300 });
    const t0 = Date.parse('2026-03-01T10:00:00.000Z');
    clock.at = t0;
    const a = await issue(payee, { token_ttl_seconds: 900 });
    const b = await issue(payee, { token_ttl_seconds: 900 });
    expect(a.token_expires_at).toBe('2026-03-01T10:05:00.000Z');
    clock.at = t0 + 299_999; // just before
    expect((await client.get(a.retrievalUrl)).status).toBe(200);
    clock.at = t0 + 300_000; // the instant itself
    expectErrorBody(await client.get(b.retrievalUrl), 410, 'TOKEN_EXPIRED');
  });

  it('caps the validity window at the maximum and honours a shorter one', async () => {
    const { payee } = await startPayee({ maxValiditySeconds: 600 });
    for (const [asked, expected] of [
      [1_000_000, 600],
      [60, 60],
    ] as const) {
      const r = await issue(payee, { validity_seconds: asked });
      const doc = (await client.get(r.retrievalUrl)).body as { created_at: string; expires_at: string };
      expect(Date.parse(doc.expires_at) - Date.parse(doc.created_at)).toBe(expected * 1000);
    }
  });

  it('refuses options beyond the profile bounds with a clear error', async () => {
    for (const opts of [
      { maxTokenTtlSeconds: 901 },
      { maxTokenTtlSeconds: 0 },
      { maxValiditySeconds: 1.5 },
    ]) {
      const err = await startReferencePayee({ tls: pki.server, ...opts }).catch((e: unknown) => e);
      expect(isCprcError(err, 'CPRC_USAGE')).toBe(true);
      expect((err as Error).message).toMatch(/must be an integer from 1 to/);
    }
    const noTls = await startReferencePayee({} as never).catch((e: unknown) => e);
    expect((noTls as Error).message).toMatch(/needs tls/);
    const badTls = await startReferencePayee({ tls: { certPem: 'x', keyPem: 'secret-key' } }).catch(
      (e: unknown) => e,
    );
    expect(isCprcError(badTls, 'CPRC_INPUT_INVALID')).toBe(true);
    expect((badTls as Error).message).not.toContain('secret-key');
  });
});

describe('harness fulfillments (spec 4.3 rule 5, 7 rule 2; profile 2)', () => {
  it('200 the first time, 409 DUPLICATE_ID after [PRF-2-FULFILLMENT-FIRST-200 PRF-2-FULFILLMENT-DUPLICATE-409 CPR-4.3-CONSUMED-REJECT]', async () => {
    const { payee } = await startPayee();
    const r = await issue(payee);
    const first = await client.post(`${payee.harnessUrl}/fulfillments`, { request_id: r.request_id });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ request_id: r.request_id });
    expectErrorBody(
      await client.post(`${payee.harnessUrl}/fulfillments`, { request_id: r.request_id }),
      409,
      'DUPLICATE_ID',
    );
  });

  it('409 REQUEST_EXPIRED past expires_at [PRF-2-FULFILLMENT-EXPIRED-409 CPR-7-EXPIRED-REJECTED]', async () => {
    const { payee, clock } = await startPayee();
    const r = await issue(payee, { validity_seconds: 30 });
    clock.offsetMs = 31_000;
    expectErrorBody(
      await client.post(`${payee.harnessUrl}/fulfillments`, { request_id: r.request_id }),
      409,
      'REQUEST_EXPIRED',
    );
  });

  it('404 REQUEST_UNKNOWN for an id never issued [PRF-2-FULFILLMENT-UNKNOWN-404]', async () => {
    const { payee } = await startPayee();
    expectErrorBody(
      await client.post(`${payee.harnessUrl}/fulfillments`, {
        request_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301',
      }),
      404,
      'REQUEST_UNKNOWN',
    );
  });

  it.each([
    ['no request_id', {}],
    ['an extra member', { request_id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', x: 1 }],
    ['an array', [1]],
  ])('400 INVALID_REQUEST for a fulfillment body with %s', async (_name, body) => {
    const { payee } = await startPayee();
    expectErrorBody(await client.post(`${payee.harnessUrl}/fulfillments`, body), 400, 'INVALID_REQUEST');
  });
});

describe('harness requests: malformed bodies are 400 INVALID_REQUEST naming the problem (profile 1-2)', () => {
  let payee: RunningPayee;
  beforeAll(async () => {
    payee = (await startPayee()).payee;
  });

  it.each([
    ['malformed json', '{"delivery": ', /not valid json/],
    ['an empty body', '', /not valid json/],
  ])('%s', async (_name, text, message) => {
    const ex = await client.request('POST', `${payee.harnessUrl}/requests`, { text });
    expectErrorBody(ex, 400, 'INVALID_REQUEST');
    expect((ex.body as { error: { message: string } }).error.message).toMatch(message);
  });

  it.each([
    ['no delivery', {}, /"delivery" is required/],
    ['an unknown delivery', { delivery: 'email' }, /"delivery"/],
    ['an unknown member', { delivery: 'inline', payer: 'x' }, /"payer" is not a member/],
    [
      'an unknown rail_hint',
      { delivery: 'inline', rail_hint: 'CARRIER_PIGEON' },
      /"rail_hint" must be one of/,
    ],
    ['a number amount', { delivery: 'inline', amount: 1500 }, /"amount" must be a string/],
    ['a leading zero', { delivery: 'inline', amount: '0150' }, /"amount" must be a string/],
    ['a zero amount', { delivery: 'inline', amount: '0' }, /"amount" must be a string/],
    ['an amount of 2^256', { delivery: 'inline', amount: (2n ** 256n).toString() }, /at most 2\^256 - 1/],
    ['a memo of 141 code points', { delivery: 'inline', memo: '𝄞'.repeat(141) }, /141 characters/],
    [
      'a fiat code outside ISO 4217',
      { delivery: 'inline', asset: { type: 'fiat', code: 'EUX' } },
      /ISO 4217/,
    ],
    [
      'a stablecoin without chain_id',
      { delivery: 'inline', asset: { type: 'stablecoin', code: 'USDC' } },
      /chain_id/,
    ],
    ['an unknown asset type', { delivery: 'inline', asset: { type: 'bond', code: 'X' } }, /"asset.type"/],
    ['extensions that are not an object', { delivery: 'inline', extensions: [1] }, /"extensions"/],
    ['a zero token_ttl_seconds', { delivery: 'reference', token_ttl_seconds: 0 }, /token_ttl_seconds/],
    ['a fractional validity_seconds', { delivery: 'inline', validity_seconds: 1.5 }, /validity_seconds/],
    ['a string qr', { delivery: 'inline', qr: 'yes' }, /"qr"/],
    ['a json array', [], /json object/],
  ])('%s', async (_name, body, message) => {
    const ex = await client.post(`${payee.harnessUrl}/requests`, body);
    expectErrorBody(ex, 400, 'INVALID_REQUEST');
    expect((ex.body as { error: { message: string } }).error.message).toMatch(message);
  });

  it('a memo of exactly 140 astral code points is accepted (profile 2: code points, not UTF-16 units)', async () => {
    const ex = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'inline',
      memo: '𝄞'.repeat(140),
    });
    expect(ex.status).toBe(201);
  });

  it('an inline URI over QR capacity with qr: true is refused, not crashed', async () => {
    const ex = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'inline',
      qr: true,
      extensions: { 'com.example:blob': 'x'.repeat(3000) },
    });
    expectErrorBody(ex, 400, 'INVALID_REQUEST');
    expect((ex.body as { error: { message: string } }).error.message).toMatch(/holds at most 2331 bytes/);
  });

  it('a body over the size limit is refused', async () => {
    const ex = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'inline',
      extensions: { big: 'x'.repeat(70 * 1024) },
    });
    expectErrorBody(ex, 400, 'INVALID_REQUEST');
    expect((ex.body as { error: { message: string } }).error.message).toMatch(/exceeds 65536 bytes/);
  });

  it('harness endpoints take POST only', async () => {
    expectErrorBody(await client.get(`${payee.harnessUrl}/requests`), 400, 'INVALID_REQUEST');
  });
});

describe('the plain-HTTP listener never serves a CPR (spec 5 rules 4-5, INV-8) [CPR-5-TLS-ONLY CPR-5-PAYLOAD-TLS-ONLY CPR-INV-8-TLS-ONLY]', () => {
  it('answers a retrieval of a live token with 426 and no CPR field, and leaves the token unused', async () => {
    const { payee } = await startPayee();
    const r = await issue(payee);
    const plain = await client.get(`${payee.plainHttpUrl}/cpr/${r.token}`);
    expectErrorBody(plain, 426, 'INVALID_REQUEST');
    expect(plain.headers.location).toBeUndefined();
    expect(plain.headers.upgrade).toMatch(/TLS/);
    const https = await client.get(r.retrievalUrl);
    expect(https.status).toBe(200);
  });

  it('answers every other method and path the same way', async () => {
    const { payee } = await startPayee();
    for (const ex of [
      await client.post(`${payee.plainHttpUrl}/harness/requests`, { delivery: 'inline' }),
      await client.get(`${payee.plainHttpUrl}/`),
      await client.request('PUT', `${payee.plainHttpUrl}/cpr/x`, { text: '{}' }),
    ]) {
      expectErrorBody(ex, 426, 'INVALID_REQUEST');
      expect(ex.headers.location).toBeUndefined();
    }
  });
});
