/**
 * Last-byte-synchronised bursts over HTTP/1.1, for race checks (issue 11): open one connection
 * per request first, send every request but its last byte, then release all the last bytes in
 * one synchronous loop, so the target completes the requests within a fraction of a millisecond
 * of each other instead of as fast as a connection pool happens to deliver them.
 *
 * How the last byte is held: every request is an ordinary `node:http` `ClientRequest` (Node
 * writes the request and parses the answer: no hand-written HTTP here) whose socket is a small
 * {@link Duplex} over the pre-opened TLS socket. The shim forwards every byte the request writes
 * except the very last one of the stream and holds that one until {@link HeldSocket.release}.
 * One path serves every method: for a POST the held byte is the last body byte; for a GET
 * without a body it is the final `\n` of the header block, so the target has not even seen a
 * complete request head before the release.
 * @packageDocumentation
 */
import { type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import {
  type ClientHttp2Session,
  type ClientHttp2Stream,
  constants,
  connect as http2Connect,
} from 'node:http2';
import { isIP, connect as netConnect, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { type TLSSocket, connect as tlsConnect } from 'node:tls';
import { clientSecureContext } from '../net/secure-context.js';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_REQUEST_TIMEOUT_MS,
  describeTransportError,
  type HttpRequest,
  type HttpResponse,
  parseJsonAnswer,
} from './http.js';
import { MAX_RECORDED_BODY_BYTES, type Recorder } from './recorder.js';
import { DriverTransportError, type RaceOutcome } from './types.js';

/**
 * How long a burst waits, once every request but its last byte has been written, before it
 * releases the last bytes: time for the partial requests to cross the network and be parsed by
 * the target, so what the release races is the target's handling, not the delivery of the bulk.
 */
export const DEFAULT_BURST_SETTLE_MS = 25;

/** Options of {@link burst}. */
export interface BurstOptions {
  /** PEM of the CA that signed the target's certificate (the run's `tls.ca_file` content). */
  ca?: string | Buffer;
  /** Bound of opening the connections, and of every exchange from its release to its last body byte. */
  timeoutMs?: number;
  /** Largest accepted response body (`limits.max_response_bytes`). */
  maxResponseBytes?: number;
  /** Where the exchanges are recorded (redacted) as evidence, one per request, in request order. */
  recorder?: Recorder;
  /** Wait between holding every request and the release (default {@link DEFAULT_BURST_SETTLE_MS}). */
  settleMs?: number;
  /**
   * Offer h2 in ALPN (default true): a target that chooses it gets the single-packet form of the
   * race (one connection, every stream's final frame in one write). False keeps HTTP/1.1.
   */
  http2?: boolean;
  /**
   * Called once every request is held (all its bytes but the last written) and before the
   * release; the release waits for it. Tests observe the target here.
   */
  beforeRelease?: () => void | Promise<void>;
}

/** One request of a burst and what became of it. */
export interface BurstResult {
  /** Position of the request in the burst. */
  index: number;
  /** The complete answer (any status), when one came: read it as the drivers read any answer. */
  response?: HttpResponse;
  /**
   * Why there is no usable answer (refused, reset, timeout, garbage, oversize), classified as the
   * drivers classify transport failures; the message names the request.
   */
  error?: DriverTransportError;
  /** Milliseconds from the start of the release to the instant this request's last byte left. */
  sentAtMs?: number;
  /** Milliseconds from the start of the release to the instant its answer was complete (or failed). */
  answeredAtMs?: number;
  /** True when the target answered before the request was complete (before its last byte left). */
  early?: boolean;
}

/** The outcome of a {@link burst}. */
export interface BurstOutcome {
  /** One result per request, in request order. */
  results: BurstResult[];
  /** Wire protocol of the burst: `h2` when the target chose it (one connection, single packet). */
  protocol: 'http/1.1' | 'h2';
  /** Requests whose last byte was released (the others failed before the release). */
  released: number;
  /** Max minus min of the instants the last bytes left, in milliseconds (0 when at most one left). */
  spreadMs: number;
  /** Max minus min of the instants the answers were complete, among those that came (ms). */
  arrivalSpreadMs: number | undefined;
  /** Milliseconds it took to open every connection (TLS handshakes included). */
  openMs: number;
  /** When every connection was open (RFC 3339). */
  openedAt: string;
  /** When the last bytes were released (RFC 3339). */
  releasedAt: string;
}

/**
 * A socket for one `ClientRequest` that forwards everything the request writes to the real
 * connection except the final byte, held until {@link HeldSocket.release}. Reads pass through.
 */
class HeldSocket extends Duplex {
  readonly #inner: Socket;
  #held: Buffer | undefined;
  #released = false;

  constructor(inner: Socket) {
    super({ allowHalfOpen: false });
    this.#inner = inner;
    inner.on('data', (chunk: Buffer) => {
      if (!this.push(chunk)) inner.pause();
    });
    inner.on('end', () => this.push(null));
    inner.on('error', (err) => this.destroy(err));
    // a close without an error still ends what we read, so the HTTP parser can finish (or see
    // the answer cut short) instead of waiting
    inner.on('close', () => this.push(null));
  }

  /** The byte still held, if any. */
  get holding(): boolean {
    return this.#held !== undefined && !this.#released;
  }

  /** Sends the held byte; everything written after this passes straight through. */
  release(): void {
    this.#released = true;
    const held = this.#held;
    this.#held = undefined;
    if (held !== undefined && !this.#inner.destroyed) this.#inner.write(held);
  }

  override _read(): void {
    this.#inner.resume();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (err?: Error | null) => void): void {
    if (this.#released) {
      this.#inner.write(chunk, callback);
      return;
    }
    const all = this.#held === undefined ? chunk : Buffer.concat([this.#held, chunk]);
    this.#held = all.subarray(all.length - 1);
    if (all.length > 1) this.#inner.write(all.subarray(0, all.length - 1), callback);
    else callback();
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    this.#inner.destroy();
    callback(err);
  }

  // what node:http may call on its socket (the real one is already set up)
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  setTimeout(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/** The request as the drivers send it: `accept: application/json`, a JSON body with its type. */
function prepare(req: HttpRequest): { headers: Record<string, string>; body: Buffer | undefined } {
  const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
  let body = req.body;
  if (req.json !== undefined) {
    body = JSON.stringify(req.json);
    headers['content-type'] ??= 'application/json';
  }
  return { headers, body: body === undefined ? undefined : Buffer.from(body, 'utf8') };
}

/** Opens one connection to the origin of `url` (TLS with `ca` for https), bounded by `timeoutMs`. */
function open(
  url: URL,
  ca: string | Buffer | undefined,
  timeoutMs: number,
  alpn: string[] = ['http/1.1'],
): Promise<Socket> {
  const https = url.protocol === 'https:';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = Number(url.port || (https ? 443 : 80));
  return new Promise((resolve, reject) => {
    const socket: Socket = https
      ? tlsConnect({
          host,
          port,
          ...(isIP(host) === 0 ? { servername: host } : {}),
          secureContext: clientSecureContext(ca),
          ALPNProtocols: alpn,
        })
      : netConnect({ host, port });
    const timer = setTimeout(() => {
      const err = new Error(`connect timeout after ${timeoutMs} ms`);
      err.name = 'TimeoutError';
      socket.destroy();
      reject(err);
    }, timeoutMs);
    const fail = (err: Error): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    };
    socket.once('error', fail);
    socket.once(https ? 'secureConnect' : 'connect', () => {
      clearTimeout(timer);
      socket.off('error', fail);
      socket.setNoDelay(true);
      resolve(socket);
    });
  });
}

/** Headers of an answer with lower-case names, repeated ones joined by ", " (as the drivers read them). */
function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headersDistinct)) {
    if (v !== undefined) out[k.toLowerCase()] = v.join(', ');
  }
  return out;
}

