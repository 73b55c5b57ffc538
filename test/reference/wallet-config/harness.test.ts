/**
 * The reference wallet's HTTPS harness beyond what profile 3 defines, which the conformance suite
 * cannot observe: paths and methods that are no endpoint, its own bound on a request body, the 500
 * answer when the core fails, listening (the port asked, a port in use) and close(). The mutation
 * run judges this code by these tests (scripts/mutation-scopes.mjs).
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPki, type LoopbackPki } from '../../../src/loopback/tls.js';
import {
  createWalletCore,
  type ReferenceWallet,
  startReferenceWallet,
  startWalletHarness,
  type WalletCore,
} from '../../../src/reference/wallet/index.js';
import { createRecordingClient, type RecordingClient } from '../../_support/https.js';
import { context, cprFor, NOW } from '../../derivation/fixtures.js';

let pki: LoopbackPki;
let client: RecordingClient;
let wallet: ReferenceWallet;

beforeAll(async () => {
  pki = await createLoopbackPki();
  client = createRecordingClient({ ca: pki.ca.certPem });
  wallet = await startReferenceWallet({ tls: pki.server, trustedCaPems: [pki.ca.certPem], clock: () => NOW });
});
afterAll(async () => {
  await wallet?.close();
  await client?.close();
});

const MIB = 1024 * 1024;

/** A derive request that is valid, as text padded with spaces to exactly `bytes` bytes. */
function validBodyOfSize(bytes: number): string {
  const json = JSON.stringify({ cpr: cprFor('SEPA_CT'), context: context() });
  return `${json}${' '.repeat(bytes - Buffer.byteLength(json))}`;
}

/** A core recording how often it was closed, deriving with `derive`. */
function recordingCore(derive: WalletCore['derive']): WalletCore & { closes: number } {
  const core = {
    closes: 0,
    derive,
    close: async () => {
      core.closes += 1;
    },
  };
  return core;
}

/** A free TCP port on 127.0.0.1, held until released. */
async function takePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  return { port, release: () => new Promise<void>((resolve) => taken.close(() => resolve())) };
}

describe('paths and methods that are no endpoint', () => {
  it('answers 404 NOT_FOUND to another path, naming the endpoint', async () => {
    const base = wallet.harnessUrl.replace(/\/harness$/, '');
    for (const [method, path] of [
      ['POST', '/harness/nothing'],
      ['POST', '/harness/derive/'],
      ['POST', '/derive'],
      ['GET', '/'],
    ] as const) {
      const ex = await client.request(method, `${base}${path}`, method === 'POST' ? { json: {} } : {});
      expect(ex.status, path).toBe(404);
      expect(ex.headers['content-type']).toBe('application/json');
      expect(ex.body).toEqual({
        error: { code: 'NOT_FOUND', message: `no such path ${path}; post derivations to /harness/derive` },
      });
    }
  });

  it('answers 404 to a large body sent to another path, and serves the next request', async () => {
    const base = wallet.harnessUrl.replace(/\/harness$/, '');
    const ex = await client.request('POST', `${base}/harness/nothing`, { text: ' '.repeat(3 * MIB) });
    expect(ex.status).toBe(404);
    const next = await client.post(`${wallet.harnessUrl}/derive`, { cpr: cprFor('PIX'), context: context() });
    expect(next.status).toBe(200);
  });

  it('answers 405 INVALID_REQUEST with allow: POST to another method, whatever its body', async () => {
    for (const [method, opts] of [
      ['GET', {}],
      ['PUT', { json: { cpr: cprFor('SEPA_CT'), context: context() } }],
      ['DELETE', {}],
    ] as const) {
      const ex = await client.request(method, `${wallet.harnessUrl}/derive`, opts);
      expect(ex.status, method).toBe(405);
      expect(ex.headers.allow).toBe('POST');
      expect(ex.body).toEqual({
        error: { code: 'INVALID_REQUEST', message: `${method} is not allowed here; use POST` },
      });
    }
  });

  it('reads the path without its query', async () => {
    const ex = await client.post(`${wallet.harnessUrl}/derive?trace=1`, {
      cpr: cprFor('SEPA_CT'),
      context: context(),
    });
    expect(ex.status).toBe(200);
    expect((ex.body as { payment: { value: { amount: string } } }).payment.value.amount).toBe('1250');
  });
});

describe('the bound of its own on a request body (1 MiB)', () => {
  it('derives from a body of exactly 1 MiB and answers 413 INVALID_REQUEST to one byte more', async () => {
    const url = `${wallet.harnessUrl}/derive`;
    const at = await client.request('POST', url, { text: validBodyOfSize(MIB) });
    expect(at.status).toBe(200);
    const over = await client.request('POST', url, { text: validBodyOfSize(MIB + 1) });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      error: { code: 'INVALID_REQUEST', message: `the body is larger than ${MIB} bytes` },
    });
  });

  it('answers 400 INVALID_REQUEST, with its own message, to a body that is not JSON', async () => {
    const ex = await client.request('POST', `${wallet.harnessUrl}/derive`, { text: '{"cpr": ' });
    expect(ex.status).toBe(400);
    expect(ex.body).toEqual({
      error: {
        code: 'INVALID_REQUEST',
        message: 'the body is not json; send {cpr|uri, context} as application/json',
      },
    });
  });
});

describe('a core that fails', () => {
  it('answers 500 INTERNAL with the error, for an Error and for any other value thrown', async () => {
    for (const [thrown, message] of [
      [new Error('boom'), 'the wallet failed: boom'],
      ['kaput', 'the wallet failed: kaput'],
    ] as const) {
      const core = recordingCore(() => Promise.reject(thrown));
      const harness = await startWalletHarness(core, { tls: pki.server });
      try {
        const ex = await client.post(`${harness.harnessUrl}/derive`, {
          cpr: cprFor('SEPA_CT'),
          context: context(),
        });
        expect(ex.status).toBe(500);
        expect(ex.headers['content-type']).toBe('application/json');
        expect(ex.body).toEqual({ error: { code: 'INTERNAL', message } });
      } finally {
        await harness.close();
      }
    }
  });
});

describe('listening and closing', () => {
  it('listens on 127.0.0.1, on the port asked', async () => {
    const free = await takePort();
    await free.release();
    const harness = await startReferenceWallet({ tls: pki.server, trustedCaPems: [], port: free.port });
    try {
      expect(harness.harnessUrl).toBe(`https://127.0.0.1:${free.port}/harness`);
    } finally {
      await harness.close();
    }
  });

  it('refuses a port in use and closes its core', async () => {
    const held = await takePort();
    const core = recordingCore(() => Promise.reject(new Error('never called')));
    try {
      const err = await startWalletHarness(core, { tls: pki.server, port: held.port }).catch(
        (e: unknown) => e,
      );
      expect((err as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
      expect(core.closes).toBe(1);
    } finally {
      await held.release();
    }
  });

  it('close() stops the server and closes the core once, however often it is called', async () => {
    const inner = createWalletCore({ trustedCaPems: [], clock: () => NOW });
    const core = recordingCore(inner.derive);
    const harness = await startWalletHarness(core, { tls: pki.server });
    const url = `${harness.harnessUrl}/derive`;
    expect((await client.post(url, { cpr: cprFor('ACH'), context: context() })).status).toBe(200);
    const first = harness.close();
    expect(harness.close()).toBe(first);
    await first;
    expect(core.closes).toBe(1);
    await expect(client.post(url, { cpr: cprFor('ACH'), context: context() })).rejects.toThrow(
      'ECONNREFUSED',
    );
    await inner.close();
  });
});
