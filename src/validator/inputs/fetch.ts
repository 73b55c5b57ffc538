/**
 * Retrieval of a reference URI's CPR over HTTPS (spec 4.1, profile 2) for `cprc validate`: one
 * GET with a total deadline (headers and body together, so a dripping endpoint ends), the
 * `max-bytes` cap, no redirect, and `--ca` trust; the exchange itself is the suite's one capped
 * request (`src/net/request.ts`).
 *
 * @packageDocumentation
 */
import { readFile } from 'node:fs/promises';
import type { Agent } from 'undici';
import { CprcError } from '../../errors.js';
import { CappedRequestError, type CappedResponse, cappedRequest } from '../../net/request.js';
import { tooLarge } from './limits.js';

/** Options of {@link retrieveCpr}. */
export interface RetrieveOptions {
  /** PEM file of a CA to trust. */
  ca?: string | undefined;
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
  const { Agent } = await import('undici');
  let dispatcher: Agent | undefined;
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
    let res: CappedResponse;
    try {
      res = await cappedRequest(url, {
        headers: { accept: 'application/json' },
        timeoutMs: opts.timeoutMs,
        maxBytes: opts.maxBytes,
        // a redirect is refused unread
        readBody: (status) => status < 300 || status >= 400,
        ...(dispatcher ? { dispatcher } : {}),
      });
    } catch (err) {
      // Stryker disable next-line ConditionalExpression: cappedRequest throws CappedRequestError only (its contract); this guards the casts below
      if (!(err instanceof CappedRequestError)) throw err;
      if (err.reason === 'too-large') throw tooLarge(`the response of ${url}`, opts.maxBytes);
      const e = err.cause as Error & { cause?: { message?: string } };
      // timedOut: the deadline passed (undici's own header and body timers, of the same length,
      // start after it and tick coarser, so they never fire first)
      if (err.phase === 'head') {
        if (err.timedOut) throw timedOut(url, opts.timeoutMs, 'answer');
        const detail = e.cause?.message ?? e.message;
        const hint = /certificate|self.signed|issuer/i.test(detail)
          ? '; pass the CA that signed its certificate with --ca FILE'
          : '';
        throw new CprcError('CPRC_TARGET_UNREACHABLE', `cannot retrieve ${url}: ${detail}${hint}`);
      }
      if (err.timedOut) throw timedOut(url, opts.timeoutMs, 'send its whole answer');
      throw new CprcError('CPRC_TARGET_UNREACHABLE', `the answer of ${url} broke off: ${e.message}`);
    }
    if (res.status >= 300 && res.status < 400) {
      const location = res.headers.location;
      const to = typeof location === 'string' ? ` to ${location}` : '';
      throw new CprcError(
        'CPRC_IO',
        `redirect refused: ${url} answered ${res.status}${to}; a cpr is retrieved from its endpoint itself, never through a redirect`,
      );
    }
    const body = res.body;
    if (res.status !== 200) {
      let code = '';
      try {
        // not JSON, or no error object: the parse or the member access throws
        const named: unknown = JSON.parse(body.toString('utf8')).error.code;
        if (typeof named === 'string') code = ` ${named}`;
      } catch {
        // not a JSON error body
      }
      const hint =
        res.status === 410 || res.status === 404
          ? '; a reference token works once: ask the payee for a new uri'
          : '; the payee did not serve the cpr';
      throw new CprcError('CPRC_IO', `${url} answered ${res.status}${code}${hint}`);
    }
    return body;
  } finally {
    await dispatcher?.close().catch(() => undefined);
  }
}