const ms = (from: bigint, to: bigint): number => Number(to - from) / 1e6;
/** Milliseconds to the microsecond, for evidence. */
const micro = (value: number): number => Math.round(value * 1000) / 1000;

/** One request in flight and what came back. */
interface Flight {
  index: number;
  req: HttpRequest;
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** Resolves when every byte but the last was written (or the request failed). */
  written: Promise<void>;
  /** Resolves when the answer is complete or the request failed. */
  done: Promise<void>;
  /** Sends what is held; sets `sentAt` (now for HTTP/1.1; when the frame is flushed for h2). */
  release: () => void;
  /** True while the flight holds its last byte (not answered, not failed). */
  holding: () => boolean;
  /** Ends the flight with `failure` (timeout). */
  abort: (failure: unknown) => void;
  sentAt?: bigint;
  answeredAt?: bigint;
  status?: number;
  resHeaders?: Record<string, string>;
  chunks: Buffer[];
  text?: string;
  failure?: unknown;
}

/** The bookkeeping every flight shares: one end (answer or failure), a capped body. */
function flightBase(
  index: number,
  req: HttpRequest,
  cap: number,
  teardown: () => void,
): {
  f: Flight;
  finish: (failure?: unknown) => void;
  written: () => void;
  /** Takes one body chunk; false (and the flight ended as oversize) past the cap. */
  take: (chunk: Buffer) => boolean;
  /** Checks a declared Content-Length; false (and the flight ended as oversize) past the cap. */
  declared: (length: number) => boolean;
} {
  const { headers, body } = prepare(req);
  let markWritten!: () => void;
  let markDone!: () => void;
  const f: Flight = {
    index,
    req,
    headers,
    body,
    written: new Promise<void>((r) => {
      markWritten = r;
    }),
    done: new Promise<void>((r) => {
      markDone = r;
    }),
    release: () => {},
    holding: () => false,
    abort: () => {},
    chunks: [],
  };
  let total = 0;
  const finish = (failure?: unknown): void => {
    if (f.answeredAt !== undefined) return;
    f.answeredAt = process.hrtime.bigint();
    if (failure !== undefined) f.failure = failure;
    else f.text = Buffer.concat(f.chunks).toString('utf8');
    markWritten();
    teardown();
    markDone();
  };
  f.abort = (failure) => finish(failure);
  return {
    f,
    finish,
    written: () => markWritten(),
    take: (chunk) => {
      total += chunk.length;
      if (total > cap) {
        finish(oversize(cap, total));
        return false;
      }
      f.chunks.push(chunk);
      return true;
    },
    declared: (length) => {
      if (Number.isFinite(length) && length > cap) {
        finish(oversize(cap, length));
        return false;
      }
      return true;
    },
  };
}

