/**
 * A mock payee for wallet checks that need a reference URI (profile section 3): HTTPS servers on
 * loopback whose certificate is signed by the suite CA the wallet trusts
 * (`tls.suite_ca_cert_file` / `tls.suite_ca_key_file`). Without that CA, the check is skipped.
 *
 * The happy path is one listener (`baseUrl`) serving each offered CPR at `{baseUrl}/cpr/{token}`.
 * For the checks of the retrieval itself (profile 3, "Retrieval of a reference URI") it can also:
 * - serve at an endpoint with a path, a trailing slash, a query, already ending in `/cpr/{token}`,
 *   named by `127.0.0.1`, `localhost` or `[::1]`, percent-encoded in upper- or lower-case hex;
 * - open more listeners (each on its own port, on 127.0.0.1 and, when the machine has it, ::1),
 *   presenting a certificate a wallet must refuse (another CA, another host, expired, not yet
 *   valid) or none at all (plain http);
 * - answer a retrieval with redirects (any 3xx, to any location, a chain or an endless loop);
 * - record every request that reached any listener (listener, path, query, headers), so a check
 *   sees where a token went, whatever the wallet answered.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { type AddressInfo, createServer as createNetServer, type Server } from 'node:net';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CertificateAuthority, ServerCertificate } from '../../src/loopback/tls.js';
import type { Exchange } from '../../src/model/results.js';
import { writeFileAtomic } from '../../src/reporters/atomic.js';
import { getRunContext } from '../../src/runner/context.js';

/** A redirect status a mock payee may answer (RFC 9110 section 15.4). */
export type RedirectStatus = 301 | 302 | 303 | 307 | 308;

/** How the mock answers one token. */
export interface OfferOptions {
  /** Serve the CPR on every retrieval, not only the first (default false: 410 TOKEN_CONSUMED after). */
  reusable?: boolean;
  /**
   * Answer with this status and body instead of the CPR (e.g. 410 and a profile error body); with
   * `redirect`, the answer once the redirects are spent.
   */
  answer?: { status: number; body: unknown };
  /** The token (default 32 random lowercase hex digits; see {@link mockToken}). */
  token?: string;
  /** The listener the endpoint names (default the main one, `baseUrl`). */
  listener?: MockListener;
  /** How the endpoint names the host (default `127.0.0.1`). */
  host?: MockHost;
  /**
   * The endpoint's path before `/cpr/{token}`, written as is (percent-escapes allowed): `''`
   * (default, a bare origin), `'/'`, `'/pay/v1'`, `'/pay/v1/'`...
   */
  path?: string;
  /** The endpoint's query, written as is, without `?` (default none). */
  query?: string;
  /** The endpoint already ends in `/cpr/{token}` (profile 2: a reader accepts it). */
  fullEndpoint?: boolean;
  /** Hex digits of the endpoint's percent-encoding in the URI: `upper` (default, as encodeURIComponent) or `lower`. */
  percentCase?: 'upper' | 'lower';
  /**
   * Leave the sub-delimiters `+ $ , ;` of the endpoint unencoded in the URI (RFC 3986 3.4: a query
   * may hold them as they are; `&` and `=` stay encoded, they delimit the URI's own parameters).
   * A reader percent-decodes the parameter (a `+` is a `+`, not a space as in HTML forms).
   */
  rawSubDelims?: boolean;
  /** Answer the retrieval with redirects instead of the CPR. */
  redirect?: MockRedirect;
}

/** Redirects answered to a retrieval. */
export interface MockRedirect {
  /** The status of each redirect. */
  status: RedirectStatus;
  /**
   * The `Location` of redirect number `hop` (1, 2, ...): an absolute URL or a reference resolved
   * against the request. A location on one of the mock's listeners is answered too: as the CPR
   * once `hops` redirects were answered, else with the next redirect.
   */
  location: string | ((hop: number) => string);
  /** How many redirects are answered (default 1; `Infinity` for a loop that never ends). */
  hops?: number;
  /** Body of each redirect answer (default a small JSON note), e.g. a decoy CPR a wallet must not pay. */
  body?: unknown;
}

