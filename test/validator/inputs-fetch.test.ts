/**
 * Retrieval of a reference URI's CPR by `cprc validate` (src/validator/inputs/fetch.ts, spec 4.1,
 * profile 2): the 200 body as sent, and one CprcError naming the URL and what to do for every
 * other outcome (a redirect, another status, a body above the limit, a timeout, no connection, an
 * untrusted certificate, an unreadable --ca file).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeReferenceUri } from '../../src/codec/index.js';
import { CprcError } from '../../src/errors.js';
import { createLoopbackPki } from '../../src/loopback/tls.js';
import { type InputResult, retrieveCpr, validateInputs } from '../../src/validator/inputs/index.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');
const DOC = readFileSync(join(FIXTURES, 'onchain-ok.json'));

let server: Server;
let base = '';
let dir = '';
let ca = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-validator-fetch-'));
  const pki = await createLoopbackPki();
  ca = join(dir, 'ca.pem');
  writeFileSync(ca, pki.ca.certPem);
  server = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
    const [, kind = '', arg = ''] = (req.url ?? '').split('/');
    const json = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    };
    switch (kind) {
      case 'ok':
        json(200, DOC.toString('utf8'));
        return;
      case 'bytes': // a 200 body of exactly `arg` bytes
        json(200, 'x'.repeat(Number(arg)));
        return;
      case 'status': {
        const status = Number(arg);
        if (status === 500) json(500, 'internal trouble');
        else if (status === 403) json(403, { error: { code: 42 } });
        else if (status === 409) json(409, { detail: 'no error member' });
        else if (status === 422) json(422, 'null');
        else json(status, { error: { code: `CODE_${status}` } });
        return;
      }
      case 'redirect': {
        const status = Number(arg);
        // a 301 without a location; the others with one, and a body far above any limit
        res.writeHead(status, status === 301 ? {} : { location: 'http://127.0.0.1:1/elsewhere' });
        res.end(status === 301 ? '' : 'r'.repeat(64 * 1024));
        return;
      }
      case 'slow': // never answers
        return;
      case 'drip': {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{');
        const timer = setInterval(() => res.write(' '), 50);
        res.on('close', () => clearInterval(timer));
        return;
      }
      case 'broken': // promises 1000 bytes, sends 10, hangs up
        res.writeHead(200, { 'content-length': '1000' });
        res.write('0123456789', () => setTimeout(() => req.socket.destroy(), 20));
        return;
      case 'header': // echoes the method and the accept header
        json(200, JSON.stringify({ method: req.method, accept: req.headers.accept }));
        return;
      case 'notjson':
        json(200, 'this is not json');
        return;
      case 'dup':
        json(200, '{"cpr_version":"CPR-1.0","cpr_version":"CPR-1.0"}');
        return;
      default:
        json(404, { error: { code: 'NOT_FOUND' } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CprcError `retrieveCpr` rejects with. */
async function failure(
  path: string,
  opts: { timeoutMs?: number; maxBytes?: number; ca?: string | null } = {},
) {
  const url = `${base}${path}`;
  try {
    await retrieveCpr(url, {
      timeoutMs: opts.timeoutMs ?? 5000,
      maxBytes: opts.maxBytes ?? 1000,
      ...(opts.ca === null ? {} : { ca: opts.ca ?? ca }),
    });
  } catch (err) {
    expect(err).toBeInstanceOf(CprcError);
    const e = err as CprcError;
    expect(e.message).not.toContain('\n');
    return { url, code: e.code, message: e.message };
  }
  throw new Error(`expected ${url} to fail`);
}

