/**
 * Retrieval of a reference URI's CPR over HTTPS (spec 4.1, profile 2) for `cprc validate`: one
 * GET with a total deadline (headers and body together, so a dripping endpoint ends), the
 * `max-bytes` cap, no redirect, and `--ca` trust.
 *
 * @packageDocumentation
 */
import { readFile } from 'node:fs/promises';
import type { Agent } from 'undici';
import { CprcError } from '../../errors.js';
import { tooLarge } from './limits.js';

/** Options of {@link retrieveCpr}. */
export interface RetrieveOptions {
  /** PEM file of a CA to trust. */
  ca?: string;
  /** Total time for headers and body, in ms. */
  timeoutMs: number;
  /** The `max-bytes` limit of the body. */
  maxBytes: number;
}

function timedOut(url: string, ms: number, phase: string): CprcError {
  return new CprcError(
    'CPRC_TIMEOUT',
    `${url} did not ${phase} within ${ms} ms (the --timeout limit); check the endpoint or raise --timeout`,
  );
}

/**
 * GETs `url` and returns the 200 body. Every other outcome is a one-line CprcError: a 3xx is
 * "redirect refused" (a retrieval is never redirected, least of all to plain http), another
 * status names the status and the error code of the body, a body above `maxBytes` names the
 * limit, and the whole exchange past `timeoutMs` names the timeout.
 */
export async function retrieveCpr(url: string, opts: RetrieveOptions): Promise<Uint8Array> {
  // undici is loaded only when a reference uri is retrieved (cold start of the common case).
  const { Agent, request } = await import('undici');
  let dispatcher: Agent | undefined;
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, opts.timeoutMs);
  try {
    if (opts.ca !== undefined) {
      let ca: Buffer;
      try {
        ca = await readFile(opts.ca);
      } catch (err) {
        throw new CprcError(
          'CPRC_IO',
          `cannot read --ca file ${opts.ca} (${(err as Error).message}); give a PEM file`,
        );
      }
      dispatcher = new Agent({ connect: { ca } });
    }
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: controller.signal,
        headersTimeout: opts.timeoutMs,
        bodyTimeout: opts.timeoutMs,
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (err) {
      const e = err as Error & { code?: string; cause?: { code?: string; message?: string } };
      if (expired || e.code === 'UND_ERR_HEADERS_TIMEOUT') throw timedOut(url, opts.timeoutMs, 'answer');
      const detail = e.cause?.message ?? e.message;
      const hint = /certificate|self.signed|issuer/i.test(detail)
        ? '; pass the CA that signed its certificate with --ca FILE'
        : '';
      throw new CprcError('CPRC_TARGET_UNREACHABLE', `cannot retrieve ${url}: ${detail}${hint}`);
    }
    // an abandoned body may still emit an error: it must never go unhandled
    res.body.on('error', () => undefined);
    if (res.statusCode >= 300 && res.statusCode < 400) {
      res.body.destroy();
      const location = res.headers.location;
      const to = typeof location === 'string' ? ` to ${location}` : '';
      throw new CprcError(
        'CPRC_IO',
        `redirect refused: ${url} answered ${res.statusCode}${to}; a cpr is retrieved from its endpoint itself, never through a redirect`,
      );
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        const buf = chunk as Buffer;
        size += buf.length;
        if (size > opts.maxBytes) {
          res.body.destroy();
          throw tooLarge(`the response of ${url}`, opts.maxBytes);
        }
        chunks.push(buf);
      }
    } catch (err) {
      if (err instanceof CprcError) throw err;
      const e = err as Error & { code?: string };
      if (expired || e.code === 'UND_ERR_BODY_TIMEOUT')
        throw timedOut(url, opts.timeoutMs, 'send its whole answer');
      throw new CprcError('CPRC_TARGET_UNREACHABLE', `the answer of ${url} broke off: ${e.message}`);
    }
    const body = Buffer.concat(chunks, size);
    if (res.statusCode !== 200) {
      let code = '';
      try {
        const parsed = JSON.parse(body.toString('utf8')) as { error?: { code?: unknown } };
        if (typeof parsed?.error?.code === 'string') code = ` ${parsed.error.code}`;
      } catch {
        // not a JSON error body
      }
      const hint =
        res.statusCode === 410 || res.statusCode === 404
          ? '; a reference token works once: ask the payee for a new uri'
          : '; the payee did not serve the cpr';
      throw new CprcError('CPRC_IO', `${url} answered ${res.statusCode}${code}${hint}`);
    }
    return body;
  } finally {
    clearTimeout(timer);
    await dispatcher?.close().catch(() => undefined);
  }
}
