/**
 * The reference wallet's CPR fetcher (`createHttpsCprFetcher`) and its own configuration: the
 * https guard of its own (derivePayment refuses a plain-http endpoint before it), the size bound,
 * the timeouts and their defaults, the CAs it trusts, the request it sends, and close(). The
 * conformance suite runs the default stack and cannot see these; the mutation run judges them by
 * these tests (scripts/mutation-scopes.mjs). The undici client is wrapped to record the options
 * the fetcher gives it (the defaults would take seconds, or a publicly trusted payee, to observe).
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLoopbackPki, type LoopbackPki } from '../../../src/loopback/tls.js';
import { createHttpsCprFetcher, DerivationFailure } from '../../../src/reference/wallet/index.js';

const recorded = vi.hoisted(() => ({ agents: [] as unknown[], requests: [] as unknown[] }));

vi.mock('undici', async (importOriginal) => {
  const real = await importOriginal<typeof import('undici')>();
  class RecordingAgent extends real.Agent {
    constructor(options?: ConstructorParameters<typeof real.Agent>[0]) {
      recorded.agents.push(options);
      super(options);
    }
  }
  const request = ((url: Parameters<typeof real.request>[0], options: Parameters<typeof real.request>[1]) => {
    recorded.requests.push(options);
    return real.request(url, options);
  }) as typeof real.request;
  return { ...real, Agent: RecordingAgent, request };
});

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** An HTTPS payee on 127.0.0.1 answering every request with `handler`; `seen` records each request. */
interface TestPayee {
  url: string;
  seen: { method: string | undefined; accept: string | undefined; path: string | undefined }[];
  close(): Promise<void>;
}

let pki: LoopbackPki;
const payees: TestPayee[] = [];

beforeAll(async () => {
  pki = await createLoopbackPki();
});
afterAll(async () => {
  for (const p of payees) await p.close();
});

