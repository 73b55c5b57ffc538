/**
 * Tiny local targets for the runner and driver tests: HTTPS servers on 127.0.0.1 (port 0) that
 * speak just enough of the profile for the smoke suites, each with switchable faults.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer, get as httpsGet } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { createLoopbackPki, type LoopbackPki } from '../../src/loopback/tls.js';
import { testScratchDir } from '../_support/scratch.js';

/** A request handler; return true when handled. */
export type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void | Promise<void>;

/** A started server. */
export interface Started {
  url: string;
  server: Server;
  close(): Promise<void>;
}

let pki: Promise<LoopbackPki> | undefined;
/** One loopback PKI for every fixture server of a test file. */
export function loopbackPki(): Promise<LoopbackPki> {
  pki ??= createLoopbackPki();
  return pki;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** Starts an HTTPS (or plain HTTP) server on 127.0.0.1:0 with `handler`. */
export async function startServer(handler: Handler, plain = false): Promise<Started> {
  const { server: cert } = await loopbackPki();
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    readBody(req).then(
      (body) => handler(req, body, res),
      () => res.destroy(),
    );
  };
  const server = plain
    ? createHttpServer(listener)
    : createHttpsServer({ cert: cert.certPem, key: cert.keyPem }, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `${plain ? 'http' : 'https'}://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a JSON answer. */
export function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/** Faults of the fixture payee. */
export interface PayeeFaults {
  /** Serve a token again instead of rejecting it (breaks a MUST). */
  serveTwice?: boolean;
  /** Answer a reused token with 404 TOKEN_UNKNOWN instead of 410 TOKEN_CONSUMED (breaks a PROFILE rule). */
  reuseAs404?: boolean;
  /** Token lifetime reported by the harness, in seconds (above 900 breaks a SHOULD). */
  tokenTtlSeconds?: number;
  /** From this request number on (1-based, all paths), never answer; `onHang` is called. */
  hangFrom?: number;
  onHang?: () => void;
}

/** A fixture payee: retrieval, harness, counters. */
export async function startPayee(faults: PayeeFaults = {}): Promise<Started & { requests: number }> {
  const tokens = new Map<string, { uses: number; cpr: unknown }>();
  const state = { requests: 0 };
  const s = await startServer((req, _body, res) => {
    state.requests += 1;
    if (faults.hangFrom !== undefined && state.requests >= faults.hangFrom) {
      faults.onHang?.();
      return; // never answers
    }
    const url = new URL(req.url ?? '/', 'https://x');
    if (req.method === 'POST' && url.pathname === '/harness/requests') {
      const token = randomBytes(16).toString('hex');
      const now = Date.now();
      const cpr = {
        cpr_version: 'CPR-1.0',
        request_id: randomUUID(),
        created_at: new Date(now).toISOString(),
        expires_at: new Date(now + 3600_000).toISOString(),
        payee: { rail_address: { iban: 'DE89370400440532013000' } },
        value: { amount: '100', asset: { type: 'fiat', code: 'EUR' } },
        iban: 'DE89370400440532013000',
        beneficiary_name: 'Fixture',
      };
      tokens.set(token, { uses: 0, cpr });
      json(res, 201, {
        uri: `cpr://${token}?endpoint=${encodeURIComponent(s.url)}`,
        request_id: cpr.request_id,
        token_expires_at: new Date(now + (faults.tokenTtlSeconds ?? 600) * 1000).toISOString(),
      });
      return;
    }
    const m = /^\/cpr\/([a-z0-9]+)$/.exec(url.pathname);
    if (req.method === 'GET' && m) {
      const t = tokens.get(m[1] ?? '');
      if (!t) return json(res, 404, { error: { code: 'TOKEN_UNKNOWN', message: 'never issued' } });
      t.uses += 1;
      if (t.uses === 1 || faults.serveTwice) return json(res, 200, t.cpr);
      if (faults.reuseAs404) return json(res, 404, { error: { code: 'TOKEN_UNKNOWN', message: 'gone' } });
      return json(res, 410, { error: { code: 'TOKEN_CONSUMED', message: 'already used' } });
    }
    json(res, 404, { error: { code: 'INVALID_REQUEST', message: `no route ${req.method} ${url.pathname}` } });
  });
  return Object.defineProperty(s, 'requests', { get: () => state.requests }) as Started & {
    requests: number;
  };
}

/** GET `url` trusting `ca`; resolves status and parsed body. */
function fetchTrusted(url: string, ca: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { ca }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }),
      );
    }).on('error', reject);
  });
}

