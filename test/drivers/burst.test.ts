/**
 * The last-byte-synchronised burst (src/drivers/burst.ts) against loopback HTTPS servers that
 * watch what arrives: no request is complete before the release, all complete after it, and a
 * target that is dead, resets, hangs, answers garbage or too much is classified, never waited on.
 */
import { createSecureServer, type Http2SecureServer } from 'node:http2';
import { createServer as createHttpsServer, type Server } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { burst, burstThrough, raceFromBurst } from '../../src/drivers/burst.js';
import { HttpClient, type HttpRequest, isProtocolError } from '../../src/drivers/http.js';
import { createHttpOperator } from '../../src/drivers/http-operator.js';
import { createHttpPayee } from '../../src/drivers/http-payee.js';
import { Recorder } from '../../src/drivers/recorder.js';
import { DriverTransportError } from '../../src/drivers/types.js';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';

const N = 32;

/** What a watching server saw: request heads parsed, requests complete, connections with bytes. */
interface Seen {
  heads: number;
  complete: number;
  withBytes: number;
}

let pki: LoopbackPki;
let ca: string;
const servers: Array<Server | TlsServer | Http2SecureServer> = [];

beforeAll(async () => {
  pki = await createLoopbackPki();
  ca = pki.ca.certPem;
});

afterEach(async () => {
  for (const s of servers.splice(0)) {
    (s as Server).closeAllConnections?.();
    await new Promise<void>((r) => s.close(() => r()));
  }
});

afterAll(() => undefined);

async function listen(s: Server | TlsServer | Http2SecureServer): Promise<string> {
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  return `https://127.0.0.1:${(s.address() as AddressInfo).port}`;
}

/**
 * An HTTPS server that counts heads (the 'request' event), complete requests (body read to its
 * end) and connections that delivered bytes; `answer` decides what to do with a complete request.
 */
async function watching(
  answer: (body: string, res: import('node:http').ServerResponse, n: number) => void = (body, res) => {
    const text = JSON.stringify({ echo: body });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  },
): Promise<{ url: string; seen: Seen }> {
  const seen: Seen = { heads: 0, complete: 0, withBytes: 0 };
  const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
    seen.heads += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.complete += 1;
      answer(Buffer.concat(chunks).toString('utf8'), res, seen.complete);
    });
  });
  server.on('secureConnection', (socket: Socket) => {
    let counted = false;
    socket.on('data', () => {
      if (!counted) seen.withBytes += 1;
      counted = true;
    });
  });
  return { url: await listen(server), seen };
}

/** Waits (bounded) until `cond` holds; the assertion after it says what did not happen. */
async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond() && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
}

