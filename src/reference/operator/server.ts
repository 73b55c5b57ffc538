/**
 * The reference Operator's HTTPS binding: a framework-free `node:https` server routing the
 * spec CP 4 endpoints, the two well-known resources and the profile 4 harness onto a
 * {@link ReferenceOperator}.
 * @packageDocumentation
 */
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import {
  type Ed25519PrivateJwk,
  type Ed25519PublicJwk,
  generateEd25519KeyPair,
  publicKeyFromJwk,
} from '../../crypto/ed25519.js';
import { CprcError } from '../../errors.js';
import { OperatorError } from './errors.js';
import {
  type KnownPrincipal,
  type OperatorDeps,
  type OperatorResponse,
  ReferenceOperator,
} from './operator.js';
import { assetKey, type LedgerSnapshot, OperatorStore } from './store.js';
import type { OperatorIdentities, Policy, PrincipalIdentity } from './types.js';

/** The defaults of the reference Operator's policy. */
export const DEFAULT_POLICY: Readonly<Policy> = Object.freeze<Policy>({
  operator_id: 'cprc-reference-operator',
  max_amount: '1000000',
  min_expiry_seconds: 60,
  max_expiry_seconds: 2_592_000, // 30 days
  max_chain_depth: 5,
  required_identity_level: 2,
  assets: [{ type: 'fiat', code: 'EUR' }],
  signature_alg: 'EdDSA',
});

/** Options of {@link startReferenceOperator}. */
export interface ReferenceOperatorOptions {
  /** Server certificate and key (PEM), e.g. from `createLoopbackPki()` in `src/loopback/tls.ts`. */
  tls: { certPem: string; keyPem: string };
  /** Listen address. Default `127.0.0.1` (loopback only). */
  host?: string;
  /** Port; default 0 (any free port). */
  port?: number;
  /** Overrides of {@link DEFAULT_POLICY}. */
  policy?: Partial<Policy>;
  /** Time source. Default `() => new Date()`. */
  clock?: () => Date;
  /** Initial available balances in the policy's first asset. Defaults: funded "100000000", low_balance "5000". */
  balances?: { funded?: string; low_balance?: string };
  /** The Operator's signing key. Default: a fresh key. */
  signingKey?: Ed25519PrivateJwk;
  /** Operator class to run (a subclass of {@link ReferenceOperator}, e.g. a broken variant). */
  operatorClass?: new (
    deps: OperatorDeps,
  ) => ReferenceOperator;
  /** Store class to use (a subclass of {@link OperatorStore}, e.g. a racy variant). */
  storeClass?: new () => OperatorStore;
  /** Largest accepted request body in bytes. Default 65536. */
  maxBodyBytes?: number;
  /**
   * Whether the harness offers the optional test clock `POST {harness}/clock` (profile 4).
   * Default true; false answers that path 404 like any unknown endpoint.
   */
  testClock?: boolean;
  /**
   * Whether the harness offers the optional balance capability `POST {harness}/balance`
   * (profile 4, for repeated runs against one system). Default true; false answers that path 404
   * like any unknown endpoint.
   */
  balanceHarness?: boolean;
}

/** A running reference Operator. */
export interface RunningOperator {
  /** `https://127.0.0.1:{port}`: the spec CP 4 `{base_url}`. */
  baseUrl: string;
  /** `{baseUrl}/harness`: the profile 4 operator harness. */
  harnessUrl: string;
  /** The profile section 5 test identities (secrets). */
  identities: OperatorIdentities;
  /** The policy it enforces and publishes. */
  policy: Policy;
  /** Its public signing key (as served at the well-known URL). */
  operatorPublicJwk: Required<Ed25519PublicJwk>;
  /** The operator instance (for ledger audits in tests). */
  operator: ReferenceOperator;
  /** Every account's balances as digit strings. */
  ledger(): LedgerSnapshot;
  /** Stops the server and drops open connections. */
  close(): Promise<void>;
}

const DIGITS = /^[1-9][0-9]*$|^0$/;

/**
 * {@link DEFAULT_POLICY} with `overrides`, checked (internal: exported for the reference's own tests).
 * @throws CprcError `CPRC_CONFIG_INVALID` naming the member at fault.
 */
export function resolvePolicy(overrides: Partial<Policy> | undefined): Policy {
  const policy: Policy = { ...DEFAULT_POLICY, assets: [...DEFAULT_POLICY.assets], ...overrides };
  const bad = (what: string) => new CprcError('CPRC_CONFIG_INVALID', `operator policy: ${what}`);
  for (const key of [
    'min_expiry_seconds',
    'max_expiry_seconds',
    'max_chain_depth',
    'required_identity_level',
  ] as const) {
    if (!Number.isSafeInteger(policy[key]) || policy[key] < 0)
      throw bad(`"${key}" must be a non-negative integer`);
  }
  if (!/^[1-9][0-9]*$/.test(policy.max_amount))
    throw bad('"max_amount" must be a digit string without leading zero');
  if (policy.min_expiry_seconds > policy.max_expiry_seconds) {
    throw bad('"min_expiry_seconds" must not exceed "max_expiry_seconds"');
  }
  if (policy.required_identity_level < 1) throw bad('"required_identity_level" must be at least 1');
  if (!Array.isArray(policy.assets) || policy.assets.length === 0)
    throw bad('"assets" must list at least one asset');
  if (policy.signature_alg !== 'EdDSA') throw bad('"signature_alg" must be "EdDSA"');
  return policy;
}

