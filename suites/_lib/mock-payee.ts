/**
 * A mock payee for wallet checks that need a reference URI (profile section 3): an HTTPS server on
 * 127.0.0.1 whose certificate is signed by the suite CA the wallet trusts
 * (`tls.suite_ca_cert_file` / `tls.suite_ca_key_file`). Without that CA, the check is skipped.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { ServerCertificate } from '../../src/loopback/tls.js';
import { getRunContext } from '../../src/runner/context.js';

/** How the mock answers one token. */
export interface OfferOptions {
  /** Serve the CPR on every retrieval, not only the first (default false: 410 TOKEN_CONSUMED after). */
  reusable?: boolean;
  /** Answer with this status and body instead of the CPR (e.g. 410 and a profile error body). */
  answer?: { status: number; body: unknown };
}

/** One offered CPR. */
export interface Offer {
  /** `cpr://{token}?endpoint={mock base url}` (profile section 2). */
  uri: string;
  /** The token (32 lowercase hex digits). */
  token: string;
  /** Retrieval URL `{base}/cpr/{token}`. */
  url: string;
}

/** A running mock payee. */
export interface MockPayee {
  /** `https://127.0.0.1:{port}`. */
  baseUrl: string;
  /** Offers a CPR under a fresh token. */
  offer(cpr: unknown, options?: OfferOptions): Offer;
  /** How many times the token was requested. */
  retrievals(token: string): number;
  /** Stops the server (also done automatically at the end of the check). */
  close(): Promise<void>;
}

let certificate: Promise<ServerCertificate> | undefined;

function suiteCertificate(): Promise<ServerCertificate> | undefined {
  const tls = getRunContext().config.tls;
  if (!tls?.suite_ca_cert_file || !tls.suite_ca_key_file) return undefined;
  const certFile = tls.suite_ca_cert_file;
  const keyFile = tls.suite_ca_key_file;
  certificate ??= (async () => {
    // loaded on first use: the X.509 stack is heavy, and only the wallet's checks need a mock payee
    const { issueServerCertificate, LOOPBACK_HOSTS } = await import('../../src/loopback/tls.js');
    return issueServerCertificate(
      { certPem: readFileSync(certFile, 'utf8'), keyPem: readFileSync(keyFile, 'utf8') },
      { hosts: [...LOOPBACK_HOSTS] },
    );
  })();
  return certificate;
}

/**
 * Starts a mock payee, or returns `undefined` when the run has no suite CA (the caller skips; the
 * suite library's `mockPayee()` does that for you).
 * @example
 * ```ts
 * const mock = await startMockPayee();
 * const { uri, token } = mock!.offer(cpr);
 * ```
 */
export async function startMockPayee(): Promise<MockPayee | undefined> {
  const cert = await suiteCertificate();
  if (!cert) return undefined;
  const { recorder } = getRunContext();
  const offers = new Map<string, { cpr: unknown; options: OfferOptions; uses: number }>();
  const server: Server = createServer({ cert: cert.certPem, key: cert.keyPem }, (req, res) => {
    const started = performance.now();
    const m = /^\/cpr\/([a-z0-9]+)$/.exec(new URL(req.url ?? '/', 'https://mock').pathname);
    const o = m ? offers.get(m[1] ?? '') : undefined;
    let status: number;
    let body: unknown;
    if (req.method !== 'GET' || !o) {
      status = 404;
      body = { error: { code: 'TOKEN_UNKNOWN', message: 'no such token' } };
    } else {
      o.uses += 1;
      if (o.options.answer) ({ status, body } = o.options.answer);
      else if (o.uses === 1 || o.options.reusable) [status, body] = [200, o.cpr];
      else
        [status, body] = [410, { error: { code: 'TOKEN_CONSUMED', message: 'the token was already used' } }];
    }
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
    // evidence: what the wallet asked the mock payee, and what it got
    recorder.record({
      kind: 'http',
      method: req.method ?? 'GET',
      url: `mock-payee ${req.url ?? ''}`,
      status,
      response_body: text,
      duration_ms: Math.round(performance.now() - started),
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    offer(cpr, options = {}) {
      const token = randomBytes(16).toString('hex');
      offers.set(token, { cpr, options, uses: 0 });
      return {
        token,
        url: `${baseUrl}/cpr/${token}`,
        uri: `cpr://${token}?endpoint=${encodeURIComponent(baseUrl)}`,
      };
    },
    retrievals: (token) => offers.get(token)?.uses ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