describe('burst: last-byte synchronisation', () => {
  it('holds every POST one byte short until the release, then all 32 complete', async () => {
    const { url, seen } = await watching();
    const recorder = new Recorder();
    const requests: HttpRequest[] = Array.from({ length: N }, (_, i) => ({
      method: 'POST',
      url: `${url}/race`,
      json: { racer: i },
    }));
    let completeWhileHeld = -1;
    let headsWhileHeld = -1;
    const out = await burst(requests, {
      ca,
      recorder,
      beforeRelease: async () => {
        // the heads and all body bytes but one are at the server: every request is open there
        await until(() => seen.heads === N);
        headsWhileHeld = seen.heads;
        completeWhileHeld = seen.complete;
      },
    });
    expect(headsWhileHeld).toBe(N);
    expect(completeWhileHeld).toBe(0);
    expect(seen.complete).toBe(N);
    expect(out.released).toBe(N);
    expect(out.protocol).toBe('http/1.1');
    expect(out.results).toHaveLength(N);
    out.results.forEach((r, i) => {
      expect(r.error).toBeUndefined();
      expect(r.index).toBe(i);
      expect(r.response?.status).toBe(200);
      expect(r.response?.json).toEqual({ echo: JSON.stringify({ racer: i }) });
      expect(r.response?.headers['content-type']).toBe('application/json');
      expect(r.early).toBeUndefined();
      expect(r.sentAtMs).toBeGreaterThanOrEqual(0);
      expect(r.answeredAtMs).toBeGreaterThanOrEqual(r.sentAtMs as number);
    });
    const sent = out.results.map((r) => r.sentAtMs as number);
    expect(out.spreadMs).toBeCloseTo(Math.max(...sent) - Math.min(...sent), 9);
    expect(out.spreadMs).toBeGreaterThan(0);
    expect(out.arrivalSpreadMs).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(out.openedAt))).toBe(false);
    expect(Date.parse(out.releasedAt)).toBeGreaterThanOrEqual(Date.parse(out.openedAt));
    // one exchange of evidence per request, in request order, as the drivers record them
    const evidence = recorder.take();
    expect(evidence).toHaveLength(N);
    expect(evidence[5]).toMatchObject({
      kind: 'http',
      method: 'POST',
      url: `${url}/race`,
      status: 200,
      request_body: '{"racer":5}',
      request_headers: { accept: 'application/json', 'content-type': 'application/json' },
    });
    expect(evidence[5]?.response_body).toContain('racer');
    expect(evidence[5]?.race?.index).toBe(5);
    expect(evidence[5]?.race?.sent_ms).toBeCloseTo(out.results[5]?.sentAtMs as number, 2);
    expect(evidence[5]?.race?.answered_ms).toBeCloseTo(out.results[5]?.answeredAtMs as number, 2);
  });

  it('holds a GET in its header block: the server has bytes of every request but no request head', async () => {
    const { url, seen } = await watching();
    let headsWhileHeld = -1;
    const out = await burst(
      Array.from({ length: N }, (_, i) => ({ method: 'GET' as const, url: `${url}/cpr/t${i}?x=1` })),
      {
        ca,
        beforeRelease: async () => {
          await until(() => seen.withBytes === N);
          headsWhileHeld = seen.heads;
        },
      },
    );
    expect(seen.withBytes).toBe(N);
    expect(headsWhileHeld).toBe(0);
    expect(seen.heads).toBe(N);
    expect(out.results.every((r) => r.response?.status === 200)).toBe(true);
    expect(out.released).toBe(N);
  });

  it('sends the request line and headers the drivers send (Host with port, path and query)', async () => {
    const got: Array<{ url?: string; host?: string; accept?: string; auth?: string }> = [];
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
      got.push({
        url: req.url,
        host: req.headers.host,
        accept: req.headers.accept,
        auth: req.headers.authorization,
      });
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"TOKEN_UNKNOWN","message":"no"}}');
    });
    const url = await listen(server);
    const out = await burst(
      [{ method: 'GET', url: `${url}/cpr/abc?q=1`, headers: { authorization: 'Bearer s' } }],
      {
        ca,
        settleMs: 0,
      },
    );
    expect(got).toEqual([
      { url: '/cpr/abc?q=1', host: new URL(url).host, accept: 'application/json', auth: 'Bearer s' },
    ]);
    expect(out.results[0]?.response?.status).toBe(404);
    expect(out.results[0]?.response?.json).toEqual({ error: { code: 'TOKEN_UNKNOWN', message: 'no' } });
    expect(out.spreadMs).toBe(0);
  });
});