/** An HTTP/1.1 flight: a `ClientRequest` over a {@link HeldSocket} on its own connection. */
function h1Flight(index: number, req: HttpRequest, url: URL, raw: Socket, cap: number): Flight {
  const held = new HeldSocket(raw);
  let client: ClientRequest | undefined;
  const { f, finish, written, take, declared } = flightBase(index, req, cap, () => {
    client?.destroy();
    held.destroy();
  });
  f.holding = () => f.answeredAt === undefined && held.holding;
  f.release = () => {
    held.release();
    f.sentAt = process.hrtime.bigint();
  };
  client = httpRequest({
    method: req.method,
    path: `${url.pathname}${url.search}`,
    // a burst connection carries one request: say so, whatever the method
    headers: {
      host: url.host,
      ...f.headers,
      ...(f.body === undefined ? {} : { 'content-length': String(f.body.length) }),
      connection: 'close',
    },
    setHost: false,
    createConnection: () => held as unknown as Socket,
  });
  client.on('error', (err) => finish(err));
  client.on('finish', written);
  client.on('response', (res) => {
    f.status = res.statusCode;
    f.resHeaders = headersOf(res);
    if (!declared(Number(f.resHeaders['content-length']))) return;
    res.on('data', (chunk: Buffer) => {
      take(chunk);
    });
    res.on('end', () => {
      if (!res.complete) finish(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
      else finish();
    });
    res.on('error', (err) => finish(err));
  });
  if (f.body === undefined) client.end();
  else client.end(f.body);
  return f;
}

/**
 * An HTTP/2 flight: one stream of a shared session, its HEADERS (and body but its last byte)
 * sent without END_STREAM; the release ends the stream, and every stream's last DATA frame
 * leaves in the session's next write, together (the single-packet form of the race).
 */
function h2Flight(
  index: number,
  req: HttpRequest,
  url: URL,
  session: ClientHttp2Session,
  cap: number,
): Flight {
  let stream: ClientHttp2Stream | undefined;
  const { f, finish, written, take, declared } = flightBase(index, req, cap, () => {
    if (stream !== undefined && !stream.destroyed) stream.close(constants.NGHTTP2_CANCEL);
  });
  let last: Buffer | undefined;
  let released = false;
  f.holding = () => f.answeredAt === undefined && !released;
  f.release = () => {
    released = true;
    stream?.end(last);
  };
  const headers: Record<string, string> = {
    ':method': req.method,
    ':path': `${url.pathname}${url.search}`,
    ...f.headers,
    ...(f.body === undefined ? {} : { 'content-length': String(f.body.length) }),
  };
  try {
    stream = session.request(headers, { endStream: false });
  } catch (err) {
    finish(err);
    return f;
  }
  stream.on('error', (err) => finish(err));
  stream.on('finish', () => {
    if (released) f.sentAt = process.hrtime.bigint();
  });
  stream.on('response', (h) => {
    f.status = Number(h[':status']);
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) {
      if (k.startsWith(':') || v === undefined) continue;
      out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
    }
    f.resHeaders = out;
    declared(Number(out['content-length']));
  });
  stream.on('data', (chunk: Buffer) => {
    take(chunk);
  });
  stream.on('end', () => finish());
  stream.on('close', () => {
    // a stream reset, or a session gone, before the answer ended
    if (f.answeredAt === undefined) {
      finish(
        Object.assign(new Error(`the stream was closed (HTTP/2 code ${stream?.rstCode ?? 'none'})`), {
          code: 'ECONNRESET',
        }),
      );
    }
  });
  if (f.body !== undefined && f.body.length > 0) {
    last = f.body.subarray(f.body.length - 1);
    stream.write(f.body.subarray(0, f.body.length - 1), () => written());
  } else {
    // HEADERS leave with the session's next write; 'ready' may already have been emitted
    if (stream.pending) stream.once('ready', () => setImmediate(written));
    else setImmediate(written);
  }
  return f;
}

