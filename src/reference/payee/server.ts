/**
 * The reference payee system (spec 4.1-4.3, 5, 7, INV-8; profile 2): CPR retrieval over HTTPS
 * with single-use ephemeral tokens, the optional payee harness, and a plain-HTTP listener that
 * never serves a CPR.
 *
 * @packageDocumentation
 */
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { renderQrPng } from '../../codec/qr.js';
import { encodeInlineUri, encodeReferenceUri } from '../../codec/uri.js';
import { CprcError } from '../../errors.js';
import { DocumentBuilder, rfc3339 } from './documents.js';
import { parseClockAdvance, parseCreateRequest, parseFulfillment } from './harness.js';
import { RequestRegistry } from './requests.js';
import { MAX_TOKEN_TTL_SECONDS, TokenStore } from './tokens.js';

/** Options of {@link startReferencePayee}. */
export interface ReferencePayeeOptions {
  /** Server certificate and key (PEM), e.g. from `createLoopbackPki().server`. */
  tls: { certPem: string; keyPem: string };
  /** Listen address; default `127.0.0.1`. */
  host?: string;
  /** HTTPS port; default 0 (any free port). */
  port?: number;
  /** Plain-HTTP port; default 0 (any free port). */
  plainPort?: number;
  /**
   * Whether to listen on plain HTTP at all (answering 426 to everything); default true. A payee
   * may have no plain-HTTP listener (spec 5 rule 5 only forbids serving a CPR there).
   */
  plainHttp?: boolean;
  /** Token lifetime ceiling in seconds, 1..900; default 900 (spec 5 rule 1, profile 2). */
  maxTokenTtlSeconds?: number;
  /** Validity window ceiling (expires_at - created_at) in seconds; default 30 days (INV-8). */
  maxValiditySeconds?: number;
  /** Validity window when the harness asks for none; default 3600 s (capped by the ceiling). */
  defaultValiditySeconds?: number;
  /** Largest harness body accepted, bytes; default 64 KiB. */
  maxBodyBytes?: number;
  /** The payee's clock; default `() => new Date()`. Tests pass a controllable clock. */
  clock?: () => Date;
  /**
   * Whether the harness offers the optional test clock `POST {harness}/clock` (profile 2);
   * default true. Without it the endpoint answers 404 like any unknown path.
   */
  testClock?: boolean;
  /** Token store (seam for broken variants); default a fresh {@link TokenStore}. */
  tokenStore?: TokenStore;
  /** Document builder (seam for broken variants); default a fresh {@link DocumentBuilder}. */
  documentBuilder?: DocumentBuilder;
  /** Request registry (seam for broken variants); default a fresh {@link RequestRegistry}. */
  requestRegistry?: RequestRegistry;
}

/** A running reference payee. */
export interface RunningPayee {
  /** HTTPS base URL; CPRs are at `{baseUrl}/cpr/{token}`. */
  baseUrl: string;
  /** Harness URL: `{baseUrl}/harness`. */
  harnessUrl: string;
  /** The plain-HTTP listener's URL (never serves a CPR); absent when started with `plainHttp: false`. */
  plainHttpUrl?: string;
  /** Stops both listeners and drops open connections. */
  close(): Promise<void>;
}