describe('burst: targets that do not answer well are classified, never waited on', () => {
  it('a dead target: the burst ends before sending anything, naming the refusal', async () => {
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem });
    const url = await listen(server);
    await new Promise<void>((r) => server.close(() => r()));
    servers.splice(servers.indexOf(server), 1);
    const recorder = new Recorder();
    const err = await burst(
      Array.from({ length: N }, () => ({ method: 'GET' as const, url: `${url}/x` })),
      { ca, recorder },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as DriverTransportError).code).toBe('CPRC_TARGET_UNREACHABLE');
    expect((err as Error).message).toMatch(/connection refused.*could not be opened; nothing was sent/);
    expect(recorder.take()).toHaveLength(1);
  });

  it('a target that drops the connection on the released byte: every request is a reset, the others are not waited for', async () => {
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req) => {
      req.on('data', () => undefined);
      req.on('end', () => req.socket.destroy());
    });
    const url = await listen(server);
    const recorder = new Recorder();
    const out = await burst(
      Array.from({ length: 4 }, () => ({ method: 'POST' as const, url: `${url}/x`, json: {} })),
      { ca, recorder, timeoutMs: 5000 },
    );
    expect(out.released).toBe(4);
    for (const r of out.results) {
      expect(r.response).toBeUndefined();
      expect(r.error?.code).toBe('CPRC_TARGET_UNREACHABLE');
      expect(r.error?.message).toMatch(/connection closed by the target before a complete answer/);
    }
    expect(recorder.take().every((e) => /connection closed/.test(e.error ?? ''))).toBe(true);
  });

  it('half the racers answered, half cut mid-body: each is classified on its own', async () => {
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
      req.resume();
      req.on('end', () => {
        const odd = req.url === '/odd';
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        if (odd) {
          res.write('{"cut":');
          setTimeout(() => req.socket.destroy(), 20);
        } else res.end(`{"pad":"${'p'.repeat(90)}"}`);
      });
    });
    const url = await listen(server);
    const out = await burst(
      Array.from({ length: 6 }, (_, i) => ({
        method: 'GET' as const,
        url: `${url}/${i % 2 ? 'odd' : 'even'}`,
      })),
      { ca },
    );
    out.results.forEach((r, i) => {
      if (i % 2) {
        expect(r.error?.code).toBe('CPRC_TARGET_UNREACHABLE');
        expect(r.response).toBeUndefined();
      } else expect(r.response?.status).toBe(200);
    });
    expect(out.arrivalSpreadMs).toBeGreaterThanOrEqual(0);
  });

  it('a target that never answers: each request times out within the bound', async () => {
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, () => undefined);
    const url = await listen(server);
    const out = await burst(
      Array.from({ length: 3 }, () => ({ method: 'GET' as const, url: `${url}/hang` })),
      { ca, timeoutMs: 300 },
    );
    for (const r of out.results) {
      expect(r.error?.code).toBe('CPRC_TIMEOUT');
      expect(r.error?.message).toMatch(/timeout: no complete answer within 300 ms/);
    }
  });

  it('garbage instead of HTTP, and a wrong CA, are named', async () => {
    const tls = createTlsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (s) => {
      s.once('data', () => s.end('HELLO THERE\r\n\r\n'));
    });
    const url = await listen(tls);
    const out = await burst([{ method: 'GET', url: `${url}/x` }], { ca });
    expect(out.results[0]?.error?.code).toBe('CPRC_DRIVER');
    expect(out.results[0]?.error?.message).toMatch(/did not answer with valid HTTP/);

    const other = await createLoopbackPki();
    const err = await burst([{ method: 'GET', url: `${url}/x` }], { ca: other.ca.certPem }).catch(
      (e: unknown) => e,
    );
    expect((err as DriverTransportError).code).toBe('CPRC_TARGET_UNREACHABLE');
    expect((err as Error).message).toMatch(/TLS error/);
  });

  it('an answer beyond the response cap, declared or streamed, is refused as too large', async () => {
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.url === '/declared') {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
          res.end('x'.repeat(5000));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          for (let i = 0; i < 10; i++) res.write('y'.repeat(1000));
          res.end();
        }
      });
    });
    const url = await listen(server);
    const out = await burst(
      [
        { method: 'GET', url: `${url}/declared` },
        { method: 'GET', url: `${url}/chunked` },
      ],
      { ca, maxResponseBytes: 2048 },
    );
    for (const r of out.results) {
      expect(r.error?.code).toBe('CPRC_RESPONSE_TOO_LARGE');
      expect(r.error?.message).toMatch(/larger than the cap of 2048 bytes/);
    }
  });

  it('an answer that comes before the request is complete is kept and marked early', async () => {
    const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (_req, res) => {
      // answers on the head, before the body is complete
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"INVALID_STRUCTURE","message":"early"}}');
    });
    const url = await listen(server);
    const out = await burst([{ method: 'POST', url: `${url}/x`, body: '{"a":1}' }], { ca, settleMs: 200 });
    const r = out.results[0];
    expect(r?.response?.status).toBe(400);
    expect(r?.early).toBe(true);
    expect(out.released).toBe(0);
  });
});