/**
 * Opens an HTTP/2 session over `socket` (ALPN h2) and waits for the target's settings; resolves
 * `undefined` (session closed) when the target allows fewer than `streams` concurrent streams.
 */
function h2Session(
  origin: string,
  socket: Socket,
  streams: number,
  timeoutMs: number,
): Promise<ClientHttp2Session | undefined> {
  return new Promise((resolve, reject) => {
    const session = http2Connect(origin, { createConnection: () => socket });
    const timer = setTimeout(() => {
      session.destroy();
      reject(Object.assign(new Error(`no HTTP/2 settings within ${timeoutMs} ms`), { name: 'TimeoutError' }));
    }, timeoutMs);
    session.once('error', (err) => {
      clearTimeout(timer);
      session.destroy();
      reject(err);
    });
    session.once('remoteSettings', (settings) => {
      clearTimeout(timer);
      if ((settings.maxConcurrentStreams ?? Number.POSITIVE_INFINITY) < streams) {
        session.destroy();
        resolve(undefined);
      } else {
        // later session errors reach the streams (each ends with its own classified error)
        session.on('error', () => undefined);
        resolve(session);
      }
    });
  });
}

/**
 * Sends `requests` as one last-byte-synchronised burst and reads every answer (each bounded by
 * `timeoutMs` and `maxResponseBytes`, as the drivers bound theirs); every request is recorded as
 * one exchange.
 *
 * Over HTTP/1.1 (the default, and whenever the target does not choose h2): one connection per
 * request, all opened before anything is sent; every request written but its last byte; after
 * `settleMs` all the last bytes written in one synchronous loop. When the origin of the requests
 * is one HTTPS origin that chooses h2 in ALPN (and allows enough concurrent streams), one
 * connection carries every request as a stream held before END_STREAM, and the release ends all
 * the streams in one tick, so their final frames leave in one write (single packet).
 *
 * A connection that cannot be opened ends the burst before anything is sent (a
 * {@link DriverTransportError} naming why); a request that fails later (reset, timeout, garbage,
 * oversize) gets its classified `error` and the others go on.
 * @example
 * ```ts
 * const b = await burst(Array.from({ length: 32 }, () => ({ method: 'GET', url })), { ca, recorder });
 * console.log(`${b.released} in flight within ${b.spreadMs.toFixed(2)} ms`);
 * ```
 */
