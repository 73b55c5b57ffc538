/**
 * The mock payee of the wallet checks (suites/_lib/mock-payee.ts): a check of the retrieval is
 * only as right as the mock it reads, so what it serves, where, with which certificate, and what
 * it records are pinned here.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Recorder } from '../../src/drivers/recorder.js';
import { createCertificateAuthority } from '../../src/loopback/tls.js';
import { type RunContext, setRunContext } from '../../src/runner/context.js';
import { type MockPayee, mockToken, retrievalTargets, startMockPayee } from '../../suites/_lib/mock-payee.js';

let dir: string;
let caPem: string;
let mock: MockPayee;
let trusting: Agent;
let insecure: Agent;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-mock-payee-'));
  const ca = await createCertificateAuthority({ commonName: 'mock payee test CA' });
  caPem = ca.certPem;
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'ca.key'), ca.keyPem);
  setRunContext({
    config: { tls: { suite_ca_cert_file: join(dir, 'ca.pem'), suite_ca_key_file: join(dir, 'ca.key') } },
    recorder: new Recorder(),
  } as unknown as RunContext);
  const started = await startMockPayee();
  if (!started) throw new Error('the mock payee did not start with a suite CA');
  mock = started;
  trusting = new Agent({ connect: { ca: caPem } });
  insecure = new Agent({ connect: { rejectUnauthorized: false } });
});

afterAll(async () => {
  await mock?.close();
  await trusting?.close();
  await insecure?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function get(
  url: string,
  dispatcher: Agent = trusting,
): Promise<{ status: number; body: unknown; location?: string }> {
  const r = await request(url, { dispatcher });
  const text = await r.body.text();
  const location = r.headers.location;
  return {
    status: r.statusCode,
    body: text ? (JSON.parse(text) as unknown) : undefined,
    ...(typeof location === 'string' ? { location } : {}),
  };
}

describe('mock payee: retrievalTargets (the readings of {endpoint}/cpr/{token}, AMB-39)', () => {
  it('joins a path, and with a trailing slash also accepts the literal empty segment', () => {
    expect(retrievalTargets('t', '')).toEqual(['/cpr/t']);
    expect(retrievalTargets('t', '/a/b')).toEqual(['/a/b/cpr/t']);
    expect(retrievalTargets('t', '/a/b/')).toEqual(['/a/b/cpr/t', '/a/b//cpr/t']);
    expect(retrievalTargets('t', '/a', undefined, true)).toEqual(['/a/cpr/t']);
  });

  it('keeps, drops or pastes a query, never moves the path', () => {
    expect(retrievalTargets('t', '/a', 'x=1')).toEqual(['/a/cpr/t?x=1', '/a/cpr/t', '/a?x=1/cpr/t']);
    expect(retrievalTargets('t', '', 'x=1')).toEqual(['/cpr/t?x=1', '/cpr/t', '/?x=1/cpr/t']);
  });
});

describe('mock payee: serving and recording', () => {
  it('keeps the happy path: {baseUrl}/cpr/{token} once, then 410; an unknown token 404', async () => {
    const offer = mock.offer({ cpr_version: 'CPR-1.0' });
    expect(offer.url).toBe(`${mock.baseUrl}/cpr/${offer.token}`);
    expect(offer.uri).toBe(`cpr://${offer.token}?endpoint=${encodeURIComponent(mock.baseUrl)}`);
    expect((await get(offer.url)).status).toBe(200);
    expect((await get(offer.url)).status).toBe(410);
    expect(mock.retrievals(offer.token)).toBe(2);
    expect((await get(`${mock.baseUrl}/cpr/${'0'.repeat(32)}`)).status).toBe(404);
  });

  it('serves an endpoint with a path only at its targets, and records every request', async () => {
    const token = mockToken('base32', 32);
    const offer = mock.offer({ n: 1 }, { token, path: '/api/v1/', percentCase: 'lower', reusable: true });
    expect(offer.endpoint).toBe(`${mock.baseUrl}/api/v1/`);
    expect(offer.uri).toContain('https%3a%2f%2f127.0.0.1');
    expect((await get(`${mock.baseUrl}/api/v1/cpr/${token}`)).body).toEqual({ n: 1 });
    expect((await get(`${mock.baseUrl}/api/v1//cpr/${token}`)).status).toBe(200);
    expect((await get(`${mock.baseUrl}/cpr/${token}`)).status).toBe(404);
    expect((await get(`${mock.baseUrl}/api/cpr/${token}`)).status).toBe(404);
    const reached = mock.reached(token).map((r) => `${r.listener} ${r.path} ${r.status}`);
    expect(reached).toEqual([
      `main /api/v1/cpr/${token} 200`,
      `main /api/v1//cpr/${token} 200`,
      `main /cpr/${token} 404`,
      `main /api/cpr/${token} 404`,
    ]);
  });

  it('names the host as asked and listens on another port', async () => {
    const second = await mock.listen();
    expect(second.port).not.toBe(mock.main.port);
    const offer = mock.offer({ n: 2 }, { listener: second, host: 'localhost', path: '/p' });
    expect(offer.endpoint).toBe(`https://localhost:${second.port}/p`);
    expect((await get(`https://127.0.0.1:${mock.main.port}/p/cpr/${offer.token}`)).status).toBe(404);
    expect((await get(offer.url)).status).toBe(200);
    if (second.ipv6) expect(second.origin('::1')).toBe(`https://[::1]:${second.port}`);
  });

  it('answers on ::1 as on 127.0.0.1, through the same listener (plain and TLS)', async (ctx) => {
    if (!mock.main.ipv6) ctx.skip(); // no IPv6 loopback on this machine
    const plain = await mock.listen({ plain: true });
    for (const listener of [mock.main, plain]) {
      const v6 = mock.offer({ n: 6 }, { listener, host: '::1' });
      const v4 = mock.offer({ n: 4 }, { listener });
      expect(v6.url.startsWith(`${listener.scheme}://[::1]:${listener.port}/`)).toBe(true);
      expect(await get(v6.url)).toMatchObject({ status: 200, body: { n: 6 } });
      expect(await get(v4.url)).toMatchObject({ status: 200, body: { n: 4 } });
      expect(mock.reached(v6.token).map((r) => `${r.listener} ${r.address}`)).toEqual([
        `${listener.name} ::1`,
      ]);
      expect(mock.reached(v4.token).map((r) => `${r.listener} ${r.address}`)).toEqual([
        `${listener.name} 127.0.0.1`,
      ]);
    }
  });

  it('answers redirects, registers their locations, and ends a loop with the answer given', async () => {
    const plain = await mock.listen({ plain: true });
    const token = mockToken('hex');
    const offer = mock.offer(
      { n: 3 },
      {
        token,
        redirect: { status: 307, location: `${plain.origin()}/moved/cpr/${token}`, body: { decoy: true } },
      },
    );
    const first = await get(offer.url);
    expect(first).toEqual({
      status: 307,
      body: { decoy: true },
      location: `${plain.origin()}/moved/cpr/${token}`,
    });
    expect((await get(first.location ?? '')).body).toEqual({ n: 3 });
    expect(mock.reached(token).map((r) => r.scheme)).toEqual(['https', 'http']);

    const loop = mock.offer(
      {},
      {
        redirect: { status: 302, location: (hop) => `/cpr/x?hop=${hop}`, hops: 3 },
        answer: { status: 404, body: { error: { code: 'TOKEN_UNKNOWN', message: 'stop' } } },
        path: '/l',
      },
    );
    let url = loop.url;
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await get(url);
      statuses.push(r.status);
      if (!r.location) break;
      url = new URL(r.location, url).href;
    }
    expect(statuses).toEqual([302, 302, 302, 404]);
  });

  it('presents each certificate: a validating client refuses every faulty one, an insecure one reaches it', async () => {
    for (const certificate of ['untrusted-ca', 'other-host', 'expired', 'not-yet-valid'] as const) {
      const l = await mock.listen({ certificate });
      const offer = mock.offer({ c: certificate }, { listener: l, reusable: true });
      await expect(get(offer.url), certificate).rejects.toThrow();
      expect((await get(offer.url, insecure)).body, certificate).toEqual({ c: certificate });
    }
    const ipOnly = await mock.listen({ certificate: 'ip-only' });
    const byIp = mock.offer({ c: 'ip' }, { listener: ipOnly, reusable: true });
    expect((await get(byIp.url)).status).toBe(200);
    await expect(get(`https://localhost:${ipOnly.port}/cpr/${byIp.token}`)).rejects.toThrow();
    const localhostOnly = await mock.listen({ certificate: 'localhost-only' });
    const byName = mock.offer({ c: 'name' }, { listener: localhostOnly, host: 'localhost', reusable: true });
    expect((await get(byName.url)).status).toBe(200);
    await expect(get(`https://127.0.0.1:${localhostOnly.port}/cpr/${byName.token}`)).rejects.toThrow();
  });
});