describe('retrieveCpr', () => {
  it('returns the 200 body byte for byte, asking for json', async () => {
    const body = await retrieveCpr(`${base}/ok/t`, { timeoutMs: 5000, maxBytes: 10_000, ca });
    expect(Buffer.from(body).equals(DOC)).toBe(true);
    const echo = await retrieveCpr(`${base}/header/t`, { timeoutMs: 5000, maxBytes: 10_000, ca });
    expect(JSON.parse(Buffer.from(echo).toString('utf8'))).toEqual({
      method: 'GET',
      accept: 'application/json',
    });
    // the connections of a --ca pool are closed with it
    await new Promise((r) => setTimeout(r, 100));
    const open = await new Promise<number>((resolve, reject) =>
      server.getConnections((err, n) => (err ? reject(err) : resolve(n))),
    );
    expect(open).toBe(0);
  });

  it('accepts a body of exactly max-bytes and refuses one byte more, naming the url, the limit and the flag', async () => {
    const body = await retrieveCpr(`${base}/bytes/1000`, { timeoutMs: 5000, maxBytes: 1000, ca });
    expect(body.length).toBe(1000);
    const f = await failure('/bytes/1001', { maxBytes: 1000 });
    expect(f.code).toBe('CPRC_RESPONSE_TOO_LARGE');
    expect(f.message).toContain(f.url);
    expect(f.message).toContain('1000 bytes');
    expect(f.message).toContain('--max-bytes');
  });

  it('a 404 or 410 names the status and the error code, and says a token works once', async () => {
    for (const status of [404, 410]) {
      const f = await failure(`/status/${status}`);
      expect(f.code).toBe('CPRC_IO');
      expect(f.message).toContain(f.url);
      expect(f.message).toContain(`answered ${status} CODE_${status}`);
      expect(f.message).toContain('new uri');
    }
  });

  it('another status names the status (and the code when the body has a string one), without the token hint', async () => {
    for (const [status, code] of [
      [201, 'CODE_201'],
      [299, 'CODE_299'],
      [400, 'CODE_400'],
      [401, 'CODE_401'],
      [403, ''],
      [409, ''],
      [422, ''],
      [500, ''],
    ] as const) {
      const f = await failure(`/status/${status}`);
      expect(f.code).toBe('CPRC_IO');
      expect(f.message).toContain(f.url);
      expect(f.message).toContain(code ? `answered ${status} ${code};` : `answered ${status};`);
      expect(f.message).toContain('did not serve the cpr');
      expect(f.message).not.toContain('new uri');
      expect(f.message).not.toContain('redirect');
    }
  });

  it('refuses every 3xx unread, naming the status and where it pointed', async () => {
    for (const status of [300, 302, 307, 399]) {
      const f = await failure(`/redirect/${status}`, { maxBytes: 1000 });
      expect(f.code).toBe('CPRC_IO');
      expect(f.message).toContain('redirect refused');
      expect(f.message).toContain(f.url);
      expect(f.message).toContain(`answered ${status} to http://127.0.0.1:1/elsewhere`);
    }
    const bare = await failure('/redirect/301');
    expect(bare.message).toContain('answered 301;');
    expect(bare.message).not.toContain(' to ');
  });

  it('ends an endpoint that never answers, and one that never finishes its answer, at the timeout', async () => {
    const t0 = Date.now();
    const silent = await failure('/slow/t', { timeoutMs: 300 });
    expect(silent.code).toBe('CPRC_TIMEOUT');
    expect(silent.message).toContain(silent.url);
    expect(silent.message).toContain('did not answer within 300 ms');
    expect(silent.message).toContain('--timeout');
    const drip = await failure('/drip/t', { timeoutMs: 300, maxBytes: 100_000 });
    expect(drip.code).toBe('CPRC_TIMEOUT');
    expect(drip.message).toContain(drip.url);
    expect(drip.message).toContain('did not send its whole answer within 300 ms');
    expect(Date.now() - t0).toBeLessThan(5000);
  });

  it('an answer that breaks off is "broke off", naming the url', async () => {
    const f = await failure('/broken/t', { maxBytes: 5000 });
    expect(f.code).toBe('CPRC_TARGET_UNREACHABLE');
    expect(f.message).toContain(f.url);
    expect(f.message).toContain('broke off');
  });

  it('no connection names the url; an untrusted certificate adds the --ca hint', async () => {
    const refused = await retrieveCpr('https://127.0.0.1:1/cpr/t', { timeoutMs: 5000, maxBytes: 1000 }).then(
      () => undefined,
      (e: unknown) => e as CprcError,
    );
    expect(refused?.code).toBe('CPRC_TARGET_UNREACHABLE');
    expect(refused?.message).toContain('cannot retrieve https://127.0.0.1:1/cpr/t');
    // the cause, and nothing after it
    expect(refused?.message).toMatch(/ECONNREFUSED 127\.0\.0\.1:1$/);
    const untrusted = await failure('/ok/t', { ca: null });
    expect(untrusted.code).toBe('CPRC_TARGET_UNREACHABLE');
    expect(untrusted.message).toContain(`cannot retrieve ${untrusted.url}`);
    expect(untrusted.message).toContain('--ca FILE');
  });

  it('names an unreadable --ca file and asks for a PEM file', async () => {
    const missing = join(dir, 'no-such-ca.pem');
    const f = await failure('/ok/t', { ca: missing });
    expect(f.code).toBe('CPRC_IO');
    expect(f.message).toContain(missing);
    expect(f.message).toContain('PEM');
  });
});