describe('burst: HTTP/2 when the target chooses it', () => {
  /** An h2 server (HTTP/1.1 too) counting streams opened and requests complete. */
  async function h2Watching(settings: { maxConcurrentStreams?: number } = {}) {
    const seen = { heads: 0, complete: 0, protocols: new Set<string>() };
    const server = createSecureServer(
      { cert: pki.server.certPem, key: pki.server.keyPem, allowHTTP1: true, settings },
      (req, res) => {
        seen.heads += 1;
        seen.protocols.add(req.httpVersion);
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          seen.complete += 1;
          const text = JSON.stringify({ echo: Buffer.concat(chunks).toString('utf8') });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(text);
        });
      },
    );
    return { url: await listen(server), seen };
  }

  it('sends every request as a stream of one connection, held before END_STREAM until the release', async () => {
    const { url, seen } = await h2Watching();
    const recorder = new Recorder();
    let completeWhileHeld = -1;
    const out = await burst(
      Array.from({ length: N }, (_, i) =>
        i % 2
          ? { method: 'POST' as const, url: `${url}/race`, json: { racer: i } }
          : { method: 'GET' as const, url: `${url}/cpr/t${i}` },
      ),
      {
        ca,
        recorder,
        beforeRelease: async () => {
          await until(() => seen.heads === N);
          completeWhileHeld = seen.complete;
        },
      },
    );
    expect(out.protocol).toBe('h2');
    expect(seen.protocols).toEqual(new Set(['2.0']));
    expect(seen.heads).toBe(N);
    expect(completeWhileHeld).toBe(0);
    expect(seen.complete).toBe(N);
    expect(out.released).toBe(N);
    out.results.forEach((r, i) => {
      expect(r.error).toBeUndefined();
      expect(r.response?.status).toBe(200);
      expect(r.response?.json).toEqual({ echo: i % 2 ? JSON.stringify({ racer: i }) : '' });
      expect(r.response?.headers['content-type']).toBe('application/json');
    });
    expect(recorder.take()).toHaveLength(N);
  });

  it('keeps HTTP/1.1 when the target allows fewer concurrent streams than racers, or when asked', async () => {
    const { url, seen } = await h2Watching({ maxConcurrentStreams: 8 });
    const out = await burst(
      Array.from({ length: 12 }, () => ({ method: 'GET' as const, url: `${url}/x` })),
      { ca },
    );
    expect(out.protocol).toBe('http/1.1');
    expect(out.results.every((r) => r.response?.status === 200)).toBe(true);
    expect(seen.protocols).toEqual(new Set(['1.1']));
    const plain = await burst([{ method: 'GET', url: `${url}/x` }], { ca, http2: false });
    expect(plain.protocol).toBe('http/1.1');
  });
});

