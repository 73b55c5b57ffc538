import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher } from 'undici';
import { boundedCache } from '../caches.js';
import { CprcError } from '../errors.js';
import { jsonTextDepth } from '../model/util.js';
import { CappedRequestError, cappedRequest } from '../net/request.js';
import { clientSecureContext } from '../net/secure-context.js';
import { MAX_RECORDED_BODY_BYTES, type Recorder } from './recorder.js';
import {
  type DriverError,
  DriverTransportError,
  type UndefinedRequest,
  type UndefinedRequestAnswer,
} from './types.js';

/** Default of `timeouts.request_ms`. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** Default of `limits.max_response_bytes` (1 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
/**
 * Deepest JSON nesting the suite reads from a target. No profile message nests beyond about ten
 * levels; a deeper answer is reported as a protocol error naming its depth (checks walk JSON
 * recursively, and a 100,000-deep answer would otherwise overflow their stack).
 */
export const MAX_JSON_DEPTH = 512;
/** Consecutive exchanges without an answer after which a target's circuit opens. */
export const DEFAULT_BREAKER_THRESHOLD = 3;

/** Options of an {@link HttpClient}. */
export interface HttpClientOptions {
  /** PEM of the CA that signed the targets' certificates (`tls.ca_file` content). */
  ca?: string | Buffer;
  /** Path of that PEM file (read once); ignored when `ca` is given. */
  caFile?: string;
  /** Bound of every exchange, from sending to the last body byte (`timeouts.request_ms`). */
  timeoutMs?: number;
  /** Largest accepted response body (`limits.max_response_bytes`). */
  maxResponseBytes?: number;
  /** Where exchanges are recorded (redacted) as evidence. */
  recorder?: Recorder;
  /** The target this client talks to, named in circuit-breaker errors (e.g. `payee`). */
  target?: string;
  /**
   * Consecutive exchanges without an answer (timeout, refused, reset, TLS failure) at one origin
   * after which its circuit opens: every later exchange with it fails at once, naming when and
   * how the target died. Default {@link DEFAULT_BREAKER_THRESHOLD}; 0 turns the breaker off.
   */
  breakerThreshold?: number;
}

/** One HTTP request. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  url: string;
  headers?: Record<string, string>;
  /** Raw body; use `json` for a JSON body. */
  body?: string;
  /** JSON body (serialised with JSON.stringify; `content-type: application/json` is set). */
  json?: unknown;
}

/** A complete HTTP answer. */
export interface HttpResponse {
  status: number;
  /** Headers with lower-case names (repeated headers joined by ", "). */
  headers: Record<string, string>;
  /** The body as UTF-8 text. */
  text: string;
  /** The parsed body when it is JSON; `undefined` otherwise (see `jsonError`). */
  json?: unknown;
  /** Why the body is not JSON, when it is not. */
  jsonError?: string;
  /** Method of the request (set by {@link HttpClient.exchange}; names the exchange in errors). */
  method?: string;
  /** URL of the request (set by {@link HttpClient.exchange}). */
  url?: string;
}

/**
 * Describes a transport failure in words a person can act on: refused, TLS, timeout, DNS, reset,
 * garbage. Used by the drivers and by the preflight of `cprc run`.
 */