export async function burst(
  requests: readonly HttpRequest[],
  options: BurstOptions = {},
): Promise<BurstOutcome> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const cap = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const recorder = options.recorder;
  if (requests.length === 0)
    throw new DriverTransportError('CPRC_DRIVER', 'a burst needs at least one request');
  const urls = requests.map((r) => new URL(r.url));
  const origins = new Set(urls.map((u) => u.origin));
  const tryH2 = options.http2 !== false && origins.size === 1 && urls[0]?.protocol === 'https:';

  // 1. every connection first: connection setup is never part of the race
  const openStart = process.hrtime.bigint();
  let session: ClientHttp2Session | undefined;
  let opened: PromiseSettledResult<Socket>[];
  const first = tryH2
    ? await Promise.allSettled([open(urls[0] as URL, options.ca, timeoutMs, ['h2', 'http/1.1'])])
    : [];
  const firstSocket = first[0]?.status === 'fulfilled' ? first[0].value : undefined;
  if (firstSocket !== undefined && (firstSocket as TLSSocket).alpnProtocol === 'h2') {
    try {
      session = await h2Session((urls[0] as URL).origin, firstSocket, requests.length, timeoutMs);
    } catch (err) {
      first[0] = { status: 'rejected', reason: err };
    }
  }
  if (session !== undefined) opened = [];
  else if (first[0]?.status === 'rejected') opened = [first[0]];
  else {
    // HTTP/1.1: the first connection is reused when it was not given to h2
    const reuse = firstSocket !== undefined && (firstSocket as TLSSocket).alpnProtocol !== 'h2';
    if (firstSocket !== undefined && !reuse) firstSocket.destroy();
    opened = await Promise.allSettled(
      urls.map((u, i) =>
        i === 0 && reuse ? Promise.resolve(firstSocket as Socket) : open(u, options.ca, timeoutMs),
      ),
    );
  }
  const openEnd = process.hrtime.bigint();
  const openedAt = new Date().toISOString();
  const refused = opened.findIndex((o) => o.status === 'rejected');
  if (refused >= 0) {
    for (const o of opened) if (o.status === 'fulfilled') o.value.destroy();
    const req = requests[refused] as HttpRequest;
    const reason = (opened[refused] as PromiseRejectedResult).reason;
    const d = describeTransportError(reason, timeoutMs);
    const failed = opened.filter((o) => o.status === 'rejected').length;
    const text = `${d.text} (opening the ${opened.length === 1 && requests.length > 1 ? 'first connection' : `${requests.length} connections`} of a burst: ${failed} could not be opened; nothing was sent)`;
    recorder?.record({
      kind: 'http',
      method: req.method,
      url: req.url,
      duration_ms: Math.round(ms(openStart, openEnd)),
      error: text,
    });
    const message = `${req.method} ${req.url}: ${text}`;
    throw new DriverTransportError(d.code, recorder ? recorder.redact(message) : message, {
      cause: reason,
    });
  }

  // 2. every request but its last byte
  const flights: Flight[] = requests.map((req, index) =>
    session !== undefined
      ? h2Flight(index, req, urls[index] as URL, session, cap)
      : h1Flight(
          index,
          req,
          urls[index] as URL,
          (opened[index] as PromiseFulfilledResult<Socket>).value,
          cap,
        ),
  );
  try {
    // the held phase is bounded too: a target that stops reading ends its flights as timeouts
    const holdTimer = setTimeout(() => {
      for (const f of flights) {
        const err = new Error(`the request could not be written within ${timeoutMs} ms`);
        err.name = 'TimeoutError';
        if (f.answeredAt === undefined) f.abort(err);
      }
    }, timeoutMs);
    await Promise.all(flights.map((f) => f.written));
    clearTimeout(holdTimer);
    const settle = options.settleMs ?? DEFAULT_BURST_SETTLE_MS;
    if (settle > 0) await new Promise((r) => setTimeout(r, settle));
    await options.beforeRelease?.();

    // 3. the release: every held last byte, in one synchronous loop
    const releaseAt = process.hrtime.bigint();
    const releasedAt = new Date().toISOString();
    for (const f of flights) if (f.holding()) f.release();
    const timer = setTimeout(() => {
      for (const f of flights) {
        if (f.answeredAt !== undefined) continue;
        const err = new Error(`no complete answer within ${timeoutMs} ms`);
        err.name = 'TimeoutError';
        f.abort(err);
      }
    }, timeoutMs);
    await Promise.all(flights.map((f) => f.done));
    clearTimeout(timer);

    // 4. results, evidence, spreads
    const results = flights.map((f) => toResult(f, releaseAt, timeoutMs, recorder));
    const sent = results.flatMap((r) => (r.sentAtMs === undefined ? [] : [r.sentAtMs]));
    const answered = results.flatMap((r) =>
      r.response !== undefined && r.answeredAtMs !== undefined ? [r.answeredAtMs] : [],
    );
    return {
      results,
      protocol: session !== undefined ? 'h2' : 'http/1.1',
      released: sent.length,
      spreadMs: sent.length > 1 ? Math.max(...sent) - Math.min(...sent) : 0,
      arrivalSpreadMs: answered.length > 0 ? Math.max(...answered) - Math.min(...answered) : undefined,
      openMs: ms(openStart, openEnd),
      openedAt,
      releasedAt,
    };
  } finally {
    session?.destroy();
  }
}

