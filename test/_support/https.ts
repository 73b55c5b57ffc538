/**
 * Test support: an HTTPS client over undici that records every exchange, and a traffic
 * validator that checks each recorded response body against the JSON Schema its route names.
 *
 * Typical use in a vitest file:
 * ```ts
 * const client = createRecordingClient({ ca: pki.ca.certPem });
 * afterEach(() => validateTraffic(client.take(), PAYEE_ROUTES));
 * afterAll(() => client.close());
 * ```
 */
import type { ValidateFunction } from 'ajv';
import { Agent, request } from 'undici';
import { getSchemaValidator } from '../../src/schemas/registry.js';

/** One recorded HTTP exchange. */
export interface Exchange {
  /** Upper-case method. */
  method: string;
  /** The full request URL. */
  url: string;
  /** Request headers as sent (lower-case names). */
  requestHeaders: Record<string, string>;
  /** The request body as sent (text), when there was one. */
  requestText?: string;
  /** The request body parsed as JSON, when it was JSON. */
  requestBody?: unknown;
  /** HTTP status; absent when the request failed before a response (see `error`). */
  status?: number;
  /** Response headers (lower-case names). */
  headers: Record<string, string | string[]>;
  /** The raw response body (UTF-8 text). */
  text: string;
  /** The response body parsed as JSON; `undefined` when empty or not JSON. */
  body: unknown;
  /** Transport error (refused, TLS failure, ...), when there was no response. */
  error?: string;
}

/** Options of {@link createRecordingClient}. */
export interface RecordingClientOptions {
  /** Trust anchor(s), PEM. Without it, only publicly trusted certificates are accepted. */
  ca?: string | string[];
  /** Max connections per origin (default unlimited, so concurrent tests really run concurrently). */
  connections?: number;
  /** Idle keep-alive per socket in ms (default 10 s). */
  keepAliveTimeout?: number;
}

/** Options of one request. */
export interface RequestOptions {
  /** A value sent as JSON (sets `content-type: application/json`). */
  json?: unknown;
  /** A raw text body (e.g. deliberately malformed JSON). */
  text?: string;
  /** Extra request headers. */
  headers?: Record<string, string>;
}

/** A recording HTTPS client. Every call appends to `exchanges`; never throws on HTTP status. */
export interface RecordingClient {
  /** Every exchange since creation or the last {@link RecordingClient.take}. */
  readonly exchanges: Exchange[];
  /** Sends a request and records it. Transport failures are recorded and re-thrown. */
  request(method: string, url: string, opts?: RequestOptions): Promise<Exchange>;
  /** `GET url`. */
  get(url: string, opts?: Omit<RequestOptions, 'json' | 'text'>): Promise<Exchange>;
  /** `POST url` with a JSON body. */
  post(url: string, json: unknown, opts?: Omit<RequestOptions, 'json'>): Promise<Exchange>;
  /** Returns the recorded exchanges and empties the record. */
  take(): Exchange[];
  /** Closes the connection pool. */
  close(): Promise<void>;
}

/**
 * Creates a {@link RecordingClient} over an undici `Agent` trusting `ca`, with keep-alive.
 *
 * @example
 * ```ts
 * const client = createRecordingClient({ ca: pki.ca.certPem });
 * const ex = await client.get(`${payee.baseUrl}/cpr/${token}`);
 * expect(ex.status).toBe(200);
 * ```
 */
export function createRecordingClient(opts: RecordingClientOptions = {}): RecordingClient {
  const agent = new Agent({
    connect: opts.ca === undefined ? {} : { ca: opts.ca },
    keepAliveTimeout: opts.keepAliveTimeout ?? 10_000,
    ...(opts.connections === undefined ? {} : { connections: opts.connections }),
  });
  let exchanges: Exchange[] = [];

  async function send(method: string, url: string, ro: RequestOptions = {}): Promise<Exchange> {
    const requestHeaders: Record<string, string> = { accept: 'application/json' };
    let requestText: string | undefined;
    if (ro.json !== undefined) {
      requestText = JSON.stringify(ro.json);
      requestHeaders['content-type'] = 'application/json';
    } else if (ro.text !== undefined) {
      requestText = ro.text;
      requestHeaders['content-type'] = 'application/json';
    }
    for (const [k, v] of Object.entries(ro.headers ?? {})) requestHeaders[k.toLowerCase()] = v;
    const ex: Exchange = {
      method: method.toUpperCase(),
      url,
      requestHeaders,
      ...(requestText === undefined ? {} : { requestText, requestBody: tryParseJson(requestText) }),
      headers: {},
      text: '',
      body: undefined,
    };
    exchanges.push(ex);
    try {
      const res = await request(url, {
        method: ex.method as 'GET',
        headers: requestHeaders,
        ...(requestText === undefined ? {} : { body: requestText }),
        dispatcher: agent,
      });
      ex.status = res.statusCode;
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) ex.headers[k] = v;
      ex.text = await res.body.text();
      ex.body = tryParseJson(ex.text);
      return ex;
    } catch (err) {
      ex.error = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw err;
    }
  }

  return {
    get exchanges() {
      return exchanges;
    },
    request: send,
    get: (url, o) => send('GET', url, o),
    post: (url, json, o) => send('POST', url, { ...o, json }),
    take() {
      const out = exchanges;
      exchanges = [];
      return out;
    },
    close: () => agent.close(),
  };
}