/**
 * A balance option (digit string) or its default (internal: exported for the reference's own tests).
 * @throws CprcError `CPRC_CONFIG_INVALID` naming the balance.
 */
export function balance(value: string | undefined, fallback: string, name: string): bigint {
  const v = value ?? fallback;
  if (!DIGITS.test(v)) {
    throw new CprcError('CPRC_CONFIG_INVALID', `operator balances: "${name}" must be a string of digits`);
  }
  return BigInt(v);
}

function secret(): string {
  return randomBytes(24).toString('base64url');
}

function newPrincipal(principal_id: string): PrincipalIdentity {
  return { principal_id, private_key_jwk: generateEd25519KeyPair().privateJwk, status_credential: secret() };
}

/**
 * Starts the reference Operator over HTTPS with fresh test identities (two principals, redeemer
 * tokens at and below the required identity level, an operator status credential).
 *
 * @throws CprcError `CPRC_CONFIG_INVALID` for an invalid policy or balance option.
 * @example
 * ```ts
 * const pki = await createLoopbackPki();
 * const op = await startReferenceOperator({ tls: pki.server });
 * // ... POST `${op.baseUrl}/v1/cashpack/issue` ...
 * await op.close();
 * ```
 */
export async function startReferenceOperator(options: ReferenceOperatorOptions): Promise<RunningOperator> {
  const policy = resolvePolicy(options.policy);
  const firstAsset = assetKey(policy.assets[0] as Policy['assets'][number]);
  const funded = newPrincipal('principal-funded');
  const low = newPrincipal('principal-low-balance');
  const fundedBalance = balance(options.balances?.funded, '100000000', 'funded');
  const lowBalance = balance(options.balances?.low_balance, '5000', 'low_balance');
  low.available_balance = lowBalance.toString();
  const identities: OperatorIdentities = {
    principals: { funded, low_balance: low },
    redeemer_identity_tokens: { sufficient: secret(), insufficient: secret() },
    operator_status_credential: secret(),
  };

  const store = new (options.storeClass ?? OperatorStore)();
  store.openAccount(funded.principal_id, firstAsset, fundedBalance);
  store.openAccount(low.principal_id, firstAsset, lowBalance);
  const principals = new Map<string, KnownPrincipal>(
    [funded, low].map((p) => [
      p.principal_id,
      { publicKey: publicKeyFromJwk(p.private_key_jwk), statusCredential: p.status_credential },
    ]),
  );
  const identityTokens = new Map<string, number>([
    [identities.redeemer_identity_tokens.sufficient, policy.required_identity_level],
    // Stryker disable next-line ArrayDeclaration: equivalent: a token below the required level and a token never issued get the same answer (403 REDEEMER_NOT_IDENTIFIED)
    [identities.redeemer_identity_tokens.insufficient, policy.required_identity_level - 1],
  ]);
  const deps: OperatorDeps = {
    policy,
    signingKey: options.signingKey ?? generateEd25519KeyPair().privateJwk,
    principals,
    identityTokens,
    operatorCredential: identities.operator_status_credential,
    clock: options.clock ?? (() => new Date()),
    store,
  };
  const operator = new (options.operatorClass ?? ReferenceOperator)(deps);
  const maxBodyBytes = options.maxBodyBytes ?? 65_536;
  const harnessOptions = {
    testClock: options.testClock !== false,
    balance: options.balanceHarness !== false,
  };

  const server: Server = createServer({ cert: options.tls.certPem, key: options.tls.keyPem }, (req, res) => {
    handle(operator, req, maxBodyBytes, harnessOptions)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        // an answer that cannot be written (a defect of the reference) is a 500, never a crash
        // Stryker disable next-line ConditionalExpression: unobservable from outside: only a defect that fails after the status line was written reaches the else
        if (!res.headersSent) send(res, toErrorResponse(error));
        else res.destroy();
      });
  });
  const host = options.host ?? '127.0.0.1';
  // port undefined: any free port; a listen error (port taken) rejects
  server.listen(options.port, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const baseUrl = `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    baseUrl,
    harnessUrl: `${baseUrl}/harness`,
    identities,
    policy,
    operatorPublicJwk: operator.publicJwk,
    operator,
    ledger: () => operator.store.ledger(),
    close: () =>
      new Promise<void>((resolve, reject) => {
        operator.dispose();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// Stryker disable next-line Regex: spec CP 4 lists the endpoints; what a path that is no endpoint (a prefix or suffix around one) answers is not specified
const STATUS_PATH = /^\/v1\/cashpack\/([^/]+)\/status$/;

/** Routes one request (spec CP 4 endpoint table, well-known table, profile 4 harness). */
async function handle(
  operator: ReferenceOperator,
  req: IncomingMessage,
  maxBodyBytes: number,
  optional: { testClock: boolean; balance: boolean },
): Promise<OperatorResponse> {
  // a server request always has both (String() only satisfies the types)
  const path = new URL(String(req.url), 'https://operator.invalid').pathname;
  const method = String(req.method);
  const post: Record<string, (body: unknown) => Promise<OperatorResponse>> = {
    '/v1/cashpack/issue': (b) => operator.issue(b),
    '/v1/cashpack/renew': (b) => operator.renew(b),
    '/v1/cashpack/redeem': (b) => operator.redeem(b),
    '/harness/expire': (b) => operator.expire(b),
    '/harness/cancel': (b) => operator.cancel(b),
  };
  if (optional.testClock) post['/harness/clock'] = (b) => operator.advanceClock(b);
  if (optional.balance) post['/harness/balance'] = (b) => operator.setBalance(b);
  const postHandler = post[path];
  if (postHandler !== undefined) {
    // Stryker disable next-line ConditionalExpression: spec CP 4 and profile 1 leave free what another method gets (taken, or refused with a 4xx error body, checked)
    if (method !== 'POST') return methodNotAllowed(method);
    return postHandler(await readJson(req, maxBodyBytes));
  }
  const get: Record<string, () => OperatorResponse> = {
    '/.well-known/cashpack-policy.json': () => operator.policyDocument(),
    '/.well-known/cashpack-pubkey.json': () => operator.publicKeyDocument(),
  };
  const statusMatch = STATUS_PATH.exec(path);
  const getHandler: (() => OperatorResponse | Promise<OperatorResponse>) | undefined =
    statusMatch === null
      ? get[path]
      : () => operator.status(decodePackId(statusMatch[1] as string), req.headers.authorization);
  // Stryker disable next-line ConditionalExpression: what a path that is no endpoint answers is not specified (only endpoints reach the handler)
  if (getHandler !== undefined) {
    // Stryker disable next-line ConditionalExpression: spec CP 4 and profile 1 leave free what another method gets (taken, or refused with a 4xx error body, checked)
    if (method !== 'GET') return methodNotAllowed(method);
    req.resume();
    return getHandler();
  }
  req.resume();
  return {
    status: 404,
    // Stryker disable next-line ObjectLiteral,StringLiteral: profile 1 binds the error body of the endpoints; what a path that is no endpoint answers is not specified
    body: { error: { code: 'INVALID_REQUEST', message: `no such endpoint: ${method} ${path}` } },
  };
}

/** The pack id of a status path (percent-decoded). */
function decodePackId(segment: string): string {
  // Stryker disable BlockStatement: equivalent: an undecodable segment and undefined are both no pack's id (404 PACK_UNKNOWN or 403 FORBIDDEN alike)
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

// (the restore leads the next declaration: a comment trailing the last statement of a block is
// never read as a directive, and the disable ran on to the end of the file)
// Stryker restore BlockStatement

/** Profile 1: a method an endpoint does not take is an error of that endpoint (4xx, error body). */
function methodNotAllowed(method: string): OperatorResponse {
  return {
    status: 405,
    body: { error: { code: 'INVALID_REQUEST', message: `this endpoint does not take ${method}` } },
  };
}

/** Profile 1: JSON bodies; malformed JSON or an oversized body is INVALID_REQUEST. */
function readJson(req: IncomingMessage, maxBodyBytes: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // once over the limit the body is refused (later chunks only grow the size; a second
    // reject or resolve of the promise is a no-op)
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBodyBytes) {
        reject(new OperatorError('INVALID_REQUEST', `request body exceeds ${maxBodyBytes} bytes`));
        return;
      }
      chunks.push(chunk);
    });
    // Stryker disable next-line StringLiteral: a client that breaks its own upload gets no answer; the profile specifies none
    req.on('error', reject);
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(JSON.parse(text) as unknown);
      } catch {
        reject(
          new OperatorError(
            'INVALID_REQUEST',
            'request body is not valid JSON (profile 1: application/json)',
          ),
        );
      }
    });
  });
}

function toErrorResponse(error: unknown): OperatorResponse {
  // A refusal with a status of the profile table; anything else is a defect of the reference
  // itself, reported without internals (no stack, no secrets).
  if (error instanceof OperatorError && Number.isInteger(error.status))
    return { status: error.status, body: error.toBody() };
  return {
    status: 500,
    body: { error: { code: 'INTERNAL_ERROR', message: 'the reference operator failed unexpectedly' } },
  };
}

function send(res: ServerResponse, response: OperatorResponse): void {
  const text = JSON.stringify(response.body);
  res.writeHead(response.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    // Stryker disable next-line StringLiteral: the profile fixes no caching header (an extra header is free)
    'cache-control': 'no-store',
  });
  res.end(text);
}
