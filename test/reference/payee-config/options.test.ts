/**
 * The reference payee's own configuration (`startReferencePayee` options): the options it refuses,
 * the defaults it documents, listening, the plain-HTTP listener, the optional test clock, the body
 * limit and the 500 answer of a failing component. Code only the reference's configuration
 * reaches, which the conformance suite (run against the default stack) cannot observe; the
 * mutation run judges it by these tests.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeCprUri } from '../../../src/codec/index.js';
import { CprcError } from '../../../src/errors.js';
import { createLoopbackPki, type LoopbackPki } from '../../../src/loopback/tls.js';
import {
  DocumentBuilder,
  ReferencePayee,
  type ReferencePayeeOptions,
  type RunningPayee,
  startReferencePayee,
} from '../../../src/reference/payee/index.js';
import { createRecordingClient, type RecordingClient } from '../../_support/https.js';

/** A fixed instant, so windows and token lifetimes are exact. */
const NOW = new Date('2030-01-01T00:00:00Z');

let pki: LoopbackPki;
let client: RecordingClient;

beforeAll(async () => {
  pki = await createLoopbackPki();
  client = createRecordingClient({ ca: pki.ca.certPem });
});
afterAll(async () => {
  await client.close();
});

/** Expects `fn` to throw a CprcError with `code` and a message containing `text`. */
function expectCprcError(fn: () => unknown, code: string, text: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(CprcError);
  expect((thrown as CprcError).code).toBe(code);
  expect((thrown as CprcError).message).toContain(text);
}

/** Runs `body` against a payee started with `options` (and the fixed clock), then closes it. */
async function withPayee(
  options: Partial<ReferencePayeeOptions>,
  body: (payee: RunningPayee) => Promise<void>,
): Promise<void> {
  const payee = await startReferencePayee({ tls: pki.server, clock: () => NOW, ...options });
  try {
    await body(payee);
  } finally {
    await payee.close();
  }
}

/** The validity window (s) of an inline request asked with `body`. */
async function windowOf(payee: RunningPayee, body: Record<string, unknown> = {}): Promise<number> {
  const ex = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'inline', ...body });
  expect(ex.status).toBe(201);
  const d = decodeCprUri((ex.body as { uri: string }).uri);
  if (!d.ok || d.value.kind !== 'inline') throw new Error('not an inline uri');
  const doc = d.value.document as { created_at: string; expires_at: string };
  return (Date.parse(doc.expires_at) - Date.parse(doc.created_at)) / 1000;
}

/** A free TCP port on 127.0.0.1, held by the returned server until closed. */
async function takePort(): Promise<{ port: number; release: () => Promise<void> }> {
  const taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const port = (taken.address() as { port: number }).port;
  return { port, release: () => new Promise<void>((resolve) => taken.close(() => resolve())) };
}

