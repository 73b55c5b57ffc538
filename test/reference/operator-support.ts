/**
 * Test support for the reference Operator tests: a running Operator over real HTTPS with the
 * loopback CA, a recording client, message builders signed with the crypto module, and the
 * traffic map (route + status -> schema) every response must satisfy.
 */
import { randomUUID } from 'node:crypto';
import {
  type Ed25519KeyPair,
  generateEd25519KeyPair,
  publicKeyFromJwk,
  signObject,
} from '../../src/crypto/ed25519.js';
import { createLoopbackPki } from '../../src/loopback/tls.js';
import type {
  CashPack,
  LockRequest,
  RedemptionRequest,
  RenewalEntry,
} from '../../src/reference/operator/index.js';
import {
  type ReferenceOperatorOptions,
  type RunningOperator,
  startReferenceOperator,
} from '../../src/reference/operator/index.js';
import { signedRedemptionRequest, signedRenewalEntry } from '../../src/testing/cashpack-messages.js';
import {
  createRecordingClient,
  type Exchange,
  type RecordingClient,
  type TrafficRoute,
} from '../_support/https.js';

/** Every response of the Operator, by route and status, and the schema it must validate against. */
export const OPERATOR_ROUTES: readonly TrafficRoute[] = [
  { method: 'POST', path: '/v1/cashpack/issue', status: 201, schema: 'cashpack/cashpack' },
  { method: 'POST', path: '/v1/cashpack/renew', status: 200, schema: 'cashpack/cashpack' },
  { method: 'POST', path: '/v1/cashpack/redeem', status: 200, schema: 'cashpack/redemption-confirmation' },
  { method: 'GET', path: '/v1/cashpack/:pack_id/status', status: 200, schema: 'cashpack/status-response' },
  { method: 'GET', path: '/.well-known/cashpack-policy.json', status: 200, schema: 'cashpack/policy' },
  { method: 'GET', path: '/.well-known/cashpack-pubkey.json', status: 200, schema: 'cashpack/operator-jwk' },
  { method: 'POST', path: '/harness/expire', status: 200, schema: 'harness/expire-or-cancel-response' },
  { method: 'POST', path: '/harness/cancel', status: 200, schema: 'harness/expire-or-cancel-response' },
  { method: 'POST', path: '/harness/clock', status: 200, schema: 'harness/clock-response' },
  { method: 'POST', path: '/*', status: '4xx', schema: 'cashpack/error-body' },
  { method: 'GET', path: '/*', status: '4xx', schema: 'cashpack/error-body' },
];

/** A movable clock: tests advance it instead of waiting. */
export interface TestClock {
  now(): Date;
  advance(seconds: number): void;
}

/** A running Operator, a recording client trusting its CA, and helpers. */
export interface OperatorFixture {
  op: RunningOperator;
  client: RecordingClient;
  clock: TestClock;
  url(path: string): string;
  close(): Promise<void>;
}

/** Starts the reference Operator on 127.0.0.1:0 with a loopback CA and a recording client. */
export async function startOperatorFixture(
  options: Omit<ReferenceOperatorOptions, 'tls' | 'clock'> = {},
): Promise<OperatorFixture> {
  const pki = await createLoopbackPki();
  let nowMs = Date.now();
  const clock: TestClock = {
    now: () => new Date(nowMs),
    advance: (seconds) => {
      nowMs += seconds * 1000;
    },
  };
  const op = await startReferenceOperator({ ...options, tls: pki.server, clock: clock.now });
  const client = createRecordingClient({ ca: pki.ca.certPem });
  return {
    op,
    client,
    clock,
    url: (path) => `${op.baseUrl}${path}`,
    close: async () => {
      await client.close();
      await op.close();
    },
  };
}

/** Which test principal signs a lock request. */
export type PrincipalName = 'funded' | 'low_balance';

/** A signed Lock Request (profile 4) with a fresh request_id, bearer key and an expiry 1 h ahead. */
export function lockRequest(
  fx: OperatorFixture,
  options: { principal?: PrincipalName; bearer?: Ed25519KeyPair; overrides?: Partial<LockRequest> } = {},
): { request: LockRequest; bearer: Ed25519KeyPair } {
  const principal = fx.op.identities.principals[options.principal ?? 'funded'];
  const bearer = options.bearer ?? generateEd25519KeyPair();
  const now = fx.clock.now().getTime();
  const unsigned = {
    request_id: randomUUID(),
    principal_id: principal.principal_id,
    amount: '2500',
    asset: { type: 'fiat' as const, code: 'EUR' },
    initial_bearer_pk: bearer.publicKey,
    expires_at: new Date(now + 3600_000).toISOString().replace('.000Z', 'Z'),
    created_at: new Date(now).toISOString(),
    ...options.overrides,
  };
  return { request: signObject(unsigned, principal.private_key_jwk) as LockRequest, bearer };
}

/** A Renewal Entry for `pack`, signed by `bearer`, handing the pack to `next`. */
export function renewalEntry(
  pack: CashPack,
  bearer: Ed25519KeyPair,
  next: Ed25519KeyPair,
  overrides: Partial<RenewalEntry> = {},
): RenewalEntry {
  return signedRenewalEntry(pack, bearer, next, new Date().toISOString(), overrides);
}

/** A Redemption Request for `pack`, signed by `bearer`, with the given identity token. */
export function redemptionRequest(
  pack: CashPack,
  bearer: Ed25519KeyPair,
  identityToken: string | undefined,
  overrides: Partial<RedemptionRequest> = {},
): RedemptionRequest {
  return signedRedemptionRequest(
    pack,
    bearer,
    { identityToken, destinationReference: 'DE89370400440532013000', createdAt: new Date().toISOString() },
    overrides,
  );
}

/** Issues a pack (asserting 201) and returns it with its bearer key. */
export async function issuePack(
  fx: OperatorFixture,
  options: Parameters<typeof lockRequest>[1] = {},
): Promise<{ pack: CashPack; bearer: Ed25519KeyPair; request: LockRequest }> {
  const { request, bearer } = lockRequest(fx, options);
  const ex = await fx.client.post(fx.url('/v1/cashpack/issue'), request);
  if (ex.status !== 201) throw new Error(`issue failed: ${ex.status} ${ex.text}`);
  return { pack: ex.body as CashPack, bearer, request };
}

/** The `error.code` of an error response, or undefined. */
export function errorCode(ex: Exchange): string | undefined {
  return (ex.body as { error?: { code?: string } } | undefined)?.error?.code;
}

/** The public key (raw base64url) of a test principal. */
export function principalKey(fx: OperatorFixture, name: PrincipalName): string {
  return publicKeyFromJwk(fx.op.identities.principals[name].private_key_jwk);
}

/** Sum over principals and assets of available + locked + redeemed-out (BigInt). */
export function totalMoney(op: RunningOperator): bigint {
  let total = 0n;
  for (const byAsset of Object.values(op.ledger().accounts)) {
    for (const a of Object.values(byAsset)) {
      total += BigInt(a.available) + BigInt(a.locked) + BigInt(a.redeemedOut);
    }
  }
  return total;
}