function oversize(cap: number, bytes: number): DriverTransportError {
  return new DriverTransportError(
    'CPRC_RESPONSE_TOO_LARGE',
    `response body larger than the cap of ${cap} bytes (limits.max_response_bytes; got at least ${bytes})`,
  );
}

/** The result of one flight, recorded as one exchange (as `HttpClient.exchange` records). */
function toResult(
  f: Flight,
  releaseAt: bigint,
  timeoutMs: number,
  recorder: Recorder | undefined,
): BurstResult {
  const { req } = f;
  const out: BurstResult = { index: f.index };
  if (f.sentAt !== undefined) out.sentAtMs = ms(releaseAt, f.sentAt);
  if (f.answeredAt !== undefined) out.answeredAtMs = ms(releaseAt, f.answeredAt);
  if (f.answeredAt !== undefined && (f.sentAt === undefined || f.answeredAt < f.sentAt)) out.early = true;
  const base = {
    kind: 'http' as const,
    method: req.method,
    url: req.url,
    request_headers: f.headers,
    ...(f.body !== undefined ? { request_body: f.body.toString('utf8') } : {}),
    // the racer's timing, in the evidence (results.json `exchanges[].race`)
    race: {
      index: f.index,
      ...(out.sentAtMs === undefined ? {} : { sent_ms: micro(out.sentAtMs) }),
      ...(out.answeredAtMs === undefined ? {} : { answered_ms: micro(out.answeredAtMs) }),
    },
  };
  const start = f.sentAt ?? releaseAt;
  const duration_ms = f.answeredAt === undefined ? 0 : Math.max(0, Math.round(ms(start, f.answeredAt)));
  if (f.failure !== undefined || f.text === undefined || f.status === undefined) {
    const d = describeTransportError(f.failure ?? new Error('no answer'), timeoutMs);
    const partial =
      f.chunks.length > 0
        ? Buffer.concat(f.chunks)
            .subarray(0, MAX_RECORDED_BODY_BYTES * 2)
            .toString('utf8')
        : undefined;
    recorder?.record({
      ...base,
      ...(f.status !== undefined ? { status: f.status } : {}),
      ...(f.resHeaders ? { response_headers: f.resHeaders } : {}),
      ...(partial !== undefined ? { response_body: partial } : {}),
      duration_ms,
      error: d.text,
    });
    const message = `${req.method} ${req.url}: ${d.text}`;
    out.error = new DriverTransportError(d.code, recorder ? recorder.redact(message) : message, {
      cause: f.failure,
    });
    return out;
  }
  const headers = f.resHeaders ?? {};
  recorder?.record({
    ...base,
    status: f.status,
    response_headers: headers,
    response_body: f.text,
    duration_ms,
  });
  const response: HttpResponse = {
    status: f.status,
    headers,
    text: f.text,
    method: req.method,
    url: req.url,
  };
  const parsed = parseJsonAnswer(f.text);
  if ('json' in parsed) response.json = parsed.json;
  else response.jsonError = parsed.error;
  out.response = response;
  return out;
}