describe('races through the default drivers', () => {
  it('payee raceRetrieve: every racer read as retrieve reads it; an unreadable answer is an error, never a result', async () => {
    let served = 0;
    const { url } = await watching((_body, res) => {
      served += 1;
      const [status, body] =
        served === 1
          ? [200, { cpr_version: 'CPR-1.0' }]
          : [410, { error: { code: 'TOKEN_CONSUMED', message: 'used' } }];
      const text = JSON.stringify(body);
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(text);
    });
    const recorder = new Recorder();
    const http = new HttpClient({ ca, recorder, target: 'payee' });
    try {
      const payee = createHttpPayee({ base_url: url }, http);
      const race = await payee.raceRetrieve?.('tok', N);
      expect(race?.results.filter((r) => r.ok)).toHaveLength(1);
      expect(race?.results.filter((r) => !r.ok && r.error.code === 'TOKEN_CONSUMED')).toHaveLength(N - 1);
      expect(race?.inFlight).toBe(N);
      expect(race?.synchronisation).toBe('last byte, http/1.1');
      expect(recorder.take()).toHaveLength(N);

      const { url: broken } = await watching((_body, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('oops');
      });
      const err = await createHttpPayee({ base_url: broken }, http)
        .raceRetrieve?.('tok', 3)
        .catch((e: unknown) => e);
      expect(isProtocolError(err)).toBe(true);
      expect((err as Error).message).toMatch(/a server error \(HTTP 500\)/);
    } finally {
      await http.close();
    }
  });

  it('operator race: issue, renew and redeem bodies as the driver sends them; a racer without an answer ends the race', async () => {
    const bodies: Array<{ url?: string; body: string }> = [];
    const { url } = await watching((body, res) => {
      bodies.push({ body });
      res.writeHead(409, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"DUPLICATE_ID","message":"seen"}}');
    });
    const http = new HttpClient({ ca });
    try {
      const op = createHttpOperator({ base_url: url }, http);
      const race = await op.race?.([
        { op: 'issue', lockRequest: { request_id: 'r' } },
        { op: 'renew', cashpack: { pack_id: 'p' }, entry: { renewal_id: 'e' } },
        { op: 'redeem', cashpack: { pack_id: 'p' }, request: { redemption_id: 'd' } },
      ]);
      expect(race?.results.map((r) => [r.ok, r.status, r.error?.code])).toEqual([
        [false, 409, 'DUPLICATE_ID'],
        [false, 409, 'DUPLICATE_ID'],
        [false, 409, 'DUPLICATE_ID'],
      ]);
      expect(
        bodies
          .map((b) => JSON.parse(b.body))
          .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
      ).toEqual([
        { cashpack: { pack_id: 'p' }, redemption_request: { redemption_id: 'd' } },
        { cashpack: { pack_id: 'p' }, renewal_entry: { renewal_id: 'e' } },
        { request_id: 'r' },
      ]);
      const server = createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req) => {
        req.resume();
        req.on('end', () => req.socket.destroy());
      });
      const dead = await listen(server);
      const err = await createHttpOperator({ base_url: dead }, http)
        .race?.([{ op: 'issue', lockRequest: {} }])
        .catch((e: unknown) => e);
      expect((err as DriverTransportError).code).toBe('CPRC_TARGET_UNREACHABLE');
    } finally {
      await http.close();
    }
  });

  it('burstThrough: a target whose circuit is open ends the burst at once', async () => {
    const client = {
      burstOptions: { timeoutMs: 1000, maxResponseBytes: 1024 },
      circuit: () => ({ at: '2026-01-01T00:00:00.000Z', cause: 'connection refused', failures: 3 }),
    };
    const err = await burstThrough(client, [{ method: 'GET', url: 'https://127.0.0.1:1/x' }]).catch(
      (e: unknown) => e,
    );
    expect((err as DriverTransportError).code).toBe('CPRC_TARGET_UNREACHABLE');
    expect((err as Error).message).toMatch(/circuit open: .*stopped answering at 2026-01-01/);
  });

  it('raceFromBurst keeps the delivery figures and the racers in order', async () => {
    const { url } = await watching();
    const out = await burst(
      Array.from({ length: 4 }, (_, i) => ({ method: 'POST' as const, url, json: { i } })),
      { ca },
    );
    const race = raceFromBurst(out, (res) => (res.json as { echo: string }).echo);
    expect(race.results).toEqual([0, 1, 2, 3].map((i) => JSON.stringify({ i })));
    expect(race).toMatchObject({
      inFlight: 4,
      spreadMs: out.spreadMs,
      synchronisation: 'last byte, http/1.1',
    });
  });
});
