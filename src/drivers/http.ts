import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { Agent, type Dispatcher, request } from 'undici';
import { CprcError } from '../errors.js';
import type { Recorder } from './recorder.js';
import { DriverTransportError } from './types.js';

/** Default of `timeouts.request_ms`. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
/** Default of `limits.max_response_bytes` (1 MiB). */
export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;

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
}

/** One HTTP request. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'HEAD';
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

/**
 * HTTP(S) client of the default drivers: undici with the configured CA, a bound on every
 * exchange, a response-size cap, and every exchange recorded (redacted) as evidence. A failed
 * exchange throws {@link DriverTransportError}; every HTTP answer (any status) is returned.
 * @example
 * ```ts
 * const http = new HttpClient({ caFile: '/path/ca.pem', timeoutMs: 5000, recorder });
 * const r = await http.exchange({ method: 'GET', url: 'https://127.0.0.1:8443/cpr/abc' });
 * await http.close();
 * ```
 */
export class HttpClient {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly #dispatcher: Dispatcher;
  readonly #recorder: Recorder | undefined;

  constructor(options: HttpClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
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
    this.#dispatcher = new Agent({
      connect: ca === undefined ? { timeout: this.timeoutMs } : { ca, timeout: this.timeoutMs },
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      // keep-alive without pipelining: connections are reused, so a check can warm the pool and
      // then fire concurrent requests that reach the target together (race checks), instead of
      // serialising on TLS handshakes; concurrent requests each get a connection of their own
      pipelining: 1,
    });
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
    const base = {
      kind: 'http' as const,
      method: req.method,
      url: req.url,
      request_headers: headers,
      ...(body !== undefined ? { request_body: body } : {}),
    };
    let status: number | undefined;
    let resHeaders: Record<string, string> | undefined;
    let text: string | undefined;
    try {
      const res = await request(req.url, {
        method: req.method,
        headers,
        body,
        dispatcher: this.#dispatcher,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      status = res.statusCode;
      resHeaders = flattenHeaders(res.headers);
      const declared = Number(resHeaders['content-length']);
      if (Number.isFinite(declared) && declared > this.maxResponseBytes) {
        res.body.destroy();
        throw this.#oversize(declared);
      }
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of res.body) {
        const b = chunk as Buffer;
        total += b.length;
        if (total > this.maxResponseBytes) {
          res.body.destroy();
          throw this.#oversize(total);
        }
        chunks.push(b);
      }
      text = Buffer.concat(chunks).toString('utf8');
    } catch (err) {
      const d = describeTransportError(err, this.timeoutMs);
      const message = `${req.method} ${req.url}: ${d.text}`;
      this.#recorder?.record({
        ...base,
        ...(status !== undefined ? { status } : {}),
        ...(resHeaders ? { response_headers: resHeaders } : {}),
        duration_ms: Math.round(performance.now() - started),
        error: d.text,
      });
      throw new DriverTransportError(d.code, this.#recorder ? this.#recorder.redact(message) : message, {
        cause: err,
      });
    }
    this.#recorder?.record({
      ...base,
      status,
      response_headers: resHeaders,
      response_body: text,
      duration_ms: Math.round(performance.now() - started),
    });
    const out: HttpResponse = { status, headers: resHeaders, text };
    if (text.length > 0) {
      try {
        out.json = JSON.parse(text);
      } catch (err) {
        out.jsonError = `the body is not JSON (${(err as Error).message})`;
      }
    } else {
      out.jsonError = 'the body is empty';
    }
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

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/**
 * Reads the profile error body `{"error": {"code", "message"}}` (profile section 1) from an
 * answer; members absent or of the wrong type are left out.
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
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}
