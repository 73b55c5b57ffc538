// The HTTP wallet driver (profile section 3): a profile answer is read as a payment or a
// rejection; anything else (not JSON, truncated, a redirect, a server error, another media type,
// a wrong shape, a status that does not go with its code) is a transport/protocol error naming
// the cause, never a rejection.
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../src/drivers/http.js';
import {
  createHttpWallet,
  isWellFormedDeriveRequest,
  readDeriveAnswer,
} from '../../src/drivers/http-wallet.js';
import { DriverTransportError, type WalletDriver } from '../../src/drivers/types.js';
import { json, loopbackPki, type Started, startServer } from '../runner/fixtures.js';

const context = { payer: { id: 'p' }, rail: { execution_id: 'e' }, authorization: { t: 1 } };
const wellFormed = { cpr: { cpr_version: 'CPR-1.0' }, context };

let answer: (res: ServerResponse) => void = (res) => json(res, 200, { payment: { id: 'p1' } });
let server: Started;
let http: HttpClient;
let wallet: WalletDriver;

beforeAll(async () => {
  const { ca } = await loopbackPki();
  server = await startServer((_req, _body, res) => answer(res));
  http = new HttpClient({ ca: ca.certPem, timeoutMs: 5000 });
  wallet = createHttpWallet(`${server.url}/harness`, http);
});
afterAll(async () => {
  await http.close();
  await server.close();
});

function raw(status: number, headers: Record<string, string>, body: string) {
  return (res: ServerResponse) => {
    res.writeHead(status, headers);
    res.end(body);
  };
}

describe('HTTP wallet driver', () => {
  it('reads a payment and each profile refusal with its status', async () => {
    answer = (res) => json(res, 200, { payment: { id: 'p1' } });
    expect(await wallet.derive(wellFormed)).toEqual({ ok: true, payment: { id: 'p1' }, status: 200 });
    for (const code of [
      'EXPIRED',
      'INVALID_VERSION',
      'INVALID_STRUCTURE',
      'UNSUPPORTED_RAIL',
      'AMOUNT_REQUIRED',
      'TOKEN_REJECTED',
    ]) {
      answer = (res) => json(res, 422, { error: { code, message: 'no' } });
      expect(await wallet.derive(wellFormed)).toMatchObject({
        ok: false,
        error: { code, message: 'no', status: 422 },
      });
    }
    // INVALID_REQUEST is a profile answer to a malformed harness request
    answer = (res) => json(res, 400, { error: { code: 'INVALID_REQUEST', message: 'no context' } });
    const malformed = { cpr: {} } as unknown as Parameters<WalletDriver['derive']>[0];
    expect(await wallet.derive(malformed)).toMatchObject({
      ok: false,
      error: { code: 'INVALID_REQUEST', status: 400 },
    });
  });

  const garbage: [string, (res: ServerResponse) => void, RegExp][] = [
    ['a body that is not JSON', raw(422, { 'content-type': 'application/json' }, 'EXPIRED'), /not JSON/],
    [
      'a truncated JSON body',
      raw(422, { 'content-type': 'application/json' }, '{"error":{"code":"EXP'),
      /not JSON/,
    ],
    ['an empty body', raw(422, { 'content-type': 'application/json', 'content-length': '0' }, ''), /empty/],
    [
      'a 302 redirect',
      raw(302, { location: 'https://127.0.0.1:1/x', 'content-length': '0' }, ''),
      /redirect \(HTTP 302 to https:\/\/127\.0\.0\.1:1\/x\)/,
    ],
    ['a 500', (res) => json(res, 500, { error: { code: 'EXPIRED', message: 'x' } }), /HTTP 500/],
    [
      'a 404',
      (res) => json(res, 404, { error: { code: 'EXPIRED', message: 'x' } }),
      /HTTP 404, which is none of 200, 400 and 422/,
    ],
    [
      'text/html',
      raw(422, { 'content-type': 'text/html' }, JSON.stringify({ error: { code: 'EXPIRED', message: 'x' } })),
      /content type "text\/html"/,
    ],
    [
      'no content type',
      raw(422, {}, JSON.stringify({ error: { code: 'EXPIRED', message: 'x' } })),
      /content type \(none\)/,
    ],
    [
      '200 without a payment',
      (res) => json(res, 200, { result: 'ok' }),
      /neither a "payment" nor an "error"/,
    ],
    ['200 with a payment array', (res) => json(res, 200, { payment: [] }), /not an object/],
    ['a payment with 422', (res) => json(res, 422, { payment: { id: 'p' } }), /a payment with HTTP 422/],
    ['both payment and error', (res) => json(res, 200, { payment: {}, error: { code: 'EXPIRED' } }), /both/],
    ['422 without a code', (res) => json(res, 422, { error: { message: 'x' } }), /without a string "code"/],
    [
      '422 with a code of no harness',
      (res) => json(res, 422, { error: { code: 'REQUEST_EXPIRED', message: 'x' } }),
      /REQUEST_EXPIRED/,
    ],
    [
      '400 where 422 is due',
      (res) => json(res, 400, { error: { code: 'EXPIRED', message: 'x' } }),
      /HTTP 400 with EXPIRED; EXPIRED is answered with HTTP 422/,
    ],
    [
      'INVALID_REQUEST to a well-formed request',
      (res) => json(res, 400, { error: { code: 'INVALID_REQUEST', message: 'x' } }),
      /well-formed harness request/,
    ],
    ['a JSON array', (res) => json(res, 422, [1]), /not a JSON object/],
  ];
  for (const [what, handler, cause] of garbage) {
    it(`throws a protocol error naming the cause on ${what}, never a rejection`, async () => {
      answer = handler;
      const err = await wallet.derive(wellFormed).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DriverTransportError);
      expect((err as Error).message).toMatch(/not a profile answer/);
      expect((err as Error).message).toMatch(cause);
    });
  }
});

describe('readDeriveAnswer / isWellFormedDeriveRequest', () => {
  it('tells a well-formed harness request from a malformed one (profile 3)', () => {
    expect(isWellFormedDeriveRequest(wellFormed)).toBe(true);
    expect(isWellFormedDeriveRequest({ uri: 'cpr://x', context })).toBe(true);
    for (const bad of [
      null,
      { cpr: {} },
      { cpr: {}, context: 'x' },
      { cpr: {}, context: { payer: {}, rail: {} } },
      { context },
      { cpr: {}, uri: 'cpr://x', context },
      { cpr: 'x', context },
      { cpr: [], context },
      { uri: 1, context },
    ]) {
      expect(isWellFormedDeriveRequest(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('on stdio (no status) reads the same shapes and refuses the same garbage', () => {
    const ctx = { requestWellFormed: true, who: 'wallet command "w"' };
    expect(readDeriveAnswer({ payment: { id: 'x' } }, ctx)).toEqual({ ok: true, payment: { id: 'x' } });
    expect(readDeriveAnswer({ error: { code: 'EXPIRED', message: 'm' } }, ctx)).toMatchObject({
      ok: false,
      error: { code: 'EXPIRED', message: 'm' },
    });
    expect(() => readDeriveAnswer({ expired: true }, ctx)).toThrow(
      /wallet command "w" gave an answer that is not a profile answer/,
    );
    expect(() => readDeriveAnswer({ error: { code: 'INVALID_REQUEST', message: 'm' } }, ctx)).toThrow(
      /well-formed/,
    );
    expect(
      readDeriveAnswer(
        { error: { code: 'INVALID_REQUEST', message: 'm' } },
        { ...ctx, requestWellFormed: false },
      ),
    ).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
  });
});