/** One offered CPR. */
export interface Offer {
  /** `cpr://{token}?endpoint={percent-encoded endpoint}` (profile section 2). */
  uri: string;
  /** The token. */
  token: string;
  /** Retrieval URL `{endpoint}/cpr/{token}` (the endpoint's path and port kept, its trailing slashes and query left out). */
  url: string;
  /** The endpoint, decoded (what the URI's `endpoint` parameter carries). */
  endpoint: string;
  /** The listener the endpoint names. */
  listener: MockListener;
  /**
   * The request targets (path and query) on `listener` at which the CPR is served: every reading of
   * `{endpoint}/cpr/{token}` the suite allows (see {@link retrievalTargets}).
   */
  targets: readonly string[];
}

/** How an endpoint names the loopback host. */
export type MockHost = '127.0.0.1' | 'localhost' | '::1';

/** The certificate a listener presents. */
export type MockCertificate =
  /** Signed by the suite CA for 127.0.0.1, localhost and ::1, valid now. */
  | 'valid'
  /** For the loopback hosts, valid now, signed by a CA the wallet was never told to trust. */
  | 'untrusted-ca'
  /** Signed by the suite CA, valid now, for another host only (`payee.invalid`). */
  | 'other-host'
  /** Signed by the suite CA, valid now, for the DNS name `localhost` only (no IP address). */
  | 'localhost-only'
  /** Signed by the suite CA, valid now, for the IP addresses 127.0.0.1 and ::1 only (no DNS name). */
  | 'ip-only'
  /** Signed by the suite CA for the loopback hosts, expired yesterday. */
  | 'expired'
  /** Signed by the suite CA for the loopback hosts, valid from tomorrow. */
  | 'not-yet-valid';

/** Options of {@link MockPayee.listen}. */
export interface MockListenerOptions {
  /** The certificate presented (default `valid`); ignored with `plain`. */
  certificate?: MockCertificate;
  /** Plain http: no TLS at all (a trap for a token sent in clear). */
  plain?: boolean;
}

/** One listening port of the mock payee. */
export interface MockListener {
  /** Its name in records and messages, e.g. `main`, `#2 untrusted-ca`, `#3 plain-http`. */
  name: string;
  /** `https`, or `http` for a plain listener. */
  scheme: 'https' | 'http';
  /** The certificate it presents (`none` for plain http). */
  certificate: MockCertificate | 'none';
  /** Its port (the same on 127.0.0.1 and ::1). */
  port: number;
  /** Whether it also listens on ::1 (the machine has IPv6 loopback). */
  ipv6: boolean;
  /** Its origin as `host` names it, e.g. `https://[::1]:4431` (default host 127.0.0.1). */
  origin(host?: MockHost): string;
}

/** One request that reached a listener of the mock payee. */
export interface MockRequest {
  /** The listener's name. */
  listener: string;
  /** The listener's scheme (`http`: whatever it carried travelled in clear). */
  scheme: 'https' | 'http';
  /** The listener's port. */
  port: number;
  /** The local address it arrived on (127.0.0.1 or ::1). */
  address: string;
  /** The HTTP method. */
  method: string;
  /** The request target as sent (path and query). */
  target: string;
  /** The path of the target. */
  path: string;
  /** The query of the target without `?` (undefined: none). */
  query: string | undefined;
  /** The request headers. */
  headers: Record<string, string | string[] | undefined>;
  /** The status answered. */
  status: number;
}

/** A running mock payee. */
export interface MockPayee {
  /** `https://127.0.0.1:{port}` (the main listener). */
  baseUrl: string;
  /** The main listener (valid certificate). */
  main: MockListener;
  /** Offers a CPR under a fresh token. */
  offer(cpr: unknown, options?: OfferOptions): Offer;
  /** How many times the token's CPR (or its `answer`) was served; redirects not counted. */
  retrievals(token: string): number;
  /** Opens one more listener on a fresh port. */
  listen(options?: MockListenerOptions): Promise<MockListener>;
  /** Every request that reached any listener, in order of arrival. */
  requests(): readonly MockRequest[];
  /** The requests that carried `token` anywhere (target or a header value). */
  reached(token: string): MockRequest[];
  /** Stops every listener (also done automatically at the end of the check). */
  close(): Promise<void>;
}

