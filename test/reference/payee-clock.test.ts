/**
 * The reference payee's revised-profile behaviour (issue 7, issue 11): the optional test clock
 * (`POST {harness}/clock`) moves every expiry decision and never moves back; fulfillment request
 * ids (non-UUID strings 404, missing or non-string 400); harness requests it cannot honour (400,
 * never a non-conformant CPR); no plain listener when asked. Every response is schema-checked.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { decodeCprUri } from '../../src/codec/index.js';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import {
  parseClockAdvance,
  type RunningPayee,
  startReferencePayee,
} from '../../src/reference/payee/index.js';
import { validateCpr } from '../../src/validator/index.js';
import { createRecordingClient, type RecordingClient, validateTraffic } from '../_support/https.js';
import { PAYEE_ROUTES } from '../_support/routes.js';

let pki: LoopbackPki;
let client: RecordingClient;
const running: RunningPayee[] = [];

async function start(
  opts: { testClock?: boolean; plainHttp?: boolean; maxBodyBytes?: number } = {},
): Promise<RunningPayee> {
  const payee = await startReferencePayee({ tls: pki.server, ...opts });
  running.push(payee);
  return payee;
}

async function advance(payee: RunningPayee, body: unknown) {
  return client.post(`${payee.harnessUrl}/clock`, body);
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

describe('the reference payee test clock (profile 2)', () => {
  it('parses {"advance_seconds": N}: a non-negative integer, nothing else', () => {
    expect(parseClockAdvance({ advance_seconds: 5 })).toEqual({ ok: true, value: 5 });
    expect(parseClockAdvance({ advance_seconds: 0 })).toEqual({ ok: true, value: 0 });
    for (const bad of [
      { advance_seconds: -1 },
      { advance_seconds: 1.5 },
      { advance_seconds: '5' },
      {},
      [],
      null,
    ]) {
      const r = parseClockAdvance(bad);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.message).toMatch(/advance_seconds|json object/);
    }
    expect(parseClockAdvance({ advance_seconds: 1, extra: true }).ok).toBe(false);
  });

  it('answers 200 {now} moved forward by N seconds, and refuses to move back', async () => {
    const payee = await start();
    const a = await advance(payee, { advance_seconds: 0 });
    expect(a.status).toBe(200);
    const t0 = Date.parse((a.body as { now: string }).now);
    const b = await advance(payee, { advance_seconds: 3600 });
    expect(b.status).toBe(200);
    const t1 = Date.parse((b.body as { now: string }).now);
    expect(t1 - t0).toBeGreaterThanOrEqual(3600_000);
    expect(t1 - t0).toBeLessThan(3600_000 + 5_000);
    const back = await advance(payee, { advance_seconds: -60 });
    expect(back.status).toBe(400);
    expect((back.body as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    const c = await advance(payee, { advance_seconds: 0 });
    expect(Date.parse((c.body as { now: string }).now)).toBeGreaterThanOrEqual(t1);
  });

  it('moves token and request expiry: past the advance a token is TOKEN_EXPIRED and a request REQUEST_EXPIRED', async () => {
    const payee = await start();
    const ref = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'reference',
      token_ttl_seconds: 60,
    });
    const inline = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'inline',
      validity_seconds: 60,
    });
    const early = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'reference',
      token_ttl_seconds: 60,
    });
    // before the instant: still valid (58 s later)
    await advance(payee, { advance_seconds: 58 });
    const d = decodeCprUri((early.body as { uri: string }).uri);
    if (!d.ok || d.value.kind !== 'reference') throw new Error('not a reference uri');
    expect((await client.get(d.value.retrievalUrl)).status).toBe(200);
    await advance(payee, { advance_seconds: 3 });
    const r = decodeCprUri((ref.body as { uri: string }).uri);
    if (!r.ok || r.value.kind !== 'reference') throw new Error('not a reference uri');
    const got = await client.get(r.value.retrievalUrl);
    expect(got.status).toBe(410);
    expect((got.body as { error: { code: string } }).error.code).toBe('TOKEN_EXPIRED');
    const f = await client.post(`${payee.harnessUrl}/fulfillments`, {
      request_id: (inline.body as { request_id: string }).request_id,
    });
    expect(f.status).toBe(409);
    expect((f.body as { error: { code: string } }).error.code).toBe('REQUEST_EXPIRED');
  });

  it('timestamps written after an advance follow the clock', async () => {
    const payee = await start();
    await advance(payee, { advance_seconds: 86_400 });
    const inline = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'inline' });
    const d = decodeCprUri((inline.body as { uri: string }).uri);
    if (!d.ok || d.value.kind !== 'inline') throw new Error('not an inline uri');
    const created = Date.parse(String(d.value.document.created_at));
    expect(created - Date.now()).toBeGreaterThan(86_000_000);
  });

  it('without testClock the endpoint does not exist (404, like any unknown path)', async () => {
    const payee = await start({ testClock: false });
    const r = await advance(payee, { advance_seconds: 1 });
    expect(r.status).toBe(404);
  });
});

describe('the reference payee fulfillment ids and unserviceable requests (profile 2)', () => {
  it('a non-UUID string request_id is 404 REQUEST_UNKNOWN (never issued); missing, number, null: 400', async () => {
    const payee = await start();
    const unknown = await client.post(`${payee.harnessUrl}/fulfillments`, { request_id: 'not-a-uuid' });
    expect(unknown.status).toBe(404);
    expect((unknown.body as { error: { code: string } }).error.code).toBe('REQUEST_UNKNOWN');
    for (const body of [{}, { request_id: 12 }, { request_id: null }]) {
      const r = await client.post(`${payee.harnessUrl}/fulfillments`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect((r.body as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    }
  });

  it('a memo over 140 code points and extensions a CPR cannot carry are refused with 400', async () => {
    const payee = await start();
    for (const body of [
      { delivery: 'inline', memo: '\u{1F4B6}'.repeat(141) },
      { delivery: 'inline', extensions: { 'com.example:x': { payer_name: 'A' } } },
      { delivery: 'inline', extensions: { 'com.example:x': [{ Settlement_Date: 'x' }] } },
      { delivery: 'inline', extensions: { loyalty: 1 } },
    ]) {
      const r = await client.post(`${payee.harnessUrl}/requests`, body);
      expect(r.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect((r.body as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
    }
  });

  it('walks extensions of any length: an array of 600,000 items under a larger body limit', async () => {
    const payee = await start({ maxBodyBytes: 4 * 1024 * 1024 });
    const items = new Array(600_000).fill(0);
    const ok = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'reference',
      extensions: { 'com.example:x': items },
    });
    expect(ok.status).toBe(201);
    const payer = await client.post(`${payee.harnessUrl}/requests`, {
      delivery: 'reference',
      extensions: { 'com.example:x': [...items, { payer_name: 'A' }] },
    });
    expect(payer.status).toBe(400);
  });

  it('a memo of exactly 140 astral code points is carried unchanged in a conformant CPR', async () => {
    const payee = await start();
    const memo = '\u{1F4B6}'.repeat(140);
    const r = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'inline', memo });
    expect(r.status).toBe(201);
    const d = decodeCprUri((r.body as { uri: string }).uri);
    if (!d.ok || d.value.kind !== 'inline') throw new Error('not an inline uri');
    expect(d.value.document.memo).toBe(memo);
    expect(
      validateCpr(d.value.document, { mode: 'payee' }).findings.filter((f) => f.severity === 'error'),
    ).toEqual([]);
  });

  it('with plainHttp false there is no plain listener', async () => {
    const payee = await start({ plainHttp: false });
    expect(payee.plainHttpUrl).toBeUndefined();
  });
});