/**
 * A fixture wallet harness: rejects expired CPRs with EXPIRED unless `acceptExpired`; resolves a
 * reference URI by retrieving the CPR (trusting the fixture CA, which tests also name as suite CA).
 */
export async function startWallet(faults: { acceptExpired?: boolean } = {}): Promise<Started> {
  const { ca } = await loopbackPki();
  return startServer(async (req, body, res) => {
    if (req.method !== 'POST' || req.url !== '/harness/derive') {
      return json(res, 404, { error: { code: 'X', message: 'no route' } });
    }
    const input = JSON.parse(body) as { uri?: string; cpr?: { expires_at?: string } };
    if (input.uri) {
      const m = /^cpr:\/\/([^?]+)\?endpoint=(.*)$/.exec(input.uri);
      const got = m
        ? await fetchTrusted(`${decodeURIComponent(m[2] ?? '')}/cpr/${m[1]}`, ca.certPem)
        : undefined;
      if (got?.status !== 200)
        return json(res, 422, { error: { code: 'TOKEN_REJECTED', message: 'no CPR' } });
      input.cpr = got.body as { expires_at?: string };
    }
    if (!faults.acceptExpired && Date.parse(input.cpr?.expires_at ?? '') < Date.now()) {
      return json(res, 422, { error: { code: 'EXPIRED', message: 'the request expired' } });
    }
    json(res, 200, { payment: { id: randomUUID(), state: 'CREATED' } });
  });
}

/** A fixture Operator: policy and status (404 PACK_UNKNOWN unless `statusAlways200`). */
export async function startOperator(
  faults: { statusAlways200?: boolean; policyStatus?: number } = {},
): Promise<Started> {
  return startServer((req, _body, res) => {
    const url = new URL(req.url ?? '/', 'https://x');
    if (url.pathname === '/.well-known/cashpack-policy.json') {
      return json(res, faults.policyStatus ?? 200, { operator_id: 'fixture', max_amount: '100000' });
    }
    const m = /^\/v1\/cashpack\/([^/]+)\/status$/.exec(url.pathname);
    if (m) {
      if (req.headers.authorization !== 'Bearer op-credential-secret') {
        return json(res, 403, { error: { code: 'FORBIDDEN', message: 'no' } });
      }
      if (faults.statusAlways200) return json(res, 200, { pack_id: m[1], status: 'ACTIVE' });
      return json(res, 404, { error: { code: 'PACK_UNKNOWN', message: 'unknown pack' } });
    }
    json(res, 404, { error: { code: 'INVALID_REQUEST', message: 'no route' } });
  });
}

/** An Ed25519 JWK with a recognisable `d` (the smoke suites never sign). */
export const FAKE_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  // the public key of `d` (a run config whose key pair does not match is refused at load)
  x: 'dSD-pQM-Aja6GVGdwGQuyALqxyNr5uhL-BXOliBrg3Q',
  d: 'dSecretPrivateKeyMaterial'.padEnd(43, 'X'),
};

/** An operator config section pointing at `url`, with recognisable secrets. */
export function operatorSection(url: string): Record<string, unknown> {
  return {
    base_url: url,
    principals: {
      funded: {
        principal_id: 'p-funded',
        private_key_jwk: FAKE_JWK,
        status_credential: 'funded-credential-secret',
      },
      low_balance: {
        principal_id: 'p-low',
        private_key_jwk: FAKE_JWK,
        status_credential: 'low-credential-secret',
        available_balance: '5000',
      },
    },
    redeemer_identity_tokens: {
      sufficient: 'idtoken-sufficient-secret',
      insufficient: 'idtoken-insufficient-secret',
    },
    operator_status_credential: 'op-credential-secret',
  };
}

/**
 * Writes `ca.pem`, `ca.key` and `run.json` (with `config`) into a fresh temp folder, removed when
 * the calling test ends (call it inside a test); returns the config path.
 * With `suiteCa`, the fixture CA is also the suite CA (the fixture wallet trusts it).
 */
export async function writeConfig(
  config: Record<string, unknown>,
  options: { suiteCa?: boolean } = {},
): Promise<{ dir: string; configPath: string }> {
  const dir = testScratchDir('run');
  const { ca } = await loopbackPki();
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'ca.key'), ca.keyPem);
  const tls = options.suiteCa
    ? { ca_file: 'ca.pem', suite_ca_cert_file: 'ca.pem', suite_ca_key_file: 'ca.key' }
    : { ca_file: 'ca.pem' };
  const configPath = join(dir, 'run.json');
  writeFileSync(configPath, JSON.stringify({ tls, ...config }, null, 2));
  return { dir, configPath };
}
