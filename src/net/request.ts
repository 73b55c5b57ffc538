/**
 * The suite side's one capped and timed HTTP(S) exchange: one undici request bounded in total
 * time (sending to the last body byte) and in body size. The default drivers' `HttpClient`
 * (`src/drivers/http.ts`, with its recorder and circuit breaker on top) and the reference-uri
 * retrieval of `cprc validate` (`src/validator/inputs/fetch.ts`) both send through it; each words
 * the failures for its own reader. (The reference wallet keeps its own client on purpose:
 * `src/reference/wallet/fetch.ts`.)
 *
 * @packageDocumentation
 */
import { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

/** Options of {@link cappedRequest}. */
export interface CappedRequestOptions {
  /** HTTP method (default `GET`). */
  method?: string;
  /** Request headers. */
  headers?: Record<string, string>;
  /** Request body. */
  body?: string;
  /** The connection pool (CA trust); undici's global one when absent. */
  dispatcher?: Dispatcher;
  /** Bound of the whole exchange, from sending to the last body byte, in ms. */
  timeoutMs: number;
  /** Largest accepted body, in bytes (a declared `content-length` above it ends the exchange at once). */
  maxBytes: number;
  /** Whether to read the body of an answer with this status (default: always); unread bodies are discarded. */
  readBody?: (status: number) => boolean;
}

/** A complete answer of {@link cappedRequest}. */
export interface CappedResponse {
  status: number;
  /** Headers as undici gives them (lower-case names). */
  headers: IncomingHttpHeaders;
  /** The whole body (empty when `readBody` declined it). */
  body: Buffer;
}

/** Why a {@link cappedRequest} ended without a complete answer. */
export type CappedFailure = 'too-large' | 'failed';

/**
 * A {@link cappedRequest} that ended without a complete answer: the body passed the cap
 * (`too-large`, `bytes` is the declared or counted size) or the exchange failed (`failed`:
 * `cause` is undici's error, `timedOut` tells whether the total deadline had passed). Carries
 * what did arrive (status, headers, the head of the body) as evidence.
 */
export class CappedRequestError extends Error {
  readonly reason: CappedFailure;
  /** `head` when no status line came, `body` when the answer broke off after it. */
  readonly phase: 'head' | 'body';
  /** True when the total deadline of the exchange had passed. */
  readonly timedOut: boolean;
  readonly status: number | undefined;
  readonly headers: IncomingHttpHeaders | undefined;
  /** The body bytes read before the end. */
  readonly received: Buffer;
  /** For `too-large`: the declared length, or the count read when it passed the cap. */
  readonly bytes: number | undefined;

  constructor(
    reason: CappedFailure,
    detail: {
      phase: 'head' | 'body';
      timedOut: boolean;
      status?: number;
      headers?: IncomingHttpHeaders;
      received: Buffer;
      bytes?: number;
      cause?: unknown;
    },
  ) {
    super(reason === 'too-large' ? `body larger than the cap (${detail.bytes} bytes)` : 'exchange failed', {
      cause: detail.cause,
    });
    this.name = 'CappedRequestError';
    this.reason = reason;
    this.phase = detail.phase;
    this.timedOut = detail.timedOut;
    this.status = detail.status;
    this.headers = detail.headers;
    this.received = detail.received;
    this.bytes = detail.bytes;
  }
}

/**
 * Sends one request and reads the whole answer within `timeoutMs` and `maxBytes`. Every HTTP
 * answer (any status) is returned; a transport failure, a timeout or an oversize body throws
 * {@link CappedRequestError}.
 *
 * @example
 * ```ts
 * const r = await cappedRequest(url, { timeoutMs: 5000, maxBytes: 1 << 20 });
 * if (r.status === 200) JSON.parse(r.body.toString('utf8'));
 * ```
 */
export async function cappedRequest(url: string, options: CappedRequestOptions): Promise<CappedResponse> {
  // undici is loaded on first use (cold start of `cprc validate` on local files)
  undiciRequest ??= (await import('undici')).request;
  const request = undiciRequest;
  // one timer for the whole exchange, cleared at its end
  const deadline = new Deadline();
  const timer = setTimeout(() => deadline.fire(), options.timeoutMs);
  try {
    return await exchangeWithin(request, url, options, deadline);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The deadline of one exchange, as a signal undici takes (an `EventEmitter` with `aborted` and
 * `reason`, which its request API accepts in place of an `AbortSignal`): when it fires, undici
 * ends the exchange with a `TimeoutError`, as `AbortSignal.timeout` would. Several times cheaper
 * to make than an `AbortController` and its signal, which every exchange of a run would pay.
 */
class Deadline extends EventEmitter {
  aborted = false;
  reason: unknown;

  fire(): void {
    this.aborted = true;
    this.reason = new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    this.emit('abort');
  }
}

/** undici's `request`, once loaded. */
let undiciRequest: typeof import('undici').request | undefined;

/** The body of {@link cappedRequest}, bounded by `signal`. */
async function exchangeWithin(
  request: typeof import('undici').request,
  url: string,
  options: CappedRequestOptions,
  signal: Deadline,
): Promise<CappedResponse> {
  let res: Dispatcher.ResponseData;
  try {
    res = await request(url, {
      method: (options.method ?? 'GET') as Dispatcher.HttpMethod,
      ...(options.headers === undefined ? {} : { headers: options.headers }),
      ...(options.body === undefined ? {} : { body: options.body }),
      ...(options.dispatcher === undefined ? {} : { dispatcher: options.dispatcher }),
      signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (cause) {
    throw new CappedRequestError('failed', {
      phase: 'head',
      timedOut: signal.aborted,
      received: Buffer.alloc(0),
      cause,
    });
  }
  // an abandoned body may still emit an error: it must never go unhandled
  res.body.on('error', () => undefined);
  const { statusCode: status, headers } = res;
  if (options.readBody !== undefined && !options.readBody(status)) {
    res.body.destroy();
    return { status, headers, body: Buffer.alloc(0) };
  }
  const chunks: Buffer[] = [];
  let total = 0;
  const tooLarge = (bytes: number) => {
    res.body.destroy();
    return new CappedRequestError('too-large', {
      phase: 'body',
      timedOut: false,
      status,
      headers,
      received: Buffer.concat(chunks),
      bytes,
    });
  };
  const declared = Number(headers['content-length']);
  if (Number.isFinite(declared) && declared > options.maxBytes) throw tooLarge(declared);
  try {
    for await (const chunk of res.body) {
      const b = chunk as Buffer;
      total += b.length;
      if (total > options.maxBytes) throw tooLarge(total);
      chunks.push(b);
    }
  } catch (cause) {
    if (cause instanceof CappedRequestError) throw cause;
    throw new CappedRequestError('failed', {
      phase: 'body',
      timedOut: signal.aborted,
      status,
      headers,
      received: Buffer.concat(chunks),
      cause,
    });
  }
  return { status, headers, body: Buffer.concat(chunks, total) };
}