/** What {@link burstThrough} needs of a driver's HTTP client (an `HttpClient` has all of it). */
export interface BurstClient {
  /** The client's CA, bounds and recorder, so a burst talks to the target as the client does. */
  readonly burstOptions: Pick<BurstOptions, 'ca' | 'timeoutMs' | 'maxResponseBytes' | 'recorder'>;
  /** The open circuit of the origin of `url`, if its target stopped answering. */
  circuit(url: string): { at: string; cause: string; failures: number } | undefined;
  /** Feeds the circuit breaker of `url`'s origin: `failure` when no usable answer came. */
  observe?(url: string, failure?: unknown): void;
}

/**
 * A {@link burst} through a driver's HTTP client: its CA, bounds and recorder; a target whose
 * circuit is open ends the burst at once, naming when and how it stopped answering, and the
 * burst feeds the circuit breaker as one exchange (an answer to any racer shows the target alive).
 * @example
 * ```ts
 * const b = await burstThrough(http, Array.from({ length: 32 }, () => ({ method: 'GET', url })));
 * ```
 */
export async function burstThrough(
  client: BurstClient,
  requests: readonly HttpRequest[],
  options: Pick<BurstOptions, 'settleMs' | 'beforeRelease'> = {},
): Promise<BurstOutcome> {
  for (const r of requests) {
    const open = client.circuit(r.url);
    if (open !== undefined) {
      const text = `circuit open: the target (${new URL(r.url).origin}) stopped answering at ${open.at} (${open.cause}); after ${open.failures} consecutive exchanges without an answer its remaining exchanges end at once`;
      client.burstOptions.recorder?.record({
        kind: 'http',
        method: r.method,
        url: r.url,
        duration_ms: 0,
        error: text,
      });
      const message = `${r.method} ${r.url}: ${text}`;
      const recorder = client.burstOptions.recorder;
      throw new DriverTransportError(
        'CPRC_TARGET_UNREACHABLE',
        recorder ? recorder.redact(message) : message,
      );
    }
  }
  const url = (requests[0] as HttpRequest).url;
  try {
    const outcome = await burst(requests, { ...client.burstOptions, ...options });
    const answered = outcome.results.some((r) => r.response !== undefined);
    client.observe?.(url, answered ? undefined : outcome.results.find((r) => r.error)?.error);
    return outcome;
  } catch (err) {
    client.observe?.(url, err);
    throw err;
  }
}

/**
 * The race a driver reports from a burst: every racer's answer read by `read` (the driver's own
 * reading of that endpoint's answers, which throws on an unreadable one), in order. A racer with
 * no answer (reset, timeout, garbage, oversize) ends the race with its classified error: a race
 * with a racer the target did not answer shows nothing about single success.
 */
export function raceFromBurst<T>(outcome: BurstOutcome, read: (res: HttpResponse) => T): RaceOutcome<T> {
  const results = outcome.results.map((r) => {
    if (r.error !== undefined) throw r.error;
    return read(r.response as HttpResponse);
  });
  return {
    results,
    inFlight: outcome.released,
    spreadMs: outcome.spreadMs,
    ...(outcome.arrivalSpreadMs === undefined ? {} : { arrivalSpreadMs: outcome.arrivalSpreadMs }),
    synchronisation: `last byte, ${outcome.protocol}`,
  };
}