export function describeTransportError(
  err: unknown,
  timeoutMs: number,
): { code: CprcError['code']; text: string } {
  const e = err as {
    code?: string;
    name?: string;
    message?: string;
    cause?: { code?: string; message?: string };
  };
  const code = e?.code ?? e?.cause?.code ?? '';
  const msg = e?.message ?? String(err);
  if (err instanceof CprcError) return { code: err.code, text: err.message };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || /TIMEOUT/.test(code)) {
    return {
      code: 'CPRC_TIMEOUT',
      text: `timeout: no complete answer within ${timeoutMs} ms (timeouts.request_ms)`,
    };
  }
  if (code === 'ECONNREFUSED') return { code: 'CPRC_TARGET_UNREACHABLE', text: 'connection refused' };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return { code: 'CPRC_TARGET_UNREACHABLE', text: 'host not found' };
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') {
    return { code: 'CPRC_TARGET_UNREACHABLE', text: 'host unreachable' };
  }
  if (
    /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME|ALTNAME/i.test(code) ||
    /certificate|tls|ssl/i.test(msg)
  ) {
    return {
      code: 'CPRC_TARGET_UNREACHABLE',
      text: `TLS error: ${code ? `${code}: ` : ''}${msg} (is tls.ca_file the CA that signed the target's certificate?)`,
    };
  }
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'CPRC_DRIVER',
      text: 'the header section of the answer is larger than the client accepts (16 KiB): not a usable answer',
    };
  }
  if (code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') {
    return {
      code: 'CPRC_DRIVER',
      text: `the body does not match its Content-Length (a truncated or overlong answer): ${msg}`,
    };
  }
  if (code === 'UND_ERR_BODY_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return {
      code: 'CPRC_TIMEOUT',
      text: `timeout: no complete answer within ${timeoutMs} ms (timeouts.request_ms; ${code === 'UND_ERR_BODY_TIMEOUT' ? 'the body stalled' : 'no headers came'})`,
    };
  }
  if (
    code === 'HPE_INVALID_CONSTANT' ||
    /HPE_|UND_ERR_INFO|parse/i.test(code) ||
    e?.name === 'HTTPParserError'
  ) {
    return { code: 'CPRC_DRIVER', text: `the target did not answer with valid HTTP (${msg})` };
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') {
    return {
      code: 'CPRC_TARGET_UNREACHABLE',
      text: `connection closed by the target before a complete answer (${msg})`,
    };
  }
  return { code: 'CPRC_DRIVER', text: `${code ? `${code}: ` : ''}${msg}` };
}

/** State of one origin's circuit breaker. */
interface Breaker {
  /** Consecutive exchanges without an answer. */
  failures: number;
  /** When the first of those failures happened (ISO 8601). */
  since?: string;
  /** How the last of them failed. */
  cause?: string;
  /** Set once the circuit is open: the time the target stopped answering and why. */
  open?: { at: string; cause: string; failures: number };
}

/** True for failures where the target gave no usable answer in time (they feed the breaker). */
function isNoAnswer(code: CprcError['code']): boolean {
  return code === 'CPRC_TIMEOUT' || code === 'CPRC_TARGET_UNREACHABLE';
}

/**
 * HTTP(S) client of the default drivers: undici with the configured CA, a bound on every
 * exchange, a response-size cap, a circuit breaker per origin, and every exchange recorded
 * (redacted) as evidence. A failed exchange throws {@link DriverTransportError}; every HTTP
 * answer (any status) is returned, with `json` set only when the body is JSON no deeper than
 * {@link MAX_JSON_DEPTH} (else `jsonError` names why).
 * @example
 * ```ts
 * const http = new HttpClient({ caFile: '/path/ca.pem', timeoutMs: 5000, recorder, target: 'payee' });
 * const r = await http.exchange({ method: 'GET', url: 'https://127.0.0.1:8443/cpr/abc' });
 * await http.close();
 * ```
 */
export class HttpClient {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly breakerThreshold: number;
  readonly target: string | undefined;
  readonly #dispatcher: Dispatcher;
  readonly #recorder: Recorder | undefined;
  readonly #ca: string | Buffer | undefined;
  readonly #breakers = new Map<string, Breaker>();