async function startPayee(handler: Handler, plain = false): Promise<TestPayee> {
  const seen: TestPayee['seen'] = [];
  const listener: Handler = (req, res) => {
    seen.push({ method: req.method, accept: req.headers.accept, path: req.url });
    handler(req, res);
  };
  const server = plain
    ? createHttpServer(listener)
    : createHttpsServer({ cert: pki.server.certPem, key: pki.server.keyPem }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const payee: TestPayee = {
    url: `${plain ? 'http' : 'https'}://127.0.0.1:${port}/cpr/abc`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
  payees.push(payee);
  return payee;
}

/** A payee answering `status` with `body` (text, sent as is). */
function serving(body: string, status = 200): Promise<TestPayee> {
  return startPayee((_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(body);
  });
}

/** A JSON document (one string) of exactly `bytes` bytes. */
function jsonOfSize(bytes: number): string {
  return `"${'a'.repeat(bytes - 2)}"`;
}

/** The DerivationFailure `promise` rejects with (fails the test if it resolves or rejects otherwise). */
async function failureOf(promise: Promise<unknown>): Promise<DerivationFailure> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(DerivationFailure);
  return err as DerivationFailure;
}

function trusted(options: Parameters<typeof createHttpsCprFetcher>[0] = {}) {
  return createHttpsCprFetcher({ trustedCaPems: [pki.ca.certPem], ...options });
}

describe('createHttpsCprFetcher', () => {
  it('retrieves with GET, asking for application/json, and resolves with the parsed body', async () => {
    const payee = await serving('{"cpr_version":"CPR-1.0"}');
    const fetcher = trusted();
    try {
      expect(await fetcher.fetchCpr(payee.url)).toEqual({ cpr_version: 'CPR-1.0' });
      expect(payee.seen).toEqual([{ method: 'GET', accept: 'application/json', path: '/cpr/abc' }]);
    } finally {
      await fetcher.close();
    }
  });

  it('never sends a request to an http url: TOKEN_REJECTED (its own guard, spec 5 rule 4)', async () => {
    const plain = await startPayee((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"cpr_version":"CPR-1.0"}');
    }, true);
    const fetcher = trusted();
    try {
      const failure = await failureOf(fetcher.fetchCpr(plain.url));
      expect(failure.code).toBe('TOKEN_REJECTED');
      expect(failure.message).toBe(
        `the retrieval url ${new URL(plain.url).origin} is not https; a cpr token is only sent over tls (spec 5 rule 4)`,
      );
      expect(plain.seen).toEqual([]);
    } finally {
      await fetcher.close();
    }
  });

  it('refuses a payee that answers anything but 200: TOKEN_REJECTED naming the status', async () => {
    const payee = await serving('{"cpr_version":"CPR-1.0"}', 201);
    const fetcher = trusted();
    try {
      const failure = await failureOf(fetcher.fetchCpr(payee.url));
      expect(failure.code).toBe('TOKEN_REJECTED');
      expect(failure.message).toContain('status 201');
    } finally {
      await fetcher.close();
    }
  });

  it('refuses a body that is not JSON: INVALID_STRUCTURE (the reference choice of two free codes)', async () => {
    const payee = await serving('{"cpr_version": ');
    const fetcher = trusted();
    try {
      const failure = await failureOf(fetcher.fetchCpr(payee.url));
      expect(failure.code).toBe('INVALID_STRUCTURE');
      expect(failure.message).toBe(
        `the payee at ${new URL(payee.url).origin} answered a body that is not json`,
      );
    } finally {
      await fetcher.close();
    }
  });

  it('takes a body of exactly 1 MiB by default and refuses one byte more (TOKEN_REJECTED)', async () => {
    const mib = 1024 * 1024;
    const at = await serving(jsonOfSize(mib));
    const over = await serving(jsonOfSize(mib + 1));
    const fetcher = trusted();
    try {
      expect(((await fetcher.fetchCpr(at.url)) as string).length).toBe(mib - 2);
      const failure = await failureOf(fetcher.fetchCpr(over.url));
      expect(failure.code).toBe('TOKEN_REJECTED');
      expect(failure.message).toBe(
        `the payee at ${new URL(over.url).origin} answered more than ${mib} bytes; a cpr is far smaller`,
      );
    } finally {
      await fetcher.close();
    }
  });

  it('honours maxBytes, at exactly its value, over several chunks', async () => {
    const chunked = (bytes: number) =>
      startPayee((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const text = jsonOfSize(bytes);
        res.write(text.slice(0, 20));
        setTimeout(() => res.end(text.slice(20)), 20);
      });
    const at = await chunked(64);
    const over = await chunked(65);
    const fetcher = trusted({ maxBytes: 64 });
    try {
      expect(await fetcher.fetchCpr(at.url)).toBe('a'.repeat(62));
      const failure = await failureOf(fetcher.fetchCpr(over.url));
      expect(failure.code).toBe('TOKEN_REJECTED');
      expect(failure.message).toContain('more than 64 bytes');
    } finally {
      await fetcher.close();
    }
  });

  it('gives up on a payee that sends no headers, or no body, within timeoutMs', async () => {
    const silent = await startPayee(() => {
      // never answers
    });
    const stalled = await startPayee((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"cpr_version":');
      // the body never ends
    });
    const fetcher = trusted({ timeoutMs: 200 });
    try {
      for (const payee of [silent, stalled]) {
        const started = Date.now();
        await expect(fetcher.fetchCpr(payee.url)).rejects.toThrow();
        expect(Date.now() - started).toBeLessThan(5000);
      }
    } finally {
      await fetcher.close();
    }
  });

  it('sets 10 s on the connection, the headers and the body by default, and trusts the CAs given', () => {
    recorded.agents.length = 0;
    recorded.requests.length = 0;
    createHttpsCprFetcher();
    createHttpsCprFetcher({ trustedCaPems: [pki.ca.certPem], timeoutMs: 1234 });
    expect(recorded.agents).toEqual([
      { connect: { ca: undefined, timeout: 10_000 } },
      { connect: { ca: [pki.ca.certPem], timeout: 1234 } },
    ]);
  });

  it('keeps Node default CAs for an empty list, as for none', () => {
    recorded.agents.length = 0;
    createHttpsCprFetcher({ trustedCaPems: [] });
    expect(recorded.agents).toEqual([{ connect: { ca: undefined, timeout: 10_000 } }]);
    expect((recorded.agents[0] as { connect: { ca?: unknown } }).connect.ca).toBeUndefined();
  });

  it('asks undici for the headers and the body within the timeout (10 s by default)', async () => {
    const payee = await serving('{}');
    for (const [options, timeout] of [
      [{}, 10_000],
      [{ timeoutMs: 4321 }, 4321],
    ] as const) {
      recorded.requests.length = 0;
      const fetcher = trusted(options);
      try {
        await fetcher.fetchCpr(payee.url);
        expect(recorded.requests).toHaveLength(1);
        expect(recorded.requests[0]).toMatchObject({
          method: 'GET',
          headers: { accept: 'application/json' },
          headersTimeout: timeout,
          bodyTimeout: timeout,
        });
      } finally {
        await fetcher.close();
      }
    }
  });

  it('close() releases its connections: a retrieval after it sends nothing', async () => {
    const payee = await serving('{}');
    const fetcher = trusted();
    expect(await fetcher.fetchCpr(payee.url)).toEqual({});
    await fetcher.close();
    await expect(fetcher.fetchCpr(payee.url)).rejects.toThrow();
    expect(payee.seen).toHaveLength(1);
  });
});