/**
 * A token in a form profile 2 allows: `hex` (lowercase hex) or `base32` (lowercase RFC 4648
 * base32, no padding), of `chars` characters (default: 32 hex digits, 26 base32 characters,
 * 128 and 130 bits), random. `digits` (hex only) makes a token of decimal digits alone.
 */
export function mockToken(form: 'hex' | 'base32' | 'digits', chars?: number): string {
  const alphabet =
    form === 'base32'
      ? 'abcdefghijklmnopqrstuvwxyz234567'
      : form === 'hex'
        ? '0123456789abcdef'
        : '0123456789';
  const length = chars ?? (form === 'base32' ? 26 : 32);
  const bytes = randomBytes(length);
  let token = '';
  for (const b of bytes) token += alphabet[b % alphabet.length];
  return token;
}

/**
 * The request targets at which a retrieval of `{endpoint}/cpr/{token}` may arrive, for an
 * endpoint of path `path` and query `query` (raw, as written in the endpoint), every reading the
 * suite allows (AMB-39):
 * - the path kept, its trailing slashes dropped, then `/cpr/{token}`; with a trailing slash also
 *   the literal `{path}/cpr/{token}` (an empty segment: `/pay//cpr/{token}`);
 * - a query kept after `/cpr/{token}`, or left out, or (the literal reading of the template)
 *   `{path}?{query}/cpr/{token}`.
 * An endpoint already ending in `/cpr/{token}` is retrieved at itself.
 */
export function retrievalTargets(
  token: string,
  path: string,
  query?: string,
  fullEndpoint = false,
): string[] {
  const trimmed = path.replace(/\/+$/, '');
  if (fullEndpoint) return [`${trimmed}/cpr/${token}`];
  const paths = [`${trimmed}/cpr/${token}`];
  if (path.endsWith('/')) paths.push(`${path}/cpr/${token}`);
  if (query === undefined) return paths;
  return [
    ...paths.map((p) => `${p}?${query}`),
    ...paths,
    `${path === '' ? '/' : path}?${query}/cpr/${token}`,
  ];
}

/** A request target with its percent-escapes' hex digits in upper case (RFC 3986 6.2.2.1: equivalent). */
function normalTarget(target: string): string {
  return target.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase());
}

const certificates = new Map<string, Promise<ServerCertificate>>();
let untrustedCa: Promise<CertificateAuthority> | undefined;

const DAY_MS = 86_400_000;

/** Every kind of {@link MockCertificate}, the one most checks use first. */
const MOCK_CERTIFICATES: readonly MockCertificate[] = [
  'valid',
  'untrusted-ca',
  'other-host',
  'localhost-only',
  'ip-only',
  'expired',
  'not-yet-valid',
];

/** How long a process waits for another to issue the run's certificates before issuing its own. */
const SHARED_CERTIFICATES_WAIT_MS = 30_000;

/**
 * The certificate of `kind`, issued once per suite CA (the first use loads the X.509 stack). In a
 * `cprc run --jobs` child (`sharedDir` in the run context), the run's processes share one set:
 * the first process to need one issues every kind into that folder, the others read them (the
 * X.509 stack costs each process that loads it about half a second of CPU).
 */
function certificateOf(kind: MockCertificate): Promise<ServerCertificate> | undefined {
  const { config, sharedDir } = getRunContext();
  const tls = config.tls;
  if (!tls?.suite_ca_cert_file || !tls.suite_ca_key_file) return undefined;
  const certFile = tls.suite_ca_cert_file;
  const keyFile = tls.suite_ca_key_file;
  const key = `${certFile}\n${keyFile}\n${kind}`;
  let cert = certificates.get(key);
  if (!cert) {
    cert =
      sharedDir === undefined
        ? issueCertificate(kind, certFile, keyFile)
        : sharedCertificate(sharedDir, kind, certFile, keyFile);
    certificates.set(key, cert);
  }
  return cert;
}