describe('validateInputs with a reference uri', () => {
  async function all(inputs: string[], opts: Parameters<typeof validateInputs>[1]): Promise<InputResult[]> {
    const out: InputResult[] = [];
    for await (const r of validateInputs(inputs, opts)) out.push(r);
    return out;
  }

  it('retrieves the document with --ca, under --max-bytes, and names where it came from', async () => {
    const uri = encodeReferenceUri('a'.repeat(32), `${base}/ok`);
    const [r] = await all([uri], { now: NOW, ca, mode: 'payee' });
    expect(r?.error).toBeUndefined();
    expect(r?.valid).toBe(true);
    expect(r?.input).toBe(uri);
    expect(r?.source).toContain(`retrieved from ${base}/ok/cpr/${'a'.repeat(32)}`);
    const [big] = await all([uri], { now: NOW, ca, maxBytes: 100 });
    expect(big?.valid).toBe(false);
    expect(big?.error).toContain('100 bytes');
    const [untrusted] = await all([uri], { now: NOW });
    expect(untrusted?.error).toContain('--ca FILE');
  });

  it('keeps the findings of the uri and of the body, and names the url in them', async () => {
    // an endpoint that is not percent-encoded: a profile warning of the uri
    const raw = `cpr://${'c'.repeat(32)}?endpoint=${base}/ok`;
    const [warned] = await all([raw], { now: NOW, ca, mode: 'payee' });
    expect(warned?.error).toBeUndefined();
    expect(warned?.findings.map((f) => [f.requirement, f.severity])).toEqual([
      ['PRF-2-REFERENCE-URI', 'warning'],
    ]);
    expect(warned?.valid).toBe(true);
    const [dup] = await all([encodeReferenceUri('d'.repeat(32), `${base}/dup`)], {
      now: NOW,
      ca,
      mode: 'payee',
    });
    expect(dup?.findings.map((f) => f.requirement)).toContain('PRF-1-JSON-UNIQUE-MEMBER-NAMES');
    const [bad] = await all([encodeReferenceUri('e'.repeat(32), `${base}/notjson`)], { now: NOW, ca });
    expect(bad?.error).toBeUndefined();
    expect(bad?.findings.map((f) => f.requirement)).toEqual(['PRF-1-JSON-UTF8']);
    expect(bad?.findings[0]?.message).toContain(`${base}/notjson/cpr/${'e'.repeat(32)}`);
  });

  it('gives up at timeoutMs', async () => {
    const [r] = await all([encodeReferenceUri('b'.repeat(32), `${base}/slow`)], {
      now: NOW,
      ca,
      timeoutMs: 200,
    });
    expect(r?.valid).toBe(false);
    expect(r?.error).toContain('200 ms');
  });
});
