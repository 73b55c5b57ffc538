import type { AddressInfo } from 'node:net';
import { createServer as createNetServer, type Server as NetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  HttpClient,
  MAX_JSON_DEPTH,
  ProtocolError,
  parseJsonAnswer,
  readProfileAnswer,
  unreadableCause,
} from '../../src/drivers/http.js';
import { createHttpOperator } from '../../src/drivers/http-operator.js';
import { createHttpPayee, resolveRetrieval } from '../../src/drivers/http-payee.js';
import { createHttpWallet } from '../../src/drivers/http-wallet.js';
import { MAX_RECORDED_BODY_BYTES, Recorder } from '../../src/drivers/recorder.js';
import { DriverTransportError, isTransportError } from '../../src/drivers/types.js';
import type { RunConfig } from '../../src/generated/tool/run-config.js';
import { createCertificateAuthority } from '../../src/loopback/tls.js';
import { jsonTextDepth } from '../../src/model/util.js';
import { secretsOf } from '../../src/secrets/index.js';
import { json, loopbackPki, operatorSection, type Started, startServer } from '../runner/fixtures.js';

const BIG = 'x'.repeat(64 * 1024);

describe('HttpClient and the default HTTP drivers', () => {
  let server: Started;
  let garbage: NetServer;
  let garbageUrl: string;
  let deadUrl: string;
  let ca: string;
  const hung: Array<() => void> = [];

  beforeAll(async () => {
    ca = (await loopbackPki()).ca.certPem;
    server = await startServer((req, body, res) => {
      const url = new URL(req.url ?? '/', 'https://x');
      if (url.pathname === '/hang') {
        hung.push(() => res.destroy());
        return; // never answers
      }
      if (url.pathname === '/drip') {
        // an answer that never stops coming: a byte every 50 ms, each well inside the idle timers
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[');
        const drip = setInterval(() => res.write('0,'), 50);
        res.on('close', () => clearInterval(drip));
        hung.push(() => res.destroy());
        return;
      }
      if (url.pathname === '/big-declared') return json(res, 200, { big: BIG });
      if (url.pathname === '/big-chunked') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"big":"');
        for (let i = 0; i < 16; i++) res.write('y'.repeat(8192));
        res.end('"}');
        return;
      }
      if (url.pathname === '/echo') {
        return json(res, 200, {
          got: body,
          auth: req.headers.authorization ?? null,
          long: 'z'.repeat(20_000),
        });
      }
      if (url.pathname === '/cpr/plaintext') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('hello');
        return;
      }
      if (url.pathname.startsWith('/v1/cashpack/') && url.pathname.endsWith('/status')) {
        if (req.headers.authorization !== 'Bearer op-credential-secret') {
          return json(res, 403, { error: { code: 'FORBIDDEN', message: 'who are you' } });
        }
        return json(res, 404, { error: { code: 'PACK_UNKNOWN', message: 'unknown' } });
      }
      if (url.pathname === '/v1/cashpack/issue') {
        return json(res, 400, { error: { code: 'INVALID_REQUEST', message: `bad: ${body.slice(0, 10)}` } });
      }
      json(res, 200, { path: url.pathname });
    });
    garbage = createNetServer((socket) => {
      socket.on('data', () => socket.end('THIS IS NOT HTTP\r\n\r\n'));
    });
    await new Promise<void>((r) => garbage.listen(0, '127.0.0.1', r));
    garbageUrl = `http://127.0.0.1:${(garbage.address() as AddressInfo).port}`;
    const dead = createNetServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    deadUrl = `https://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise<void>((r) => dead.close(() => r()));
  });
  afterAll(async () => {
    for (const h of hung) h();
    await server.close();
    await new Promise<void>((r) => garbage.close(() => r()));
  });

  it('bounds an exchange by timeouts.request_ms: a silent target is a timeout error', async () => {
    const recorder = new Recorder();
    const http = new HttpClient({ ca, timeoutMs: 300, recorder });
    const err = await http.exchange({ method: 'GET', url: `${server.url}/hang` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as DriverTransportError).code).toBe('CPRC_TIMEOUT');
    expect((err as Error).message).toMatch(/timeout.*300 ms.*timeouts\.request_ms/);
    expect(recorder.take()[0]?.error).toMatch(/timeout/);
    await http.close();
  });

  it('bounds the whole exchange, not only each wait: an answer that keeps dripping is a timeout error', async () => {
    const recorder = new Recorder();
    const http = new HttpClient({ ca, timeoutMs: 400, recorder });
    const started = Date.now();
    const err = await http.exchange({ method: 'GET', url: `${server.url}/drip` }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as DriverTransportError).code).toBe('CPRC_TIMEOUT');
    expect((err as Error).message).toMatch(/timeout.*400 ms/);
    // ended by the deadline (a byte came every 50 ms: undici's idle timers never fire)
    expect(Date.now() - started).toBeLessThan(3000);
    expect(recorder.take()[0]?.error).toMatch(/timeout/);
    await http.close();
  });

  it('refuses a body above limits.max_response_bytes, declared or streamed, naming the cap', async () => {
    const http = new HttpClient({ ca, maxResponseBytes: 32 * 1024 });
    for (const path of ['/big-declared', '/big-chunked']) {
      const err = await http
        .exchange({ method: 'GET', url: `${server.url}${path}` })
        .catch((e: unknown) => e);
      expect((err as DriverTransportError).code).toBe('CPRC_RESPONSE_TOO_LARGE');
      expect((err as Error).message).toMatch(/cap of 32768 bytes \(limits\.max_response_bytes/);
    }
    const ok = await http.exchange({ method: 'GET', url: `${server.url}/small` });
    expect(ok.json).toEqual({ path: '/small' });
    await http.close();
  });

  it('names a dead target (connection refused), a TLS failure and a target that sends garbage', async () => {
    const http = new HttpClient({ ca, timeoutMs: 2000 });
    const refused = await http.exchange({ method: 'GET', url: deadUrl }).catch((e: unknown) => e);
    expect((refused as DriverTransportError).code).toBe('CPRC_TARGET_UNREACHABLE');
    expect((refused as Error).message).toMatch(/connection refused/);

    const junk = await http.exchange({ method: 'GET', url: garbageUrl }).catch((e: unknown) => e);
    expect(junk).toBeInstanceOf(DriverTransportError);
    expect((junk as Error).message).toMatch(/valid HTTP|closed by the target/);
    await http.close();

    const other = await createCertificateAuthority({ commonName: 'some other CA' });
    const wrongCa = new HttpClient({ ca: other.certPem, timeoutMs: 2000 });
    const tls = await wrongCa.exchange({ method: 'GET', url: `${server.url}/x` }).catch((e: unknown) => e);
    expect((tls as Error).message).toMatch(/TLS error/);
    expect((tls as Error).message).toMatch(/tls\.ca_file/);
    await wrongCa.close();
  });

  it('records exchanges with secrets redacted and bodies truncated to 8 KiB', async () => {
    const config = { operator: operatorSection('https://127.0.0.1:1') } as unknown as RunConfig;
    const recorder = new Recorder(secretsOf(config));
    const http = new HttpClient({ ca, recorder });
    await http.exchange({
      method: 'POST',
      url: `${server.url}/echo`,
      headers: { authorization: 'Bearer op-credential-secret' },
      json: {
        redeemer: { identity_token: 'idtoken-sufficient-secret' },
        note: 'carries funded-credential-secret inline',
      },
    });
    const [e] = recorder.take();
    const all = JSON.stringify(e);
    expect(all).not.toContain('op-credential-secret');
    expect(all).not.toContain('idtoken-sufficient-secret');
    expect(all).not.toContain('funded-credential-secret');
    expect(e?.request_headers?.authorization).toBe('[redacted]');
    expect(e?.request_body).toContain('[redacted]');
    expect(Buffer.byteLength(e?.response_body ?? '')).toBeLessThan(MAX_RECORDED_BODY_BYTES + 100);
    expect(e?.response_body).toMatch(/…\[truncated \d+ bytes\]$/);
    expect(e?.status).toBe(200);
    await http.close();
  });

  it('collects only the private member of a JWK as a secret, so "Ed25519" stays readable', () => {
    const config = { operator: operatorSection('https://127.0.0.1:1') } as unknown as RunConfig;
    const secrets = secretsOf(config);
    const jwk = (
      config.operator as unknown as { principals: { funded: { private_key_jwk: Record<string, string> } } }
    ).principals.funded.private_key_jwk;
    expect(secrets).toContain(jwk.d);
    expect(secrets).not.toContain('Ed25519');
    expect(secrets).not.toContain('OKP');
    expect(secrets).not.toContain(jwk.x);
  });

  it('the payee driver resolves reference and inline URIs and reports answers as data', async () => {
    expect(resolveRetrieval('abc', 'https://h:1/')).toEqual({ url: 'https://h:1/cpr/abc' });
    expect(
      resolveRetrieval(`cpr://tok?endpoint=${encodeURIComponent('https://p:2/base')}`, 'https://h:1'),
    ).toEqual({
      url: 'https://p:2/base/cpr/tok',
    });
    expect(
      resolveRetrieval(`cpr://tok?endpoint=${encodeURIComponent('https://p:2/cpr/tok')}`, 'https://h:1'),
    ).toEqual({
      url: 'https://p:2/cpr/tok',
    });
    const inline = Buffer.from(JSON.stringify({ cpr_version: 'CPR-1.0' })).toString('base64url');
    expect(resolveRetrieval(`cpr://inline/${inline}`, 'https://h:1')).toEqual({
      inline: { cpr_version: 'CPR-1.0' },
    });
    expect(resolveRetrieval('cpr://tok', 'https://h:1')).toHaveProperty('invalid');

    const http = new HttpClient({ ca });
    const payee = createHttpPayee({ base_url: server.url }, http);
    // a body that is not JSON is neither a CPR nor a refusal: a protocol error naming the cause
    const notJson = await payee.retrieve('plaintext').catch((e: unknown) => e);
    expect(notJson).toBeInstanceOf(ProtocolError);
    expect((notJson as Error).message).toMatch(
      /cpr\/plaintext: protocol error: not a profile answer: the body is not JSON/,
    );
    const served = await payee.retrieve('tok123');
    expect(served).toMatchObject({ ok: true, status: 200, cpr: { path: '/cpr/tok123' } });
    const r = await payee.retrieve(`cpr://inline/${inline}`);
    expect(r).toEqual({ ok: true, cpr: { cpr_version: 'CPR-1.0' } });
    expect(payee.retrievePlainHttp).toBeUndefined();
    expect(payee.harness).toBeUndefined();
    await http.close();
  });

  it('the operator driver sends the Bearer credential and reads the profile error body', async () => {
    const http = new HttpClient({ ca });
    const op = createHttpOperator({ base_url: server.url }, http);
    const forbidden = await op.status('p1');
    expect(forbidden).toMatchObject({ ok: false, status: 403, error: { code: 'FORBIDDEN', status: 403 } });
    const unknown = await op.status('p1', 'op-credential-secret');
    expect(unknown).toMatchObject({
      ok: false,
      status: 404,
      error: { code: 'PACK_UNKNOWN', message: 'unknown' },
    });
    const raw = await op.rawPost?.('issue', '{not json');
    expect(raw).toMatchObject({ ok: false, status: 400, error: { code: 'INVALID_REQUEST' } });
    expect(op.harness).toBeUndefined();
    await http.close();
  });
});