/** Issues a certificate of `kind` with the suite CA in `certFile`/`keyFile`. */
async function issueCertificate(
  kind: MockCertificate,
  certFile: string,
  keyFile: string,
): Promise<ServerCertificate> {
  // loaded on first use: the X.509 stack is heavy, and only the wallet's checks need a mock payee
  const { createCertificateAuthority, issueServerCertificate, LOOPBACK_HOSTS } = await import(
    '../../src/loopback/tls.js'
  );
  const suiteCa = { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') };
  const loopback = [...LOOPBACK_HOSTS];
  const now = Date.now();
  switch (kind) {
    case 'untrusted-ca':
      untrustedCa ??= createCertificateAuthority({
        commonName: 'cpr-conformance untrusted mock payee CA',
      });
      return issueServerCertificate(await untrustedCa, { hosts: loopback });
    case 'other-host':
      return issueServerCertificate(suiteCa, { hosts: ['payee.invalid'] });
    case 'localhost-only':
      return issueServerCertificate(suiteCa, { hosts: ['localhost'] });
    case 'ip-only':
      return issueServerCertificate(suiteCa, { hosts: ['127.0.0.1', '::1'] });
    case 'expired':
      return issueServerCertificate(suiteCa, {
        hosts: loopback,
        window: { notBefore: new Date(now - 30 * DAY_MS), notAfter: new Date(now - DAY_MS) },
      });
    case 'not-yet-valid':
      return issueServerCertificate(suiteCa, {
        hosts: loopback,
        window: { notBefore: new Date(now + DAY_MS), notAfter: new Date(now + 30 * DAY_MS) },
      });
    default:
      return issueServerCertificate(suiteCa, { hosts: loopback });
  }
}

/** The certificate of `kind` written in `dir` by a process of the run, if there is one yet. */
function readShared(dir: string, kind: MockCertificate): ServerCertificate | undefined {
  try {
    const c = JSON.parse(
      readFileSync(join(dir, `mock-payee-${kind}.json`), 'utf8'),
    ) as Partial<ServerCertificate>;
    return typeof c.certPem === 'string' && typeof c.keyPem === 'string'
      ? { certPem: c.certPem, keyPem: c.keyPem }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The run's certificate of `kind` from `dir`: the first process to ask takes the folder's lock
 * and issues every kind (the one asked first), each file written whole (a rename); the others
 * wait for the file. An issuer that fails removes the lock (and throws); a process whose wait
 * ends without the file, because the lock is gone or after {@link SHARED_CERTIFICATES_WAIT_MS}
 * (the issuer died or stalled), issues its own.
 */
async function sharedCertificate(
  dir: string,
  kind: MockCertificate,
  certFile: string,
  keyFile: string,
): Promise<ServerCertificate> {
  const ready = readShared(dir, kind);
  if (ready) return ready;
  const lock = join(dir, 'mock-payee-certificates.lock');
  let issuer = false;
  try {
    writeFileSync(lock, String(process.pid), { flag: 'wx' });
    issuer = true;
  } catch {
    // another process of the run issues them
  }
  if (issuer) {
    const issue = async (k: MockCertificate): Promise<ServerCertificate> => {
      try {
        const cert = await issueCertificate(k, certFile, keyFile);
        await writeFileAtomic(join(dir, `mock-payee-${k}.json`), JSON.stringify(cert), { mode: 0o600 });
        return cert;
      } catch (err) {
        rmSync(lock, { force: true }); // the waiters issue their own now
        throw err;
      }
    };
    const mine = await issue(kind);
    // the other kinds after, while this check goes on
    void (async () => {
      for (const k of MOCK_CERTIFICATES) if (k !== kind) await issue(k);
    })().catch(() => undefined);
    return mine;
  }
  for (const deadline = Date.now() + SHARED_CERTIFICATES_WAIT_MS; Date.now() < deadline; ) {
    await new Promise((r) => setTimeout(r, 20));
    const cert = readShared(dir, kind);
    if (cert) return cert;
    if (!existsSync(lock)) break;
  }
  return issueCertificate(kind, certFile, keyFile);
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Listens on 127.0.0.1 and, when the machine has IPv6 loopback, ::1 on the same port. The ::1
 * listener hands its connections to the 127.0.0.1 server, so both are one server (one TLS context
 * built, the same handler and connection tracking).
 */
async function listenLoopback(
  make: () => Server,
): Promise<{ servers: Server[]; port: number; ipv6: boolean }> {
  const listen = (server: Server, port: number, host: string) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  for (let attempt = 0; ; attempt++) {
    const v4 = make();
    await listen(v4, 0, '127.0.0.1');
    const { port } = v4.address() as AddressInfo;
    const v6 = createNetServer((socket) => v4.emit('connection', socket));
    try {
      await listen(v6, port, '::1');
      return { servers: [v4, v6], port, ipv6: true };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // the port is taken on ::1 by someone else: try another; no IPv6 loopback: IPv4 alone
      if (code === 'EADDRINUSE' && attempt < 5) {
        await new Promise<void>((resolve) => v4.close(() => resolve()));
        continue;
      }
      return { servers: [v4], port, ipv6: false };
    }
  }
}

function hostPart(host: MockHost): string {
  return host === '::1' ? '[::1]' : host;
}

interface LiveOffer {
  cpr: unknown;
  options: OfferOptions;
  uses: number;
  hops: number;
  /** `{port} {normalised target}` keys this offer answers. */
  keys: Set<string>;
  /**
   * Records a request for this offer with the exchanges of the work that made the offer (in a
   * `--jobs` run, the overlapping run of a property that made it), where a serial run has it.
   */
  record: (exchange: Exchange) => Exchange;
}

/**
 * Starts a mock payee, or returns `undefined` when the run has no suite CA (the caller skips; the
 * suite library's `mockPayee()` does that for you).
 * @example
 * ```ts
 * const mock = await startMockPayee();
 * const { uri, token } = mock!.offer(cpr);
 * const trap = await mock!.listen({ plain: true });
 * const moved = mock!.offer(cpr, { redirect: { status: 302, location: `${trap.origin()}/cpr/x` } });
 * ```
 */
export async function startMockPayee(): Promise<MockPayee | undefined> {
  const mainCert = await certificateOf('valid');
  if (!mainCert) return undefined;
  const { recorder } = getRunContext();
  const offers = new Map<string, LiveOffer>();
  const byKey = new Map<string, LiveOffer>();
  const log: MockRequest[] = [];
  const servers: Server[] = [];
  const listeners: MockListener[] = [];

  /** Registers `url` (absolute) as a place `offer` answers, when it is on one of the listeners. */
  function register(offer: LiveOffer, url: URL): void {
    const port = Number(url.port);
    if (!listeners.some((l) => l.port === port)) return;
    const key = `${port} ${normalTarget(`${url.pathname}${url.search}`)}`;
    offer.keys.add(key);
    byKey.set(key, offer);
  }

  function handlerFor(listener: () => MockListener): Handler {
    return (req, res) => {
      const started = performance.now();
      const l = listener();
      const target = req.url ?? '/';
      const q = target.indexOf('?');
      let status: number;
      let body: unknown;
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      // the happy path's own route (any listener): /cpr/{token} of a token offered
      const simple = /^\/cpr\/([a-z0-9]+)$/.exec(q < 0 ? target : target.slice(0, q));
      const o =
        byKey.get(`${l.port} ${normalTarget(target)}`) ??
        (req.method === 'GET' && simple && offers.get(simple[1] ?? '')?.keys.size === 0
          ? offers.get(simple[1] ?? '')
          : undefined);
      if (req.method !== 'GET' || !o) {
        status = 404;
        body = { error: { code: 'TOKEN_UNKNOWN', message: 'no such token' } };
      } else if (o.options.redirect && o.hops < (o.options.redirect.hops ?? 1)) {
        const r = o.options.redirect;
        o.hops += 1;
        const location = typeof r.location === 'function' ? r.location(o.hops) : r.location;
        const base = `${l.scheme}://${req.headers.host ?? `127.0.0.1:${l.port}`}`;
        if (URL.canParse(location, `${base}${target}`)) register(o, new URL(location, `${base}${target}`));
        status = r.status;
        headers.location = location;
        body = r.body ?? { moved_to: location };
      } else {
        o.uses += 1;
        if (o.options.answer) ({ status, body } = o.options.answer);
        else if (o.uses === 1 || o.options.reusable) [status, body] = [200, o.cpr];
        else
          [status, body] = [
            410,
            { error: { code: 'TOKEN_CONSUMED', message: 'the token was already used' } },
          ];
      }
      log.push({
        listener: l.name,
        scheme: l.scheme,
        port: l.port,
        address: req.socket.localAddress ?? '',
        method: req.method ?? 'GET',
        target,
        path: q < 0 ? target : target.slice(0, q),
        query: q < 0 ? undefined : target.slice(q + 1),
        headers: { ...req.headers },
        status,
      });
      req.resume();
      const text = JSON.stringify(body);
      res.writeHead(status, { ...headers, 'content-length': Buffer.byteLength(text) });
      res.end(text);
      // evidence: what the wallet asked the mock payee, and what it got (with the exchanges of
      // the work that made the offer asked for)
      (o?.record ?? recorder.record.bind(recorder))({
        kind: 'http',
        method: req.method ?? 'GET',
        url: `mock-payee ${l.name === 'main' ? '' : `[${l.name}] `}${target}`,
        status,
        response_body: text,
        duration_ms: Math.round(performance.now() - started),
      });
    };
  }

  async function open(name: string, options: MockListenerOptions): Promise<MockListener> {
    const certificate = options.plain ? 'none' : (options.certificate ?? 'valid');
    const cert = certificate === 'none' ? undefined : await certificateOf(certificate);
    let self: MockListener | undefined;
    const handler = handlerFor(() => self as MockListener);
    const made = await listenLoopback(() =>
      cert ? createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, handler) : createHttpServer(handler),
    );
    servers.push(...made.servers);
    const scheme = cert ? 'https' : 'http';
    self = {
      name,
      scheme,
      certificate,
      port: made.port,
      ipv6: made.ipv6,
      origin: (host = '127.0.0.1') => `${scheme}://${hostPart(host)}:${made.port}`,
    };
    listeners.push(self);
    return self;
  }

  const main = await open('main', { certificate: 'valid' });
  const baseUrl = main.origin();
  return {
    baseUrl,
    main,
    offer(cpr, options = {}) {
      const token = options.token ?? randomBytes(16).toString('hex');
      const listener = options.listener ?? main;
      const origin = listener.origin(options.host);
      const path = options.path ?? '';
      const fullPath = options.fullEndpoint ? `${path.replace(/\/+$/, '')}/cpr/${token}` : path;
      const endpoint = `${origin}${fullPath}${options.query === undefined ? '' : `?${options.query}`}`;
      let encoded = encodeURIComponent(endpoint);
      // %2B, %24, %2C, %3B come only from + $ , ; (a "%" of the endpoint is written %25)
      if (options.rawSubDelims) encoded = encoded.replace(/%(2B|24|2C|3B)/g, (m) => decodeURIComponent(m));
      if (options.percentCase === 'lower') encoded = encoded.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
      const targets = retrievalTargets(token, path, options.query, options.fullEndpoint);
      const live: LiveOffer = {
        cpr,
        options,
        uses: 0,
        hops: 0,
        keys: new Set(),
        record: recorder.recordFromHere(),
      };
      offers.set(token, live);
      const plainHappyPath =
        listener === main && path === '' && options.query === undefined && !options.fullEndpoint;
      // the happy path keeps its old route (any listener); every other offer is served only at its targets
      if (!plainHappyPath || options.redirect) {
        for (const t of targets) register(live, new URL(`${origin}${t}`));
      }
      return {
        token,
        url: `${origin}${path.replace(/\/+$/, '')}/cpr/${token}`,
        uri: `cpr://${token}?endpoint=${encoded}`,
        endpoint,
        listener,
        targets,
      };
    },
    retrievals: (token) => offers.get(token)?.uses ?? 0,
    listen: (options = {}) =>
      open(
        `#${listeners.length + 1} ${options.plain ? 'plain-http' : (options.certificate ?? 'valid')}`,
        options,
      ),
    requests: () => log,
    reached: (token) =>
      log.filter(
        (r) =>
          r.target.includes(token) ||
          Object.values(r.headers).some((v) => (Array.isArray(v) ? v.join('\n') : (v ?? '')).includes(token)),
      ),
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              (server as { closeAllConnections?: () => void }).closeAllConnections?.();
              server.close(() => resolve());
            }),
        ),
      ).then(() => undefined),
  };
}