function tryParseJson(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * One route of a traffic map: responses to `method path` with `status` must validate against
 * `schema` (a registry id such as `'cashpack/error-body'`), or carry no check when `schema` is
 * `null`, which needs a `reason` (e.g. a body the profile does not shape).
 */
export interface TrafficRoute {
  /** HTTP method, upper case. */
  method: string;
  /** Path pattern: literal segments, `:name` for one segment, a trailing `*` for the rest; or a RegExp. */
  path: string | RegExp;
  /** Exact status, a list, or a class such as `'4xx'`. */
  status: number | number[] | '2xx' | '3xx' | '4xx' | '5xx';
  /** Schema id of the registry, or `null` with a reason. */
  schema: string | null;
  /** Why a route has no schema (required when `schema` is null). */
  reason?: string;
}

/** Resolves a schema id to a validator (default: the project registry). */
export type ValidatorResolver = (schemaId: string) => ValidateFunction;

function pathMatches(pattern: string | RegExp, pathname: string): boolean {
  if (pattern instanceof RegExp) return pattern.test(pathname);
  const want = pattern.split('/').filter((s) => s.length > 0);
  const got = pathname.split('/').filter((s) => s.length > 0);
  for (let i = 0; i < want.length; i++) {
    const w = want[i] as string;
    if (w === '*' && i === want.length - 1) return true;
    const g = got[i];
    if (g === undefined) return false;
    if (w.startsWith(':')) continue;
    if (w !== g) return false;
  }
  return want.length === got.length;
}

function statusMatches(want: TrafficRoute['status'], got: number): boolean {
  if (typeof want === 'number') return want === got;
  if (Array.isArray(want)) return want.includes(got);
  return Math.floor(got / 100) === Number(want[0]);
}

/** Finds the first route matching an exchange. The path is matched on the URL's pathname. */
export function findRoute(routes: readonly TrafficRoute[], ex: Exchange): TrafficRoute | undefined {
  if (ex.status === undefined) return undefined;
  const pathname = new URL(ex.url).pathname;
  const status = ex.status;
  return routes.find(
    (r) => r.method === ex.method && pathMatches(r.path, pathname) && statusMatches(r.status, status),
  );
}

/**
 * Lists every problem in recorded traffic: a response whose route has no entry in `routes`, a
 * route with `schema: null` but no reason, a body that is not JSON where a schema applies, and a
 * body that does not validate (with ajv's errors). Exchanges without a response (transport
 * errors) are not checked: the test that made them sees the error.
 */
export function trafficProblems(
  exchanges: readonly Exchange[],
  routes: readonly TrafficRoute[],
  resolve: ValidatorResolver = getSchemaValidator,
): string[] {
  const problems: string[] = [];
  for (const ex of exchanges) {
    if (ex.status === undefined) continue;
    const where = `${ex.method} ${ex.url} -> ${ex.status}`;
    const route = findRoute(routes, ex);
    if (route === undefined) {
      problems.push(`${where}: no route of the traffic map covers this response; add one with its schema`);
      continue;
    }
    if (route.schema === null) {
      if (route.reason === undefined || route.reason.length === 0) {
        problems.push(`${where}: the route has schema null but no reason; give a reason or a schema`);
      }
      continue;
    }
    if (ex.body === undefined) {
      problems.push(
        `${where}: body is not JSON (schema ${route.schema}): ${JSON.stringify(ex.text.slice(0, 200))}`,
      );
      continue;
    }
    const validate = resolve(route.schema);
    if (!validate(ex.body)) {
      const errs = (validate.errors ?? [])
        .map((e) => `${e.instancePath === '' ? '(root)' : e.instancePath} ${e.message ?? e.keyword}`)
        .join('; ');
      problems.push(`${where}: body does not validate against ${route.schema}: ${errs}`);
    }
  }
  return problems;
}

/**
 * Throws an Error listing every problem {@link trafficProblems} finds; returns the number of
 * exchanges checked otherwise. Use in `afterEach`.
 *
 * @example
 * ```ts
 * afterEach(() => { validateTraffic(client.take(), PAYEE_ROUTES); });
 * ```
 */
export function validateTraffic(
  exchanges: readonly Exchange[],
  routes: readonly TrafficRoute[],
  resolve?: ValidatorResolver,
): number {
  const problems = trafficProblems(exchanges, routes, resolve);
  if (problems.length > 0) {
    throw new Error(
      `${problems.length} recorded response(s) break the traffic contract:\n${problems.map((p) => `  - ${p}`).join('\n')}`,
    );
  }
  return exchanges.filter((e) => e.status !== undefined).length;
}