  constructor(options: HttpClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.breakerThreshold = options.breakerThreshold ?? DEFAULT_BREAKER_THRESHOLD;
    this.target = options.target;
    this.#recorder = options.recorder;
    let ca = options.ca;
    if (ca === undefined && options.caFile !== undefined) {
      try {
        ca = readFileSync(options.caFile);
      } catch (err) {
        throw new CprcError(
          'CPRC_CONFIG_INVALID',
          `tls.ca_file: cannot read ${options.caFile} (${(err as Error).message}); give the path of a PEM CA certificate`,
        );
      }
    }
    this.#ca = ca;
    this.#dispatcher = new Agent({
      // one TLS context for every connection of the pool (tls.connect given `ca` builds one each)
      connect: { secureContext: clientSecureContext(ca), timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // keep-alive without pipelining: connections are reused, so a check can warm the pool and
      // then fire concurrent requests that reach the target together (race checks), instead of
      // serialising on TLS handshakes; concurrent requests each get a connection of their own
      pipelining: 1,
    });
  }

  /**
   * What a last-byte-synchronised burst (`burst.ts`, race checks) needs to talk to the target as
   * this client does: its CA, bounds and recorder.
   */
  get burstOptions(): {
    ca?: string | Buffer;
    timeoutMs: number;
    maxResponseBytes: number;
    recorder?: Recorder;
  } {
    return {
      ...(this.#ca === undefined ? {} : { ca: this.#ca }),
      timeoutMs: this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
      ...(this.#recorder === undefined ? {} : { recorder: this.#recorder }),
    };
  }

  /**
   * Forgets what every circuit breaker of this client counted, as a new client would: for a
   * harness that runs the suite again, against a target started afresh, with the same client.
   */
  resetCircuits(): void {
    this.#breakers.clear();
  }

  /**
   * The open circuit of the origin of `url`, if any: when and how its target stopped answering.
   */
  circuit(url: string): { at: string; cause: string; failures: number } | undefined {
    return this.#breakers.get(originOf(url))?.open;
  }

  /**
   * Feeds the circuit breaker of `url`'s origin with the outcome of an exchange made outside
   * {@link HttpClient.exchange} (the burst of a race check counts as one): `failure` when no
   * usable answer came, nothing when one did.
   */
  observe(url: string, failure?: unknown): void {
    const origin = originOf(url);
    const breaker = this.#breakers.get(origin) ?? { failures: 0 };
    this.#breakers.set(origin, breaker);
    const d = failure === undefined ? undefined : describeTransportError(failure, this.timeoutMs);
    if (d === undefined || !isNoAnswer(d.code) || this.breakerThreshold <= 0) {
      breaker.failures = 0;
      delete breaker.since;
      return;
    }
    breaker.failures += 1;
    breaker.since ??= new Date().toISOString();
    breaker.cause = d.text;
    if (breaker.failures >= this.breakerThreshold) {
      breaker.open = { at: breaker.since, cause: d.text, failures: breaker.failures };
    }
  }

  /** Sends one request and reads the whole answer (bounded in time and size). */
  async exchange(req: HttpRequest): Promise<HttpResponse> {
    const headers: Record<string, string> = { accept: 'application/json', ...(req.headers ?? {}) };
    let body = req.body;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] ??= 'application/json';
    }
    const started = performance.now();
    const sentAt = new Date().toISOString();
    const base = {
      kind: 'http' as const,
      method: req.method,
      url: req.url,
      request_headers: headers,
      ...(body !== undefined ? { request_body: body } : {}),
    };
    const origin = originOf(req.url);
    const breaker = this.#breakers.get(origin) ?? { failures: 0 };
    this.#breakers.set(origin, breaker);
    if (breaker.open) {
      const text = `circuit open: ${this.target ?? 'the target'} (${origin}) stopped answering at ${breaker.open.at} (${breaker.open.cause}); after ${breaker.open.failures} consecutive exchanges without an answer its remaining exchanges end at once`;
      this.#recorder?.record({ ...base, duration_ms: 0, error: text });
      const message = `${req.method} ${req.url}: ${text}`;
      throw new DriverTransportError(
        'CPRC_TARGET_UNREACHABLE',
        this.#recorder ? this.#recorder.redact(message) : message,
      );
    }
    let status: number;
    let resHeaders: Record<string, string>;
    let text: string;
    try {
      const res = await cappedRequest(req.url, {
        method: req.method,
        headers,
        ...(body === undefined ? {} : { body }),
        dispatcher: this.#dispatcher,
        timeoutMs: this.timeoutMs,
        maxBytes: this.maxResponseBytes,
      });
      status = res.status;
      resHeaders = flattenHeaders(res.headers);
      text = res.body.toString('utf8');
    } catch (caught) {
      const failure = caught instanceof CappedRequestError ? caught : undefined;
      const err =
        failure?.reason === 'too-large' ? this.#oversize(failure.bytes ?? 0) : (failure?.cause ?? caught);
      const d = describeTransportError(err, this.timeoutMs);
      if (isNoAnswer(d.code) && this.breakerThreshold > 0) {
        breaker.failures += 1;
        // the target stopped answering when the first unanswered request of the streak was sent
        breaker.since ??= sentAt;
        breaker.cause = d.text;
        if (breaker.failures >= this.breakerThreshold) {
          breaker.open = { at: breaker.since, cause: d.text, failures: breaker.failures };
        }
      } else {
        // an answer came (oversize or garbage): the target is alive
        breaker.failures = 0;
        delete breaker.since;
      }
      const message = `${req.method} ${req.url}: ${d.text}`;
      // keep what arrived (head of the body) as evidence of what the target sent
      const partial =
        failure !== undefined && failure.received.length > 0
          ? failure.received.subarray(0, MAX_RECORDED_BODY_BYTES * 2).toString('utf8')
          : undefined;
      this.#recorder?.record({
        ...base,
        ...(failure?.status !== undefined ? { status: failure.status } : {}),
        ...(failure?.headers ? { response_headers: flattenHeaders(failure.headers) } : {}),
        ...(partial !== undefined ? { response_body: partial } : {}),
        duration_ms: Math.round(performance.now() - started),
        error: d.text,
      });
      throw new DriverTransportError(d.code, this.#recorder ? this.#recorder.redact(message) : message, {
        cause: err,
      });
    }
    breaker.failures = 0;
    delete breaker.since;
    this.#recorder?.record({
      ...base,
      status,
      response_headers: resHeaders,
      response_body: text,
      duration_ms: Math.round(performance.now() - started),
    });
    const out: HttpResponse = { status, headers: resHeaders, text, method: req.method, url: req.url };
    const parsed = parseJsonAnswer(text);
    if ('json' in parsed) out.json = parsed.json;
    else out.jsonError = parsed.error;
    return out;
  }

  #oversize(bytes: number): DriverTransportError {
    return new DriverTransportError(
      'CPRC_RESPONSE_TOO_LARGE',
      `response body larger than the cap of ${this.maxResponseBytes} bytes (limits.max_response_bytes; got at least ${bytes})`,
    );
  }

  /** Closes the connection pool. */
  async close(): Promise<void> {
    await this.#dispatcher.close();
  }
}