/** The profile's error body (profile 1). Never contains CPR fields (profile 2). */
function errorBody(code: string, message: string): string {
  return JSON.stringify({ error: { code, message } });
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    // Stryker disable next-line StringLiteral: no clause asks for a cache-control header (a token is single-use anyway)
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

function positiveInt(
  name: string,
  v: number | undefined,
  fallback: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const value = v ?? fallback;
  if (!Number.isSafeInteger(value) || value < 1 || value > max) {
    throw new CprcError('CPRC_USAGE', `${name} must be an integer from 1 to ${max}, got ${String(v)}`);
  }
  return value;
}

/**
 * The reference payee. Components are injectable and every duty is an overridable method, so a
 * deliberately broken variant (`test/broken/`) changes exactly one behaviour.
 *
 * @example
 * ```ts
 * const payee = await new ReferencePayee({ tls: pki.server }).start();
 * ```
 */
export class ReferencePayee {
  /** Token store (spec 5). */
  protected readonly tokens: TokenStore;
  /** Document builder (spec 2). */
  protected readonly documents: DocumentBuilder;
  /** Issued requests (spec 4.3 rule 5). */
  protected readonly requests: RequestRegistry;
  /** The clock. */
  protected readonly clock: () => Date;
  /** Token lifetime ceiling, seconds. */
  protected readonly maxTokenTtlSeconds: number;
  /** Validity ceiling, seconds. */
  protected readonly maxValiditySeconds: number;
  /** Default validity, seconds. */
  protected readonly defaultValiditySeconds: number;
  /** Harness body limit, bytes. */
  protected readonly maxBodyBytes: number;
  /** HTTPS base URL, set when listening starts (nothing reads it before). */
  protected baseUrl!: string;
  /**
   * How far the test clock has been advanced, ms (profile 2: `POST {harness}/clock`); only ever
   * grows. Every expiry decision reads {@link ReferencePayee.now}, which adds it.
   */
  protected clockOffsetMs = 0;

  constructor(protected readonly options: ReferencePayeeOptions) {
    if (
      options?.tls === undefined ||
      typeof options.tls.certPem !== 'string' ||
      typeof options.tls.keyPem !== 'string'
    ) {
      throw new CprcError(
        'CPRC_USAGE',
        'the reference payee needs tls: { certPem, keyPem } (e.g. from createLoopbackPki())',
      );
    }
    this.tokens = options.tokenStore ?? new TokenStore();
    this.documents = options.documentBuilder ?? new DocumentBuilder();
    this.requests = options.requestRegistry ?? new RequestRegistry();
    this.clock = options.clock ?? (() => new Date());
    // Spec 5 rule 1 / profile 2: a token lifetime of at most 900 s.
    this.maxTokenTtlSeconds = positiveInt(
      'maxTokenTtlSeconds',
      options.maxTokenTtlSeconds,
      MAX_TOKEN_TTL_SECONDS,
      MAX_TOKEN_TTL_SECONDS,
    );
    // INV-8: a bounded expires_at.
    this.maxValiditySeconds = positiveInt('maxValiditySeconds', options.maxValiditySeconds, 30 * 24 * 3600);
    this.defaultValiditySeconds = Math.min(
      positiveInt('defaultValiditySeconds', options.defaultValiditySeconds, 3600),
      this.maxValiditySeconds,
    );
    this.maxBodyBytes = positiveInt('maxBodyBytes', options.maxBodyBytes, 64 * 1024);
  }

  /**
   * The payee's notion of now: its clock plus every advance of the test clock (profile 2). Every
   * expiry decision (tokens, requests) and every timestamp the payee writes read it.
   */
  protected now(): Date {
    return new Date(this.clock().getTime() + this.clockOffsetMs);
  }

  /** Starts the HTTPS and plain-HTTP listeners. */
  async start(): Promise<RunningPayee> {
    const host = this.options.host ?? '127.0.0.1';
    let https: Server;
    try {
      https = createHttpsServer(
        { cert: this.options.tls.certPem, key: this.options.tls.keyPem },
        (req, res) => {
          void this.dispatch(req, res, () => this.handleHttps(req, res));
        },
      );
    } catch (cause) {
      // The key is a secret: the message never quotes it.
      throw new CprcError(
        'CPRC_INPUT_INVALID',
        'tls.certPem or tls.keyPem is not a usable PEM certificate and key',
        {
          cause,
        },
      );
    }
    // Outlive a client's idle keep-alive (undici: 4 s by default) so a reused socket is never
    // closed under a request in flight.
    https.keepAliveTimeout = 30_000;
    const plain =
      this.options.plainHttp === false
        ? undefined
        : createHttpServer((req, res) => {
            void this.dispatch(req, res, () => this.handlePlainHttp(req, res));
          });
    const closeAll = async () => {
      const closing = [closeServer(https)];
      if (plain) closing.push(closeServer(plain));
      await Promise.all(closing);
    };
    try {
      const port = await listen(https, host, this.options.port ?? 0);
      const plainPort = plain ? await listen(plain, host, this.options.plainPort ?? 0) : undefined;
      const h = host.includes(':') ? `[${host}]` : host;
      this.baseUrl = `https://${h}:${port}`;
      return {
        baseUrl: this.baseUrl,
        harnessUrl: `${this.baseUrl}/harness`,
        ...(plainPort === undefined ? {} : { plainHttpUrl: `http://${h}:${plainPort}` }),
        close: closeAll,
      };
    } catch (err) {
      await closeAll();
      throw err;
    }
  }

  /** Runs a handler; an unexpected failure becomes a 500 error body, never a hang or a crash. */
  protected async dispatch(req: IncomingMessage, res: ServerResponse, handler: () => void | Promise<void>) {
    try {
      await handler();
    } catch {
      // Stryker disable next-line ConditionalExpression: the other branch needs a defect failing after the status line was written: only such a defect reaches it
      if (!res.headersSent)
        send(res, 500, errorBody('INTERNAL_ERROR', 'the payee failed to answer this request'));
      else res.destroy();
      req.resume();
    }
  }

  /** Routes an HTTPS request: retrieval (spec 4.1) and the harness (profile 2). */
  protected async handleHttps(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(String(req.url), 'https://payee.invalid').pathname; // always set on a server's request
    // Stryker disable next-line Regex: spec 4.1 and profile 2 name GET {base_url}/cpr/{token} and POST to the harness endpoints; what another method or path gets is not specified
    const retrieval = /^\/cpr\/([^/]*)$/.exec(path);
    if (retrieval !== null) {
      req.resume();
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: spec 4.1 and profile 2 name GET {base_url}/cpr/{token} and POST to the harness endpoints; what another method or path gets is not specified
      if (req.method !== 'GET') {
        // Stryker disable next-line StringLiteral: profile 1 fixes the code and a non-empty message: the words are free
        return send(res, 400, errorBody('INVALID_REQUEST', 'cpr retrieval takes GET only'));
      }
      return this.retrieve(retrieval[1] as string, res, req); // the group always matches (maybe empty)
    }
    const clockPath = this.options.testClock !== false && path === '/harness/clock';
    if (path === '/harness/requests' || path === '/harness/fulfillments' || clockPath) {
      // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: spec 4.1 and profile 2 name GET {base_url}/cpr/{token} and POST to the harness endpoints; what another method or path gets is not specified (without a body it is refused as malformed anyway)
      if (req.method !== 'POST') {
        req.resume();
        // Stryker disable next-line StringLiteral: profile 1 fixes the code and a non-empty message: the words are free
        return send(res, 400, errorBody('INVALID_REQUEST', `${path} takes POST with a json body`));
      }
      const body = await this.readJson(req);
      // Stryker disable next-line ConditionalExpression: equivalent: a body that is not JSON reaches the parsers as undefined, which they refuse with 400 INVALID_REQUEST too
      if (!body.ok) return send(res, 400, errorBody('INVALID_REQUEST', body.message));
      if (clockPath) return this.advanceClock(body.value, res);
      return path === '/harness/requests'
        ? this.createRequest(body.value, res)
        : this.fulfill(body.value, res);
    }
    req.resume();
    // Stryker disable StringLiteral: spec 4.1 and profile 2 name GET {base_url}/cpr/{token} and POST to the harness endpoints; what another method or path gets is not specified
    const noEndpoint = errorBody(
      'INVALID_REQUEST',
      `no endpoint at ${req.method} ${path}; see GET /cpr/{token}`,
    );
    // Stryker restore StringLiteral
    return send(res, 404, noEndpoint);
  }

  /**
   * The plain-HTTP listener (spec 5 rules 4-5: the token and the CPR travel over TLS only):
   * every request gets 426 and an error body, no redirect, no CPR field.
   */
  protected handlePlainHttp(req: IncomingMessage, res: ServerResponse): void | Promise<void> {
    req.resume();
    // Stryker disable StringLiteral,ObjectLiteral: spec 5 rule 5 only forbids serving a CPR over plain HTTP; the plain listener is no endpoint and what else it answers is free (AMB-27)
    send(
      res,
      426,
      errorBody('INVALID_REQUEST', 'this listener does not use tls; cpr payloads are served over https only'),
      { upgrade: 'TLS/1.2, HTTP/1.1', connection: 'close' },
    );
  }

  // Stryker restore StringLiteral,ObjectLiteral

  /**
   * `GET /cpr/{token}` (spec 4.1; spec 5 rules 1-3; profile 2): the first use returns the full
   * CPR; a later use 410 TOKEN_CONSUMED; past its lifetime 410 TOKEN_EXPIRED; never issued 404
   * TOKEN_UNKNOWN.
   */
  protected async retrieve(token: string, res: ServerResponse, _req?: IncomingMessage): Promise<void> {
    const result = await this.tokens.consume(token, this.now());
    switch (result.outcome) {
      case 'served':
        return send(res, 200, result.record.body);
      case 'consumed':
        return send(
          res,
          410,
          errorBody('TOKEN_CONSUMED', 'this token was already used; ask the payee for a new request'),
        );
      case 'expired':
        return send(
          res,
          410,
          errorBody('TOKEN_EXPIRED', 'this token has expired; ask the payee for a new request'),
        );
      case 'unknown':
        return send(res, 404, errorBody('TOKEN_UNKNOWN', 'this payee never issued this token'));
    }
  }

  /** `POST {harness}/requests` (profile 2): builds a CPR and answers 201 `{uri, request_id, ...}`. */
  protected async createRequest(body: unknown, res: ServerResponse): Promise<void> {
    const parsed = parseCreateRequest(body);
    if (!parsed.ok) return send(res, 400, errorBody('INVALID_REQUEST', parsed.message));
    const params = parsed.value;
    const now = this.now();
    const requestId = this.documents.newRequestId();
    const window = this.documents.validityWindow(
      now,
      params.validitySeconds ?? this.defaultValiditySeconds,
      this.maxValiditySeconds,
    );
    const doc = this.documents.build(params, requestId, window);

    let uri: string;
    let tokenExpiresAt: string | undefined;
    if (params.delivery === 'inline') {
      uri = encodeInlineUri(doc);
    } else {
      // Profile 2: the requested lifetime, capped at this payee's maximum (itself at most 900 s).
      const ttl = Math.min(params.tokenTtlSeconds ?? this.maxTokenTtlSeconds, this.maxTokenTtlSeconds);
      const record = this.tokens.issue({ requestId, body: JSON.stringify(doc), ttlSeconds: ttl, now });
      uri = encodeReferenceUri(record.token, this.baseUrl);
      tokenExpiresAt = record.expiresAt.toISOString();
    }
    let qrPngBase64: string | undefined;
    if (params.qr) {
      // Spec 4.3 rule 1; profile 2: byte mode, error correction M or better.
      const qr = await renderQrPng(uri); // error correction M, the codec's default
      if (!qr.ok) {
        // Stryker disable next-line ArrowFunction,StringLiteral: profile 1 fixes the code and a non-empty message: the words are free
        const why = qr.findings.map((f) => f.message).join('; ');
        return send(
          res,
          400,
          errorBody(
            'INVALID_REQUEST',
            // Stryker disable next-line StringLiteral: profile 1 fixes the code and a non-empty message: the words are free
            `cannot render the uri as a qr code: ${why}`,
          ),
        );
      }
      qrPngBase64 = qr.png.toString('base64');
    }
    this.requests.register({ requestId, expiresAt: window.expiresAt });
    send(
      res,
      201,
      JSON.stringify({
        uri,
        request_id: requestId,
        // undefined (inline delivery, no QR asked): not written
        token_expires_at: tokenExpiresAt,
        qr_png_base64: qrPngBase64,
      }),
    );
  }

  /**
   * `POST {harness}/clock {"advance_seconds": N}` (profile 2, optional test clock): moves this
   * payee's notion of now forward by N seconds for every expiry decision, never back; answers
   * 200 `{"now": "<RFC 3339>"}`.
   */
  protected async advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    const parsed = parseClockAdvance(body);
    if (!parsed.ok) return send(res, 400, errorBody('INVALID_REQUEST', parsed.message));
    this.clockOffsetMs += parsed.value * 1000;
    send(res, 200, JSON.stringify({ now: this.now().toISOString() }));
  }

  /**
   * `POST {harness}/fulfillments` (profile 2; spec 4.3 rule 5; spec 7 rule 2): 200 the first
   * time; 409 DUPLICATE_ID after; 409 REQUEST_EXPIRED past expires_at; 404 REQUEST_UNKNOWN.
   */
  protected async fulfill(body: unknown, res: ServerResponse): Promise<void> {
    const parsed = parseFulfillment(body);
    if (!parsed.ok) return send(res, 400, errorBody('INVALID_REQUEST', parsed.message));
    const now = this.now();
    const result = this.requests.fulfill(parsed.value, now);
    switch (result.outcome) {
      case 'fulfilled':
        // Stryker disable next-line ObjectLiteral: profile 2 fixes the status of a fulfilment (200), not its body
        return send(res, 200, JSON.stringify({ request_id: parsed.value, fulfilled_at: rfc3339(now) }));
      case 'duplicate':
        return send(
          res,
          409,
          errorBody('DUPLICATE_ID', 'this request was already fulfilled; it cannot be fulfilled again'),
        );
      case 'expired':
        return send(
          res,
          409,
          errorBody('REQUEST_EXPIRED', 'this request is past its expires_at; it cannot be fulfilled'),
        );
      case 'unknown':
        return send(
          res,
          404,
          errorBody('REQUEST_UNKNOWN', 'this payee never issued a request with this request_id'),
        );
    }
  }

  /** Reads a JSON body up to {@link ReferencePayeeOptions.maxBodyBytes}. */
  protected readJson(
    req: IncomingMessage,
  ): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
    return new Promise((resolve) => {
      const chunks: Buffer[] = [];
      let size = 0;
      let tooLarge = false;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > this.maxBodyBytes) tooLarge = true;
        else chunks.push(chunk);
      });
      // Stryker disable next-line ArrowFunction,StringLiteral,ObjectLiteral,BooleanLiteral: only a client that aborts its own request reaches it, and it reads no answer
      req.on('error', () => resolve({ ok: false, message: 'the request body could not be read' }));
      // one refusal for a body too large and one that is no JSON: the message says which
      const unread = (message: string) => resolve({ ok: false, message });
      req.on('end', () => {
        if (tooLarge) return unread(`the body exceeds ${this.maxBodyBytes} bytes`);
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ ok: true, value: JSON.parse(text) as unknown });
        } catch (e) {
          unread(`the body is not valid json: ${(e as Error).message}`);
        }
      });
    });
  }
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      reject(
        new CprcError(
          'CPRC_IO',
          `the reference payee cannot listen on ${host}:${port}: ${err.code ?? err.message}`,
        ),
      );
    };
    // kept after listening: a later error rejects a promise already settled (no effect) and
    // leaves the process running
    server.once('error', onError);
    server.listen(port, host, () => {
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // a server not listening calls back at once (with an error, ignored)
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Starts the reference payee on 127.0.0.1: `GET {baseUrl}/cpr/{token}` over HTTPS, the harness
 * at `{baseUrl}/harness`, and a plain-HTTP listener that never serves a CPR.
 *
 * @throws CprcError `CPRC_USAGE` for an out-of-range option, `CPRC_INPUT_INVALID` for unusable
 *   TLS material, `CPRC_IO` when a port cannot be bound.
 * @example
 * ```ts
 * const { ca, server } = await createLoopbackPki();
 * const payee = await startReferencePayee({ tls: server, maxTokenTtlSeconds: 300 });
 * // ... POST `${payee.harnessUrl}/requests` {"delivery": "reference"}
 * await payee.close();
 * ```
 */
export function startReferencePayee(options: ReferencePayeeOptions): Promise<RunningPayee> {
  try {
    return new ReferencePayee(options).start();
  } catch (err) {
    return Promise.reject(err);
  }
}