describe('ReferencePayee options', () => {
  it('refuses missing or non-string TLS material', () => {
    const bad: unknown[] = [
      undefined,
      {},
      { tls: { certPem: 1, keyPem: 'key' } },
      { tls: { certPem: 'cert', keyPem: 1 } },
      { tls: { certPem: 'cert' } },
    ];
    for (const options of bad) {
      expectCprcError(() => new ReferencePayee(options as ReferencePayeeOptions), 'CPRC_USAGE', 'tls');
    }
  });

  const counts = [
    'maxTokenTtlSeconds',
    'maxValiditySeconds',
    'defaultValiditySeconds',
    'maxBodyBytes',
  ] as const;
  it.each(counts)('refuses a %s that is not an integer from 1, naming it', (name) => {
    for (const bad of [0, -1, 1.5, Number.NaN, 2 ** 53]) {
      expectCprcError(
        () => new ReferencePayee({ tls: pki.server, [name]: bad }),
        'CPRC_USAGE',
        `${name} must be an integer from 1 to `,
      );
    }
    expect(() => new ReferencePayee({ tls: pki.server, [name]: 1 })).not.toThrow();
  });

  it('refuses maxTokenTtlSeconds above 900 and takes 900', () => {
    expectCprcError(
      () => new ReferencePayee({ tls: pki.server, maxTokenTtlSeconds: 901 }),
      'CPRC_USAGE',
      'maxTokenTtlSeconds must be an integer from 1 to 900, got 901',
    );
    expect(() => new ReferencePayee({ tls: pki.server, maxTokenTtlSeconds: 900 })).not.toThrow();
  });

  it('startReferencePayee reports a bad option as a rejected promise', async () => {
    const started = startReferencePayee({ tls: pki.server, maxBodyBytes: 0 });
    await expect(started).rejects.toThrow('maxBodyBytes');
  });

  it('refuses unusable PEM material without quoting it', async () => {
    const err = await startReferencePayee({ tls: { certPem: 'not a cert', keyPem: 'secret-key' } }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(CprcError);
    expect((err as CprcError).code).toBe('CPRC_INPUT_INVALID');
    expect((err as CprcError).message).toContain('tls.certPem or tls.keyPem');
    expect((err as CprcError).message).not.toContain('secret-key');
    // what Node said of the PEM stays reachable for diagnosis, as the error's cause
    expect((err as CprcError).cause).toBeInstanceOf(Error);
  });
});

describe('the defaults it documents', () => {
  it('grants 3600 s by default and at most 30 days', async () => {
    await withPayee({}, async (payee) => {
      expect(await windowOf(payee)).toBe(3600);
      expect(await windowOf(payee, { validity_seconds: 10 ** 9 })).toBe(30 * 24 * 3600);
    });
  });

  it('takes defaultValiditySeconds and caps it at maxValiditySeconds', async () => {
    await withPayee({ defaultValiditySeconds: 120 }, async (payee) => {
      expect(await windowOf(payee)).toBe(120);
    });
    await withPayee({ maxValiditySeconds: 60 }, async (payee) => {
      expect(await windowOf(payee)).toBe(60);
      expect(await windowOf(payee, { validity_seconds: 61 })).toBe(60);
    });
  });

  it('gives tokens 900 s by default, or maxTokenTtlSeconds', async () => {
    for (const [options, expected] of [
      [{}, '2030-01-01T00:15:00.000Z'],
      [{ maxTokenTtlSeconds: 60 }, '2030-01-01T00:01:00.000Z'],
    ] as const) {
      await withPayee(options, async (payee) => {
        const ex = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'reference' });
        expect((ex.body as { token_expires_at: string }).token_expires_at).toBe(expected);
      });
    }
  });

  it('takes a body of 65536 bytes by default and refuses one byte more', async () => {
    await withPayee({}, async (payee) => {
      const json = '{"delivery":"inline"}';
      const url = `${payee.harnessUrl}/requests`;
      const at = await client.request('POST', url, { text: `${json}${' '.repeat(65_536 - json.length)}` });
      expect(at.status).toBe(201);
      const over = await client.request('POST', url, { text: `${json}${' '.repeat(65_537 - json.length)}` });
      expect(over.status).toBe(400);
      expect(over.body).toEqual({
        error: { code: 'INVALID_REQUEST', message: 'the body exceeds 65536 bytes' },
      });
    });
  });

  it('honours maxBodyBytes', async () => {
    await withPayee({ maxBodyBytes: 30 }, async (payee) => {
      const url = `${payee.harnessUrl}/requests`;
      expect((await client.request('POST', url, { text: '{"delivery":"inline"}' })).status).toBe(201);
      const over = await client.request('POST', url, { text: `{"delivery":"inline"}${' '.repeat(10)}` });
      expect(over.status).toBe(400);
      expect((over.body as { error: { message: string } }).error.message).toBe('the body exceeds 30 bytes');
    });
  });
});

