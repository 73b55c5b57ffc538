/**
 * The reference payee's seams: overriding one method yields exactly one fault, and the checks of
 * the payee tests see it. (The full broken variants live in test/broken/; this file proves the
 * seams exist and that the tests which guard them can fail.)
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCprUri, tokenFormatFindings } from '../../src/codec/index.js';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import {
  type ConsumeResult,
  type CreateRequestParams,
  DocumentBuilder,
  type FulfillResult,
  ReferencePayee,
  type ReferencePayeeOptions,
  RequestRegistry,
  type RunningPayee,
  startReferencePayee,
  type TokenRecord,
  TokenStore,
  type ValidityWindow,
} from '../../src/reference/payee/index.js';
import { validateCpr } from '../../src/validator/index.js';
import { createRecordingClient, type RecordingClient } from '../_support/https.js';

let pki: LoopbackPki;
let client: RecordingClient;
const running: RunningPayee[] = [];

beforeAll(async () => {
  pki = await createLoopbackPki();
  client = createRecordingClient({ ca: pki.ca.certPem });
});
afterAll(async () => {
  await client.close();
  await Promise.all(running.map((p) => p.close()));
});

async function start(opts: Partial<ReferencePayeeOptions> = {}, Cls = ReferencePayee): Promise<RunningPayee> {
  const p = await new Cls({ tls: pki.server, ...opts }).start();
  running.push(p);
  return p;
}

async function issue(payee: RunningPayee, body: Record<string, unknown> = {}) {
  const ex = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'reference', ...body });
  expect(ex.status).toBe(201);
  const answer = ex.body as { uri: string; request_id: string };
  const d = decodeCprUri(answer.uri);
  if (!d.ok || d.value.kind !== 'reference') throw new Error('expected a reference uri');
  return { ...answer, ...d.value };
}

describe('reference payee seams: one override, one fault', () => {
  it('the reference itself: single use, expiry and unique ids hold', async () => {
    const payee = await startReferencePayee({ tls: pki.server });
    running.push(payee);
    const r = await issue(payee);
    expect((await client.get(r.retrievalUrl)).status).toBe(200);
    expect((await client.get(r.retrievalUrl)).status).toBe(410);
  });

  it('TokenStore.invalidate as a no-op: a token serves twice', async () => {
    class Reusable extends TokenStore {
      override invalidate(): void {}
    }
    const payee = await start({ tokenStore: new Reusable() });
    const r = await issue(payee);
    expect((await client.get(r.retrievalUrl)).status).toBe(200);
    expect((await client.get(r.retrievalUrl)).status).toBe(200);
  });

  it('TokenStore.consume with an await between check and invalidation: the 32-way race serves more than once', async () => {
    // The await is a barrier: the first checker waits (up to 5 s) for a second one to pass the
    // check too, so the interleaving the fault allows happens on every run.
    let release: () => void = () => undefined;
    const bothChecked = new Promise<void>((r) => {
      release = r;
    });
    let checked = 0;
    class Racy extends TokenStore {
      override async consume(token: string, now: Date): Promise<ConsumeResult> {
        const record = this.records.get(token);
        if (record === undefined) return { outcome: 'unknown' };
        if (record.consumed) return { outcome: 'consumed' };
        if (this.isExpired(record, now)) return { outcome: 'expired' };
        if (++checked >= 2) release();
        await Promise.race([bothChecked, new Promise((r) => setTimeout(r, 5000))]);
        this.invalidate(record);
        return { outcome: 'served', record };
      }
    }
    const payee = await start({ tokenStore: new Racy() });
    await Promise.all(Array.from({ length: 32 }, () => client.get(`${payee.baseUrl}/cpr/warm`)));
    const r = await issue(payee);
    const results = await Promise.all(Array.from({ length: 32 }, () => client.get(r.retrievalUrl)));
    expect(results.filter((x) => x.status === 200).length).toBeGreaterThan(1);
  });

  it('TokenStore.isExpired always false: a token works past its lifetime', async () => {
    class Immortal extends TokenStore {
      override isExpired(_record: TokenRecord, _now: Date): boolean {
        return false;
      }
    }
    const clock = { at: Date.parse('2026-01-01T00:00:00Z') };
    const payee = await start({ tokenStore: new Immortal(), clock: () => new Date(clock.at) });
    const r = await issue(payee, { token_ttl_seconds: 10 });
    clock.at += 3_600_000;
    expect((await client.get(r.retrievalUrl)).status).toBe(200);
  });

  it('TokenStore.generateToken sequential: tokens fail the entropy check', async () => {
    let n = 0;
    class Sequential extends TokenStore {
      override generateToken(): string {
        n += 1;
        return String(n).padStart(6, '0');
      }
    }
    const payee = await start({ tokenStore: new Sequential() });
    const a = await issue(payee);
    const b = await issue(payee);
    expect(Number(b.token) - Number(a.token)).toBe(1);
    expect(tokenFormatFindings(a.token).map((f) => f.requirement)).toEqual(['PRF-2-TOKEN-ENTROPY']);
  });

  it('DocumentBuilder.build adding payer data: the validator in payee mode rejects the CPR', async () => {
    class Leaky extends DocumentBuilder {
      override build(p: CreateRequestParams, id: string, w: ValidityWindow) {
        return { ...super.build(p, id, w), payer: { name: 'Alice' } };
      }
    }
    const payee = await start({ documentBuilder: new Leaky() });
    const r = await issue(payee);
    const doc = (await client.get(r.retrievalUrl)).body;
    const result = validateCpr(doc, { mode: 'payee' });
    expect(result.valid).toBe(false);
    expect(result.findings.map((f) => f.requirement)).toContain('CPR-INV-1-NO-PAYER-DATA');
  });

  it('DocumentBuilder.newRequestId constant: two requests share a request_id', async () => {
    class Repeating extends DocumentBuilder {
      override newRequestId(): string {
        return '11111111-1111-4111-8111-111111111111';
      }
    }
    const payee = await start({ documentBuilder: new Repeating() });
    const a = await issue(payee);
    const b = await issue(payee);
    expect(a.request_id).toBe(b.request_id);
  });

  it('DocumentBuilder.validityWindow ignoring the ceiling: expires_at is unbounded', async () => {
    class Unbounded extends DocumentBuilder {
      override validityWindow(now: Date, requested: number): ValidityWindow {
        return super.validityWindow(now, requested, Number.MAX_SAFE_INTEGER);
      }
    }
    const payee = await start({ documentBuilder: new Unbounded(), maxValiditySeconds: 600 });
    const r = await issue(payee, { validity_seconds: 10 * 365 * 24 * 3600 });
    const doc = (await client.get(r.retrievalUrl)).body as { created_at: string; expires_at: string };
    expect(Date.parse(doc.expires_at) - Date.parse(doc.created_at)).toBeGreaterThan(600_000);
  });

  it('RequestRegistry.fulfill always accepting: a second fulfillment is 200', async () => {
    class Lenient extends RequestRegistry {
      override fulfill(requestId: string, _now: Date): FulfillResult {
        return {
          outcome: 'fulfilled',
          request: { requestId, expiresAt: new Date(0), fulfilledAt: new Date() },
        };
      }
    }
    const payee = await start({ requestRegistry: new Lenient() });
    const r = await issue(payee);
    for (let i = 0; i < 2; i++) {
      const ex = await client.post(`${payee.harnessUrl}/fulfillments`, { request_id: r.request_id });
      expect(ex.status).toBe(200);
    }
  });

  it('ReferencePayee.handlePlainHttp routing like HTTPS: the plain listener serves the CPR', async () => {
    class PlainServing extends ReferencePayee {
      protected override handlePlainHttp(req: IncomingMessage, res: ServerResponse) {
        return this.handleHttps(req, res);
      }
    }
    const payee = await start({}, PlainServing);
    const r = await issue(payee);
    const ex = await client.get(`${payee.plainHttpUrl}/cpr/${r.token}`);
    expect(ex.status).toBe(200);
    expect((ex.body as { cpr_version: string }).cpr_version).toBe('CPR-1.0');
  });
});