/** `https://host:port` of a URL (the key of a circuit breaker). */
function originOf(url: string): string {
  // the URL is parsed once per scheme and authority (each exchange names a new path)
  const head = AUTHORITY.exec(url)?.[0] ?? url;
  let origin = origins.get(head);
  if (origin === undefined) {
    try {
      origin = new URL(head).origin;
    } catch {
      origin = head;
    }
    origins.set(head, origin);
  }
  return origin;
}

/** The scheme and authority at the start of an absolute URL. */
const AUTHORITY = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;
/** Origins of the URL heads already read. */
const origins = boundedCache<string, string>(256);

/**
 * Parses a JSON answer of a target, whatever it is: an empty body, a body that is not JSON, a
 * truncated JSON text and a text nesting deeper than {@link MAX_JSON_DEPTH} each give an `error`
 * naming the cause; nothing here recurses over the target's data.
 */
export function parseJsonAnswer(text: string): { json: unknown } | { error: string } {
  if (text.length === 0) return { error: 'the body is empty' };
  // profile 1: a reader may ignore a byte order mark (checks grade the BOM itself from the text)
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const depth = jsonTextDepth(text);
  if (depth > MAX_JSON_DEPTH) {
    return {
      error: `the JSON nests ${depth} levels deep, beyond the suite's limit of ${MAX_JSON_DEPTH} (no profile message nests that deep)`,
    };
  }
  try {
    return { json: JSON.parse(text) };
  } catch (err) {
    const m = (err as Error).message;
    if (/end of (JSON )?input|Unterminated/i.test(m) && /^\s*[[{"]/.test(text)) {
      return { error: `the JSON is truncated: the body ends before the JSON value does (${m})` };
    }
    return { error: `the body is not JSON (${m})` };
  }
}

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * An answer the suite cannot read as a profile answer (profile section 1): a redirect, a server
 * error, a body that is not JSON, truncated JSON, JSON nested beyond {@link MAX_JSON_DEPTH}, a
 * compressed body the suite never asked for, a wrong content type, or the wrong shape. The target
 * did answer (so this never feeds the circuit breaker), but what it said is neither a success nor
 * a rejection: the suite library turns it into an `error` result naming the cause, so no check
 * can mistake it for either.
 */
export class ProtocolError extends DriverTransportError {
  /** The cause, in words (`a redirect (HTTP 302) to http://...`). */
  readonly causeText: string;
  /** HTTP status of the answer, when there was one. */
  readonly status: number | undefined;

  constructor(cause: string, where?: { method?: string; url?: string; status?: number }) {
    const at = where?.url ? `${where.method ?? 'GET'} ${where.url}: ` : '';
    super('CPRC_DRIVER', `${at}protocol error: not a profile answer: ${cause}`);
    this.name = 'ProtocolError';
    this.causeText = cause;
    this.status = where?.status;
  }
}

/** True when `err` is a {@link ProtocolError}. */
export function isProtocolError(err: unknown): err is ProtocolError {
  return err instanceof ProtocolError;
}

/** True when a Content-Type names `application/json` (any parameters; case-insensitive). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  // a repeated header arrives joined by ", ": two types are not one
  if (contentType.includes(',')) return false;
  return (contentType.split(';')[0] ?? '').trim().toLowerCase() === 'application/json';
}

/** Options of {@link unreadableCause} and {@link readProfileAnswer}. */
export interface AnswerRules {
  /**
   * Check `Content-Type: application/json` (default true). Turn it off only where a check of its
   * own grades the content type (CPR retrieval, `CPR-4.1-CONTENT-TYPE`), so that check can fail.
   */
  contentType?: boolean;
}

/**
 * Why an answer is not a readable profile answer (profile section 1), or `undefined` when it is
 * one: 2xx or 4xx, not compressed, a JSON body (complete, at most {@link MAX_JSON_DEPTH} deep)
 * served as `application/json`, and a 4xx carrying the `{"error": {...}}` object. Shapes of
 * successes are each endpoint's business (its driver or its checks).
 * @example
 * ```ts
 * const cause = unreadableCause(res); // 'a redirect (HTTP 302) to http://x/; the profile has no redirects...'
 * ```
 */
export function unreadableCause(res: HttpResponse, rules: AnswerRules = {}): string | undefined {
  const { status } = res;
  if (status >= 300 && status < 400) {
    const loc = res.headers.location;
    return `a redirect (HTTP ${status}${loc ? ` to ${loc}` : ''}); the profile has no redirects and the suite does not follow them`;
  }
  if (status >= 500) return `a server error (HTTP ${status})`;
  if (status < 200 || status >= 600) return `an unexpected HTTP status ${status}`;
  const encoding = res.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
    return `a body compressed with Content-Encoding ${JSON.stringify(encoding)} that the suite did not ask for (it sends no Accept-Encoding)`;
  }
  if (res.json === undefined) return res.jsonError ?? 'the body is not JSON';
  if (rules.contentType !== false && !isJsonContentType(res.headers['content-type'])) {
    const ct = res.headers['content-type'];
    return `wrong content type ${ct === undefined ? '(none)' : JSON.stringify(ct)}: a JSON answer of the profile is served as application/json`;
  }
  if (status >= 400) {
    const e = (res.json as { error?: unknown } | null)?.error;
    if (e === null || typeof e !== 'object' || Array.isArray(e)) {
      return `wrong shape: an HTTP ${status} answer without the profile error object {"error": {"code", "message"}}`;
    }
  }
  return undefined;
}

/**
 * Throws a {@link ProtocolError} naming the cause when `res` is not a readable profile answer
 * (see {@link unreadableCause}); returns `res` otherwise.
 */
export function assertReadable(res: HttpResponse, rules: AnswerRules = {}): HttpResponse {
  const cause = unreadableCause(res, rules);
  if (cause !== undefined) {
    throw new ProtocolError(cause, {
      ...(res.method !== undefined ? { method: res.method } : {}),
      ...(res.url !== undefined ? { url: res.url } : {}),
      status: res.status,
    });
  }
  return res;
}

/**
 * Reads an answer as the profile says (section 1): a readable 2xx is a success with its JSON; a
 * readable 4xx a rejection with the error body's `code` and `message`; anything else (3xx, 5xx,
 * not JSON, truncated, too deep, compressed, wrong content type, a 4xx without the error object)
 * throws a {@link ProtocolError} naming the cause. The one call every driver makes per answer.
 * @example
 * ```ts
 * const a = readProfileAnswer(await http.exchange({ method: 'GET', url }));
 * if (a.ok) use(a.json); else expect(a.error.code).toBe('TOKEN_CONSUMED');
 * ```
 */
export function readProfileAnswer(
  res: HttpResponse,
  rules: AnswerRules = {},
):
  | { ok: true; status: number; json: unknown; headers: Record<string, string> }
  | { ok: false; status: number; error: DriverError; headers: Record<string, string> } {
  assertReadable(res, rules);
  if (res.status < 300) return { ok: true, status: res.status, json: res.json, headers: res.headers };
  return { ok: false, status: res.status, error: errorFromResponse(res), headers: res.headers };
}

/**
 * Reads the profile error body `{"error": {"code", "message"}}` (profile section 1) from an
 * error answer; members absent or of the wrong type are left out. It reads any answer: call
 * {@link assertReadable} (or use {@link readProfileAnswer}) first wherever a redirect, a server
 * error or a body that is not a JSON error object must never count as a rejection.
 */
export function errorFromResponse(res: HttpResponse): {
  status: number;
  code?: string;
  message?: string;
  body: unknown;
} {
  const out: { status: number; code?: string; message?: string; body: unknown } = {
    status: res.status,
    body: res.json !== undefined ? res.json : res.text,
  };
  const e = (res.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if (e && typeof e === 'object') {
    if (typeof e.code === 'string') out.code = e.code;
    if (typeof e.message === 'string') out.message = e.message;
  }
  return out;
}

/** Joins a base URL and a path without doubling or dropping the `/`. */
/**
 * Sends a request profile 1 does not define to `baseUrl` + `req.path` and returns the answer
 * as received (nothing judged: the checks grade its status and body). Used by the default drivers'
 * `undefinedRequest`.
 * @example
 * ```ts
 * const a = await sendUndefinedRequest(http, 'https://127.0.0.1:8443', { method: 'PUT', base: 'api', path: 'cpr/x' });
 * ```
 */
export async function sendUndefinedRequest(
  http: HttpClient,
  baseUrl: string,
  req: UndefinedRequest,
): Promise<UndefinedRequestAnswer> {
  const res = await http.exchange({
    method: req.method,
    url: joinUrl(baseUrl, req.path),
    ...(req.body === undefined ? {} : { body: req.body, headers: { 'content-type': 'application/json' } }),
  });
  return {
    status: res.status,
    headers: res.headers,
    text: res.text,
    ...(res.json === undefined ? {} : { json: res.json }),
  };
}

export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