describe('listening', () => {
  it('listens on 127.0.0.1 by default, with the harness under /harness and a plain-HTTP listener', async () => {
    await withPayee({}, async (payee) => {
      expect(payee.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:[0-9]+$/);
      expect(payee.harnessUrl).toBe(`${payee.baseUrl}/harness`);
      expect(payee.plainHttpUrl).toMatch(/^http:\/\/127\.0\.0\.1:[0-9]+$/);
      const plain = await fetch(`${payee.plainHttpUrl}/cpr/abc`);
      expect(plain.status).toBe(426);
      await plain.text();
    });
  });

  it('closes both listeners', async () => {
    const payee = await startReferencePayee({ tls: pki.server });
    await payee.close();
    await expect(fetch(`${payee.plainHttpUrl}/cpr/abc`)).rejects.toThrow();
    const after = await client.get(`${payee.baseUrl}/cpr/abc`).catch((e: unknown) => e);
    expect(after instanceof Error || (after as { error?: string }).error !== undefined).toBe(true);
  });

  it('has no plain-HTTP listener with plainHttp false, and one with plainHttp true', async () => {
    await withPayee({ plainHttp: false }, async (payee) => {
      expect(payee.plainHttpUrl).toBeUndefined();
    });
    await withPayee({ plainHttp: true }, async (payee) => {
      expect(payee.plainHttpUrl).toMatch(/^http:\/\//);
    });
  });

  it('listens on the ports asked', async () => {
    const a = await takePort();
    const b = await takePort();
    await a.release();
    await b.release();
    await withPayee({ port: a.port, plainPort: b.port }, async (payee) => {
      expect(payee.baseUrl).toBe(`https://127.0.0.1:${a.port}`);
      expect(payee.plainHttpUrl).toBe(`http://127.0.0.1:${b.port}`);
    });
  });

  it('refuses a port in use, closing what it opened', async () => {
    const held = await takePort();
    try {
      await expect(startReferencePayee({ tls: pki.server, port: held.port })).rejects.toThrow(
        new RegExp(`cannot listen on 127\\.0\\.0\\.1:${held.port}: EADDRINUSE$`),
      );
      await expect(startReferencePayee({ tls: pki.server, port: held.port })).rejects.toMatchObject({
        code: 'CPRC_IO',
      });
      const free = await takePort();
      await free.release();
      // the plain port is taken: the HTTPS listener already opened is closed again
      await expect(
        startReferencePayee({ tls: pki.server, port: free.port, plainPort: held.port }),
      ).rejects.toThrow('EADDRINUSE');
      await withPayee({ port: free.port }, async (payee) => {
        expect(payee.baseUrl).toBe(`https://127.0.0.1:${free.port}`);
      });
    } finally {
      await held.release();
    }
  });

  it('writes an IPv6 host in brackets in its base URL', async () => {
    await withPayee({ host: '::1', plainHttp: false }, async (payee) => {
      expect(payee.baseUrl).toMatch(/^https:\/\/\[::1\]:[0-9]+$/);
    });
  });

  it('offers the test clock by default and with testClock true; testClock false answers 404', async () => {
    for (const [testClock, status] of [
      [undefined, 200],
      [true, 200],
      [false, 404],
    ] as const) {
      await withPayee(testClock === undefined ? {} : { testClock }, async (payee) => {
        const r = await client.post(`${payee.harnessUrl}/clock`, { advance_seconds: 1 });
        expect(r.status, `testClock ${testClock}`).toBe(status);
      });
    }
  });

  it('answers 500 with the error body when a component fails', async () => {
    class FailingBuilder extends DocumentBuilder {
      override newRequestId(): string {
        throw new Error('boom');
      }
    }
    await withPayee({ documentBuilder: new FailingBuilder() }, async (payee) => {
      const r = await client.post(`${payee.harnessUrl}/requests`, { delivery: 'inline' });
      expect(r.status).toBe(500);
      expect(r.body).toEqual({
        error: { code: 'INTERNAL_ERROR', message: 'the payee failed to answer this request' },
      });
    });
  });
});