describe('redaction keeps evidence exact', () => {
  it('leaves a body without secret members byte for byte (number literals, spacing)', () => {
    const recorder = new Recorder(['s3cret-value']);
    const body = '{ "amount": 12345678901234567890, "note":"s3cret-value" }';
    const e = recorder.record({ kind: 'http', response_body: body, duration_ms: 0 });
    expect(e.response_body).toBe('{ "amount": 12345678901234567890, "note":"[redacted]" }');
    const jwk = recorder.record({
      kind: 'http',
      request_body: '{"jwk":{"kty":"OKP","d":"abcd"}}',
      duration_ms: 0,
    });
    expect(jwk.request_body).toBe('{"jwk":{"kty":"OKP","d":"[redacted]"}}');
  });
});

describe('payee plain-HTTP probe and wallet HTTP driver', () => {
  it('retrievePlainHttp reports nothing answering as answered: false, and a served body as answered: true', async () => {
    const { ca } = await loopbackPki();
    const plain = await startServer((_req, _body, res) => json(res, 200, { cpr_version: 'CPR-1.0' }), true);
    const dead = createNetServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const deadUrl = `http://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise<void>((r) => dead.close(() => r()));
    const http = new HttpClient({ ca: ca.certPem, timeoutMs: 2000 });
    try {
      const served = createHttpPayee({ base_url: 'https://127.0.0.1:1', plain_http_url: plain.url }, http);
      expect(await served.retrievePlainHttp?.('tok')).toMatchObject({
        answered: true,
        status: 200,
        servedJson: { cpr_version: 'CPR-1.0' },
      });
      const refused = createHttpPayee({ base_url: 'https://127.0.0.1:1', plain_http_url: deadUrl }, http);
      const r = await refused.retrievePlainHttp?.('tok');
      expect(r).toMatchObject({ answered: false });
      if (r && !r.answered) expect(r.reason).toMatch(/connection refused/);
    } finally {
      await http.close();
      await plain.close();
    }
  });

  it('the HTTP wallet driver reads {payment} and {error} answers and throws on any other shape', async () => {
    const { ca } = await loopbackPki();
    let answer: { status: number; body: unknown } = { status: 200, body: {} };
    const server = await startServer((_req, _body, res) => json(res, answer.status, answer.body));
    const http = new HttpClient({ ca: ca.certPem });
    try {
      const wallet = createHttpWallet(`${server.url}/harness`, http);
      const input = { cpr: {}, context: { payer: {}, rail: {}, authorization: {} } };
      answer = { status: 200, body: { payment: { id: 'p1' } } };
      expect(await wallet.derive(input)).toEqual({ ok: true, payment: { id: 'p1' }, status: 200 });
      answer = { status: 422, body: { error: { code: 'EXPIRED', message: 'too late' } } };
      expect(await wallet.derive(input)).toMatchObject({
        ok: false,
        error: { code: 'EXPIRED', message: 'too late', status: 422 },
      });
      // any other shape is no profile answer: a transport/protocol error, never a rejection
      answer = { status: 200, body: { result: 'ok' } };
      await expect(wallet.derive(input)).rejects.toThrow(/neither a "payment" nor an "error"/);
    } finally {
      await http.close();
      await server.close();
    }
  });
});

describe('reading hostile answers: classification, deep JSON, circuit breaker', () => {
  let server: Started;
  let ca: string;
  let deadUrl: string;
  const hung: Array<() => void> = [];
  const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;

  beforeAll(async () => {
    ca = (await loopbackPki()).ca.certPem;
    server = await startServer((req, _body, res) => {
      const path = new URL(req.url ?? '/', 'https://x').pathname;
      const send = (
        status: number,
        type: string | undefined,
        body: string,
        extra: Record<string, string> = {},
      ) => {
        res.writeHead(status, { ...(type ? { 'content-type': type } : {}), ...extra });
        res.end(body);
      };
      if (path === '/hang') {
        hung.push(() => res.destroy());
        return;
      }
      if (path === '/ok') return send(200, 'application/json; charset=utf-8', '{"a":1}');
      if (path === '/bom') return send(200, 'application/json', '\uFEFF{"a":1}');
      if (path === '/error')
        return send(410, 'application/json', '{"error":{"code":"TOKEN_CONSUMED","message":"used"}}');
      if (path === '/redirect')
        return send(302, 'application/json', '{"error":{"code":"X"}}', { location: 'http://127.0.0.1:1/x' });
      if (path === '/5xx')
        return send(503, 'application/json', '{"error":{"code":"TOKEN_CONSUMED","message":"x"}}');
      if (path === '/html') return send(200, 'text/html', '{"a":1}');
      if (path === '/html-error') return send(404, 'text/html', '<h1>not found</h1>');
      if (path === '/no-type') return send(200, undefined, '{"a":1}');
      if (path === '/not-json') return send(200, 'application/json', '<html>oops</html>');
      if (path === '/truncated')
        return send(200, 'application/json', '{"cpr_version":"CPR-1.0","payee":{"dis');
      if (path === '/empty') return send(200, 'application/json', '');
      if (path === '/deep') return send(200, 'application/json', deep);
      if (path === '/gzip') return send(200, 'application/json', 'xxxx', { 'content-encoding': 'gzip' });
      if (path === '/shape') return send(400, 'application/json', '{"message":"no error object"}');
      if (path === '/dup') {
        res.writeHead(200, [
          ['content-type', 'application/json'],
          ['content-type', 'text/html'],
        ]);
        res.end('{"a":1}');
        return;
      }
      send(404, 'application/json', '{"error":{"code":"NOPE","message":"no"}}');
    });
    const dead = createNetServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    deadUrl = `https://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise<void>((r) => dead.close(() => r()));
  });
  afterAll(async () => {
    for (const h of hung) h();
    await server.close();
  });

  it('unreadableCause names every kind of answer the suite cannot read; profile answers are readable', async () => {
    const http = new HttpClient({ ca });
    const get = (p: string) => http.exchange({ method: 'GET', url: `${server.url}${p}` });
    expect(unreadableCause(await get('/ok'))).toBeUndefined();
    expect(unreadableCause(await get('/error'))).toBeUndefined();
    expect(unreadableCause(await get('/bom'))).toBeUndefined(); // a reader may ignore a BOM
    const causes: Array<[string, RegExp]> = [
      ['/redirect', /^a redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:1\/x\); the profile has no redirects/],
      ['/5xx', /^a server error \(HTTP 503\)/],
      [
        '/html',
        /^wrong content type "text\/html": a JSON answer of the profile is served as application\/json/,
      ],
      ['/html-error', /not JSON/],
      ['/no-type', /^wrong content type \(none\)/],
      ['/dup', /wrong content type "application\/json, text\/html"/],
      ['/not-json', /^the body is not JSON \(/],
      ['/truncated', /^the JSON is truncated: the body ends before the JSON value does/],
      ['/empty', /^the body is empty/],
      ['/deep', /^the JSON nests 100000 levels deep, beyond the suite's limit of 512/],
      ['/gzip', /Content-Encoding "gzip" that the suite did not ask for/],
      ['/shape', /^wrong shape: an HTTP 400 answer without the profile error object/],
    ];
    for (const [path, cause] of causes) {
      const res = await get(path);
      expect(unreadableCause(res), path).toMatch(cause);
      const err = (() => {
        try {
          readProfileAnswer(res);
          return undefined;
        } catch (e) {
          return e;
        }
      })();
      expect(err, path).toBeInstanceOf(ProtocolError);
      expect(isTransportError(err), path).toBe(true); // the suite library makes it an error result
      expect((err as Error).message, path).toMatch(
        new RegExp(`GET ${server.url}${path}: protocol error: not a profile answer: `),
      );
    }
    // the content type can be left to a check of its own (CPR retrieval)
    expect(unreadableCause(await get('/html'), { contentType: false })).toBeUndefined();
    expect(readProfileAnswer(await get('/error'))).toMatchObject({
      ok: false,
      status: 410,
      error: { code: 'TOKEN_CONSUMED' },
    });
    expect(readProfileAnswer(await get('/ok'))).toMatchObject({ ok: true, status: 200, json: { a: 1 } });
    await http.close();
  });

  it('deep JSON: depth found without recursion, evidence kept, redaction safe at any depth', async () => {
    expect(jsonTextDepth(deep)).toBe(100_000);
    expect(jsonTextDepth('{"a":"[[[[","b":[1,[2]]}')).toBe(3);
    expect(parseJsonAnswer(`${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}`)).toHaveProperty(
      'json',
    );
    const recorder = new Recorder(['s3cret-value']);
    const http = new HttpClient({ ca, recorder });
    const res = await http.exchange({ method: 'GET', url: `${server.url}/deep` });
    expect(res.json).toBeUndefined();
    expect(res.jsonError).toMatch(/nests 100000 levels/);
    const [e] = recorder.take();
    expect(e?.response_body?.startsWith('[[[[')).toBe(true);
    expect(e?.response_body).toMatch(/…\[truncated \d+ bytes\]$/);
    await http.close();
    // a deep body naming a secret member is redacted textually (no recursion, no overflow)
    const hostile = `${'['.repeat(50_000)}{"password":"hunter2","x":"s3cret-value"}${']'.repeat(50_000)}`;
    const red = recorder.record({
      kind: 'http',
      method: 'GET',
      url: 'https://x/',
      response_body: hostile,
      duration_ms: 1,
    });
    expect(red.response_body).not.toContain('hunter2');
    expect(red.response_body).not.toContain('s3cret-value');
  });

  it('circuit breaker: after 3 exchanges without an answer the origin fails at once, naming when and how it died', async () => {
    const recorder = new Recorder();
    const http = new HttpClient({ ca, timeoutMs: 200, recorder, target: 'payee' });
    for (let i = 0; i < 3; i++) {
      const err = await http.exchange({ method: 'GET', url: `${server.url}/hang` }).catch((e: unknown) => e);
      expect((err as DriverTransportError).code).toBe('CPRC_TIMEOUT');
    }
    const started = Date.now();
    const err = await http.exchange({ method: 'GET', url: `${server.url}/ok` }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(150);
    expect(err).toBeInstanceOf(DriverTransportError);
    expect((err as DriverTransportError).code).toBe('CPRC_TARGET_UNREACHABLE');
    expect((err as Error).message).toMatch(
      new RegExp(
        `circuit open: payee \\(${server.url.replace(/\./g, '\\.')}\\) stopped answering at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z \\(timeout: no complete answer within 200 ms`,
      ),
    );
    expect(http.circuit(`${server.url}/anything`)?.failures).toBe(3);
    expect(recorder.take().at(-1)?.error).toMatch(/^circuit open/);
    // another origin has its own circuit; refused connections count too
    for (let i = 0; i < 3; i++) await http.exchange({ method: 'GET', url: deadUrl }).catch(() => undefined);
    expect(
      (await http.exchange({ method: 'GET', url: deadUrl }).catch((e: unknown) => e)) as Error,
    ).toHaveProperty('message', expect.stringMatching(/circuit open: payee .*\(connection refused\)/));
    // resetCircuits closes every circuit, as a new client would have them
    http.resetCircuits();
    expect(http.circuit(`${server.url}/anything`)).toBeUndefined();
    expect(http.circuit(deadUrl)).toBeUndefined();
    const after = await http.exchange({ method: 'GET', url: `${server.url}/ok` });
    expect(after.status).toBe(200);
    await http.close();
  });

  it('circuit breaker: an answer resets the count; garbage and oversize answers never open it', async () => {
    const http = new HttpClient({ ca, timeoutMs: 200, maxResponseBytes: 4 });
    for (let round = 0; round < 3; round++) {
      await http.exchange({ method: 'GET', url: `${server.url}/hang` }).catch(() => undefined);
      await http.exchange({ method: 'GET', url: `${server.url}/hang` }).catch(() => undefined);
      await http.exchange({ method: 'GET', url: `${server.url}/error` }).catch(() => undefined); // oversize: an answer
    }
    expect(http.circuit(server.url)).toBeUndefined();
    const off = new HttpClient({ ca, timeoutMs: 100, breakerThreshold: 0 });
    for (let i = 0; i < 4; i++) await off.exchange({ method: 'GET', url: deadUrl }).catch(() => undefined);
    expect(off.circuit(deadUrl)).toBeUndefined();
    await Promise.all([http.close(), off.close()]);
  });
});
