import { afterAll, afterEach, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { chainDigestOf, initialChainDigest } from '../../src/crypto/chain-digest.js';
import {
  type Ed25519PublicJwk,
  generateEd25519KeyPair,
  jwkThumbprint,
  signObject,
  verifyObject,
} from '../../src/crypto/ed25519.js';
import type { RunConfig } from '../../src/generated/tool/run-config.js';
import type { CashPack, RedemptionConfirmation } from '../../src/reference/operator/index.js';
import { type Exchange, trafficProblems, validateTraffic } from '../_support/https.js';
import {
  errorCode,
  issuePack,
  lockRequest,
  OPERATOR_ROUTES,
  type OperatorFixture,
  redemptionRequest,
  renewalEntry,
  startOperatorFixture,
  totalMoney,
} from './operator-support.js';

let fx: OperatorFixture;
let operatorJwk: Ed25519PublicJwk;
let initialTotal: bigint;

beforeAll(async () => {
  fx = await startOperatorFixture();
  initialTotal = totalMoney(fx.op);
  const ex = await fx.client.get(fx.url('/.well-known/cashpack-pubkey.json'));
  operatorJwk = ex.body as Ed25519PublicJwk;
});

// Every response of every test validates against the schema of its route and status.
afterEach(() => {
  validateTraffic(fx.client.take(), OPERATOR_ROUTES);
  // Spec CP 1 item 2, CP 3: funds move between buckets; money is never created or lost.
  expect(totalMoney(fx.op)).toBe(initialTotal);
});

afterAll(async () => {
  await fx.close();
});

function account(name: 'funded' | 'low_balance'): { available: bigint; locked: bigint; redeemedOut: bigint } {
  const id = fx.op.identities.principals[name].principal_id;
  const a = fx.op.ledger().accounts[id]?.['fiat:EUR:'];
  if (a === undefined) throw new Error(`no account for ${name}`);
  return { available: BigInt(a.available), locked: BigInt(a.locked), redeemedOut: BigInt(a.redeemedOut) };
}

function expectError(ex: Exchange, code: string, status: number): void {
  expect({ status: ex.status, code: errorCode(ex) }, ex.text).toEqual({ status, code });
  const message = (ex.body as { error: { message: string } }).error.message;
  // No secret of the run configuration appears in an error message.
  const ids = fx.op.identities;
  for (const secret of [
    ids.operator_status_credential,
    ids.redeemer_identity_tokens.sufficient,
    ids.redeemer_identity_tokens.insufficient,
    ids.principals.funded.status_credential,
    ids.principals.funded.private_key_jwk.d,
  ]) {
    expect(message).not.toContain(secret);
  }
}

async function status(packId: string, credential?: string): Promise<Exchange> {
  return fx.client.get(fx.url(`/v1/cashpack/${packId}/status`), {
    headers: credential === undefined ? {} : { authorization: `Bearer ${credential}` },
  });
}

const issue = (body: unknown) => fx.client.post(fx.url('/v1/cashpack/issue'), body);
const renew = (cashpack: unknown, renewal_entry: unknown) =>
  fx.client.post(fx.url('/v1/cashpack/renew'), { cashpack, renewal_entry });
const redeem = (cashpack: unknown, redemption_request: unknown) =>
  fx.client.post(fx.url('/v1/cashpack/redeem'), { cashpack, redemption_request });

describe('profile 5: the test identities', () => {
  it('have the shape of the run config operator section minus its URLs, and every secret differs', () => {
    type ConfigIdentities = Omit<NonNullable<RunConfig['operator']>, 'base_url' | 'harness_url'>;
    expectTypeOf(fx.op.identities).toEqualTypeOf<ConfigIdentities>();
    const ids = fx.op.identities;
    expect(Object.keys(ids).sort()).toEqual([
      'operator_status_credential',
      'principals',
      'redeemer_identity_tokens',
    ]);
    expect(ids.principals.low_balance.available_balance).toBe('5000');
    const secrets = [
      ids.operator_status_credential,
      ids.redeemer_identity_tokens.sufficient,
      ids.redeemer_identity_tokens.insufficient,
      ids.principals.funded.status_credential,
      ids.principals.low_balance.status_credential,
    ];
    expect(new Set(secrets).size).toBe(secrets.length);
  });
});

describe('spec CP 4 well-known resources', () => {
  it('serves the policy document of profile 4', async () => {
    const ex = await fx.client.get(fx.url('/.well-known/cashpack-policy.json'));
    expect(ex.status).toBe(200);
    expect(ex.body).toEqual(fx.op.policy);
    expect(ex.body).toMatchObject({ max_amount: '1000000', max_chain_depth: 5, signature_alg: 'EdDSA' });
  });

  it('serves the current public key as an Ed25519 JWK whose kid is its RFC 7638 thumbprint', async () => {
    const ex = await fx.client.get(fx.url('/.well-known/cashpack-pubkey.json'));
    const jwk = ex.body as Required<Ed25519PublicJwk> & { d?: string };
    expect(jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' });
    expect(jwk.kid).toBe(jwkThumbprint(jwk.x));
    expect(jwk.d).toBeUndefined();
  });
});

describe('spec CP 4 issue -> renew -> renew -> redeem (happy path)', () => {
  it('issues, renews twice and redeems; every signature and chain digest verifies', async () => {
    const before = account('funded');
    const { request, bearer: b0 } = lockRequest(fx);
    const issued = await issue(request);
    expect(issued.status).toBe(201);
    const p0 = issued.body as CashPack;
    // Profile 4: ACTIVE, empty renewal_chain, chain_digest = d0, signed by the operator with kid.
    expect(p0).toMatchObject({ status: 'ACTIVE', renewal_chain: [], amount: '2500', kid: operatorJwk.kid });
    expect(p0.current_bearer_pk).toBe(b0.publicKey);
    expect(p0.expires_at).toBe(request.expires_at);
    expect(p0.chain_digest).toBe(initialChainDigest({ ...p0, initial_bearer_pk: b0.publicKey }));
    expect(verifyObject(p0, operatorJwk)).toBe(true);
    // Spec CP 1 item 2: the principal's funds are locked.
    expect(account('funded')).toEqual({
      ...before,
      available: before.available - 2500n,
      locked: before.locked + 2500n,
    });

    const b1 = generateEd25519KeyPair();
    const e1 = renewalEntry(p0, b0, b1);
    const r1 = await renew(p0, e1);
    expect(r1.status).toBe(200);
    const p1 = r1.body as CashPack;
    expect(verifyObject(p1, operatorJwk)).toBe(true);
    expect(p1.current_bearer_pk).toBe(b1.publicKey);
    expect(p1.renewal_chain).toEqual([e1]);
    expect(p1.chain_digest).toBe(chainDigestOf(p1, b0.publicKey));
    expect(p1.chain_digest).not.toBe(p0.chain_digest);

    const b2 = generateEd25519KeyPair();
    const e2 = renewalEntry(p1, b1, b2);
    const r2 = await renew(p1, e2);
    expect(r2.status).toBe(200);
    const p2 = r2.body as CashPack;
    expect(verifyObject(p2, operatorJwk)).toBe(true);
    expect(p2.renewal_chain).toEqual([e1, e2]);
    expect(p2.chain_digest).toBe(chainDigestOf(p2, b0.publicKey));
    expect(p2).toMatchObject({
      pack_id: p0.pack_id,
      amount: p0.amount,
      expires_at: p0.expires_at,
      status: 'ACTIVE',
    });

    const rq = redemptionRequest(p2, b2, fx.op.identities.redeemer_identity_tokens.sufficient);
    const rd = await redeem(p2, rq);
    expect(rd.status).toBe(200);
    const confirmation = rd.body as RedemptionConfirmation;
    expect(confirmation).toMatchObject({
      redemption_id: rq.redemption_id,
      pack_id: p0.pack_id,
      amount: '2500',
      asset: { type: 'fiat', code: 'EUR' },
      status: 'REDEEMED',
      kid: operatorJwk.kid,
    });
    expect(verifyObject(confirmation, operatorJwk)).toBe(true);
    // Spec CP 3 REDEEMED: funds released (locked -> redeemed out).
    expect(account('funded')).toEqual({
      available: before.available - 2500n,
      locked: before.locked,
      redeemedOut: before.redeemedOut + 2500n,
    });

    // Spec CP 5 rule 3: the issuing principal and the operator can read the status.
    const byPrincipal = await status(p0.pack_id, fx.op.identities.principals.funded.status_credential);
    expect(byPrincipal.status).toBe(200);
    expect(byPrincipal.body).toEqual({ pack_id: p0.pack_id, status: 'REDEEMED' });
    const byOperator = await status(p0.pack_id, fx.op.identities.operator_status_credential);
    expect(byOperator.body).toEqual({ pack_id: p0.pack_id, status: 'REDEEMED' });
  });

  it('reads a lock request whose expires_at uses another offset and emits it in Z', async () => {
    const at = new Date(fx.clock.now().getTime() + 7200_000);
    const shifted = new Date(at.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00');
    const { request } = lockRequest(fx, { overrides: { expires_at: shifted } });
    const ex = await issue(request);
    expect(ex.status).toBe(201);
    expect(Date.parse((ex.body as CashPack).expires_at)).toBe(at.getTime());
    expect((ex.body as CashPack).expires_at.endsWith('Z')).toBe(true);
  });
});

describe('spec CP 5 rule 3 and profile 4: status access', () => {
  let pack: CashPack;
  beforeAll(async () => {
    ({ pack } = await issuePack(fx));
  });

  it('answers ACTIVE to the issuing principal', async () => {
    const ex = await status(pack.pack_id, fx.op.identities.principals.funded.status_credential);
    expect(ex.body).toEqual({ pack_id: pack.pack_id, status: 'ACTIVE' });
  });
  it('refuses a missing credential with 403 FORBIDDEN', async () => {
    expectError(await status(pack.pack_id), 'FORBIDDEN', 403);
  });
  it('refuses an unknown credential with 403 FORBIDDEN', async () => {
    expectError(await status(pack.pack_id, 'not-a-credential'), 'FORBIDDEN', 403);
  });
  it("refuses another principal's credential with 403 FORBIDDEN", async () => {
    const other = fx.op.identities.principals.low_balance.status_credential;
    expectError(await status(pack.pack_id, other), 'FORBIDDEN', 403);
  });
  it('answers 404 PACK_UNKNOWN to an authenticated caller for an unknown pack', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await status(unknown, fx.op.identities.operator_status_credential), 'PACK_UNKNOWN', 404);
    expectError(await status(unknown), 'FORBIDDEN', 403);
  });
});

describe('spec CP 3 statuses: expiry, harness expire and cancel', () => {
  it('harness expire moves ACTIVE to EXPIRED and returns the funds; a second expire is 409', async () => {
    const before = account('funded');
    const { pack, bearer } = await issuePack(fx);
    const ex = await fx.client.post(`${fx.op.harnessUrl}/expire`, { pack_id: pack.pack_id });
    expect(ex.status).toBe(200);
    expect(ex.body).toEqual({ pack_id: pack.pack_id, status: 'EXPIRED' });
    expect(account('funded')).toEqual(before);
    expectError(
      await fx.client.post(`${fx.op.harnessUrl}/expire`, { pack_id: pack.pack_id }),
      'INSTRUMENT_NOT_ACTIVE',
      409,
    );
    const rq = redemptionRequest(pack, bearer, fx.op.identities.redeemer_identity_tokens.sufficient);
    expectError(await redeem(pack, rq), 'INSTRUMENT_NOT_ACTIVE', 409);
  });

  it('harness cancel moves ACTIVE to CANCELLED and holds the funds', async () => {
    const before = account('funded');
    const { pack, bearer } = await issuePack(fx);
    const ex = await fx.client.post(`${fx.op.harnessUrl}/cancel`, { pack_id: pack.pack_id });
    expect(ex.body).toEqual({ pack_id: pack.pack_id, status: 'CANCELLED' });
    expect(account('funded')).toEqual({
      ...before,
      available: before.available - 2500n,
      locked: before.locked + 2500n,
    });
    const st = await status(pack.pack_id, fx.op.identities.operator_status_credential);
    expect(st.body).toEqual({ pack_id: pack.pack_id, status: 'CANCELLED' });
    expectError(
      await renew(pack, renewalEntry(pack, bearer, generateEd25519KeyPair())),
      'INSTRUMENT_NOT_ACTIVE',
      409,
    );
    expectError(
      await fx.client.post(`${fx.op.harnessUrl}/cancel`, { pack_id: pack.pack_id }),
      'INSTRUMENT_NOT_ACTIVE',
      409,
    );
  });

  it('harness refuses an unknown pack (404) and a malformed body (400)', async () => {
    expectError(
      await fx.client.post(`${fx.op.harnessUrl}/expire`, { pack_id: '00000000-0000-4000-8000-000000000001' }),
      'PACK_UNKNOWN',
      404,
    );
    expectError(await fx.client.post(`${fx.op.harnessUrl}/cancel`, { id: 'x' }), 'INVALID_REQUEST', 400);
  });

  it('a pack past expires_at is EXPIRED on the next access and its funds return', async () => {
    const local = await startOperatorFixture();
    try {
      const { pack, bearer } = await issuePack(local);
      const id = local.op.identities.principals.funded.principal_id;
      expect(local.op.ledger().accounts[id]?.['fiat:EUR:']?.locked).toBe('2500');
      local.clock.advance(3601);
      const rq = redemptionRequest(pack, bearer, local.op.identities.redeemer_identity_tokens.sufficient);
      const rd = await local.client.post(local.url('/v1/cashpack/redeem'), {
        cashpack: pack,
        redemption_request: rq,
      });
      expect({ status: rd.status, code: errorCode(rd) }).toEqual({
        status: 409,
        code: 'INSTRUMENT_NOT_ACTIVE',
      });
      const st = await local.client.get(local.url(`/v1/cashpack/${pack.pack_id}/status`), {
        headers: { authorization: `Bearer ${local.op.identities.principals.funded.status_credential}` },
      });
      expect(st.body).toEqual({ pack_id: pack.pack_id, status: 'EXPIRED' });
      expect(local.op.ledger().accounts[id]?.['fiat:EUR:']).toEqual({
        available: '100000000',
        locked: '0',
        redeemedOut: '0',
      });
      validateTraffic(local.client.take(), OPERATOR_ROUTES);
    } finally {
      await local.close();
    }
  });
});

describe('spec CP 7 and profile 1: every error code, each reached by breaking one condition', () => {
  const sufficient = () => fx.op.identities.redeemer_identity_tokens.sufficient;

  it('INVALID_REQUEST 400: malformed JSON', async () => {
    const ex = await fx.client.request('POST', fx.url('/v1/cashpack/issue'), { text: '{"request_id":' });
    expectError(ex, 'INVALID_REQUEST', 400);
  });
  it('INVALID_REQUEST 400: a missing member, named in the message', async () => {
    const { request } = lockRequest(fx);
    const { amount: _drop, ...rest } = request;
    const ex = await issue(rest);
    expectError(ex, 'INVALID_REQUEST', 400);
    expect((ex.body as { error: { message: string } }).error.message).toContain('"amount"');
  });
  it('INVALID_REQUEST 400: an amount with a leading zero', async () => {
    expectError(
      await issue(lockRequest(fx, { overrides: { amount: '0100' } }).request),
      'INVALID_REQUEST',
      400,
    );
  });
  it('INVALID_REQUEST 400: an asset the policy does not offer', async () => {
    const { request } = lockRequest(fx, { overrides: { asset: { type: 'fiat', code: 'USD' } } });
    expectError(await issue(request), 'INVALID_REQUEST', 400);
  });

  it('INVALID_SIGNATURE 401: lock request signed by another principal', async () => {
    const { request } = lockRequest(fx);
    const forged = signObject(request, fx.op.identities.principals.low_balance.private_key_jwk);
    expectError(await issue(forged), 'INVALID_SIGNATURE', 401);
  });
  it('INVALID_SIGNATURE 401: lock request from an unknown principal', async () => {
    const { request } = lockRequest(fx, { overrides: { principal_id: 'nobody' } });
    expectError(await issue(request), 'INVALID_SIGNATURE', 401);
  });
  it('INVALID_SIGNATURE 401: lock request altered after signing', async () => {
    const { request } = lockRequest(fx);
    expectError(await issue({ ...request, amount: '2600' }), 'INVALID_SIGNATURE', 401);
  });
  it('INVALID_SIGNATURE 401: a submitted cash-pack copy edited by the client', async () => {
    const { pack, bearer } = await issuePack(fx);
    const thief = generateEd25519KeyPair();
    const edited = { ...pack, current_bearer_pk: thief.publicKey };
    expectError(await renew(edited, renewalEntry(pack, bearer, thief)), 'INVALID_SIGNATURE', 401);
    expectError(
      await redeem({ ...pack, amount: '999999' }, redemptionRequest(pack, bearer, sufficient())),
      'INVALID_SIGNATURE',
      401,
    );
  });
  it('INVALID_SIGNATURE 401: renewal entry not signed by its bearer_pk', async () => {
    const { pack, bearer } = await issuePack(fx);
    const entry = renewalEntry(pack, bearer, generateEd25519KeyPair());
    const wrong = signObject(entry, generateEd25519KeyPair().privateJwk);
    expectError(await renew(pack, wrong), 'INVALID_SIGNATURE', 401);
  });
  it('INVALID_SIGNATURE 401: redemption request altered after signing', async () => {
    const { pack, bearer } = await issuePack(fx);
    const rq = redemptionRequest(pack, bearer, sufficient());
    expectError(
      await redeem(pack, { ...rq, destination: { type: 'account', reference: 'attacker' } }),
      'INVALID_SIGNATURE',
      401,
    );
  });

  it('BEARER_MISMATCH 403: renewal by a key that is not the current bearer', async () => {
    const { pack } = await issuePack(fx);
    const stranger = generateEd25519KeyPair();
    expectError(await renew(pack, renewalEntry(pack, stranger, stranger)), 'BEARER_MISMATCH', 403);
  });
  it('BEARER_MISMATCH 403: the previous bearer keeps no rights after a renewal', async () => {
    const { pack, bearer: old } = await issuePack(fx);
    const next = generateEd25519KeyPair();
    const renewed = (await renew(pack, renewalEntry(pack, old, next))).body as CashPack;
    expectError(await redeem(renewed, redemptionRequest(renewed, old, sufficient())), 'BEARER_MISMATCH', 403);
    expectError(await renew(renewed, renewalEntry(renewed, old, old)), 'BEARER_MISMATCH', 403);
  });

  it('REDEEMER_NOT_IDENTIFIED 403: no redeemer, an insufficient level, an unknown token', async () => {
    const { pack, bearer } = await issuePack(fx);
    expectError(
      await redeem(pack, redemptionRequest(pack, bearer, undefined)),
      'REDEEMER_NOT_IDENTIFIED',
      403,
    );
    const low = fx.op.identities.redeemer_identity_tokens.insufficient;
    expectError(await redeem(pack, redemptionRequest(pack, bearer, low)), 'REDEEMER_NOT_IDENTIFIED', 403);
    expectError(
      await redeem(pack, redemptionRequest(pack, bearer, 'unknown')),
      'REDEEMER_NOT_IDENTIFIED',
      403,
    );
  });

  it('DUPLICATE_ID 409: a replayed lock request, and a reused request_id', async () => {
    const { request } = lockRequest(fx);
    expect((await issue(request)).status).toBe(201);
    expectError(await issue(request), 'DUPLICATE_ID', 409);
    const again = lockRequest(fx, { overrides: { request_id: request.request_id, amount: '10' } }).request;
    expectError(await issue(again), 'DUPLICATE_ID', 409);
  });
  it('DUPLICATE_ID 409: a renewal_id reused on another pack', async () => {
    const a = await issuePack(fx);
    const b = await issuePack(fx);
    const first = renewalEntry(a.pack, a.bearer, generateEd25519KeyPair());
    expect((await renew(a.pack, first)).status).toBe(200);
    const reused = renewalEntry(b.pack, b.bearer, generateEd25519KeyPair(), { renewal_id: first.renewal_id });
    expectError(await renew(b.pack, reused), 'DUPLICATE_ID', 409);
  });
  it('DUPLICATE_ID 409: a redemption_id reused on another pack', async () => {
    const a = await issuePack(fx);
    const b = await issuePack(fx);
    const first = redemptionRequest(a.pack, a.bearer, sufficient());
    expect((await redeem(a.pack, first)).status).toBe(200);
    const reused = redemptionRequest(b.pack, b.bearer, sufficient(), { redemption_id: first.redemption_id });
    expectError(await redeem(b.pack, reused), 'DUPLICATE_ID', 409);
  });

  it('CHAIN_DIGEST_MISMATCH 409: prev_chain_digest is not the current chain digest', async () => {
    const { pack, bearer } = await issuePack(fx);
    const wrong = 'f'.repeat(64);
    expectError(
      await renew(pack, renewalEntry(pack, bearer, generateEd25519KeyPair(), { prev_chain_digest: wrong })),
      'CHAIN_DIGEST_MISMATCH',
      409,
    );
    expectError(
      await redeem(pack, redemptionRequest(pack, bearer, sufficient(), { prev_chain_digest: wrong })),
      'CHAIN_DIGEST_MISMATCH',
      409,
    );
  });
  it('CHAIN_DIGEST_MISMATCH 409: the current bearer submits a stale (genuinely signed) copy', async () => {
    const { pack, bearer: b0 } = await issuePack(fx);
    const b1 = generateEd25519KeyPair();
    expect((await renew(pack, renewalEntry(pack, b0, b1))).status).toBe(200);
    // The stale copy still names b0 and d0; the operator decides from its stored state (b1, d1).
    expectError(
      await renew(pack, renewalEntry(pack, b1, generateEd25519KeyPair())),
      'CHAIN_DIGEST_MISMATCH',
      409,
    );
  });

  it('INSTRUMENT_NOT_ACTIVE 409: renewal of a redeemed pack', async () => {
    const { pack, bearer } = await issuePack(fx);
    expect((await redeem(pack, redemptionRequest(pack, bearer, sufficient()))).status).toBe(200);
    expectError(
      await renew(pack, renewalEntry(pack, bearer, generateEd25519KeyPair())),
      'INSTRUMENT_NOT_ACTIVE',
      409,
    );
    expectError(
      await redeem(pack, redemptionRequest(pack, bearer, sufficient())),
      'INSTRUMENT_NOT_ACTIVE',
      409,
    );
  });

  it('CHAIN_DEPTH_EXCEEDED 422: a renewal beyond max_chain_depth', async () => {
    let { pack, bearer } = await issuePack(fx);
    for (let i = 0; i < fx.op.policy.max_chain_depth; i++) {
      const next = generateEd25519KeyPair();
      const ex = await renew(pack, renewalEntry(pack, bearer, next));
      expect(ex.status).toBe(200);
      pack = ex.body as CashPack;
      bearer = next;
    }
    expect(pack.renewal_chain).toHaveLength(5);
    expectError(
      await renew(pack, renewalEntry(pack, bearer, generateEd25519KeyPair())),
      'CHAIN_DEPTH_EXCEEDED',
      422,
    );
    // Depth bounds renewal only: the pack can still be redeemed.
    expect((await redeem(pack, redemptionRequest(pack, bearer, sufficient()))).status).toBe(200);
  });

  it('AMOUNT_EXCEEDS_LIMIT 422: one unit above max_amount (and max_amount itself is accepted)', async () => {
    expectError(
      await issue(lockRequest(fx, { overrides: { amount: '1000001' } }).request),
      'AMOUNT_EXCEEDS_LIMIT',
      422,
    );
    expect((await issue(lockRequest(fx, { overrides: { amount: '1000000' } }).request)).status).toBe(201);
  });

  it('EXPIRY_INVALID 422: below min_expiry_seconds and above max_expiry_seconds', async () => {
    const now = fx.clock.now().getTime();
    const soon = new Date(now + 30_000).toISOString();
    const late = new Date(now + 31 * 24 * 3600_000).toISOString();
    expectError(
      await issue(lockRequest(fx, { overrides: { expires_at: soon } }).request),
      'EXPIRY_INVALID',
      422,
    );
    expectError(
      await issue(lockRequest(fx, { overrides: { expires_at: late } }).request),
      'EXPIRY_INVALID',
      422,
    );
  });

  it("INSUFFICIENT_BALANCE 422: one unit above the low-balance principal's available balance", async () => {
    const available = fx.op.identities.principals.low_balance.available_balance as string;
    const over = (BigInt(available) + 1n).toString();
    const { request } = lockRequest(fx, { principal: 'low_balance', overrides: { amount: over } });
    expectError(await issue(request), 'INSUFFICIENT_BALANCE', 422);
    expect(account('low_balance').available).toBe(BigInt(available));
  });
});

describe('transport edges', () => {
  it('refuses an oversized body with INVALID_REQUEST 400', async () => {
    const ex = await fx.client.request('POST', fx.url('/v1/cashpack/issue'), {
      text: `"${'a'.repeat(70_000)}"`,
    });
    expectError(ex, 'INVALID_REQUEST', 400);
  });
  it('answers an unknown endpoint with 404 and a wrong method with 405, both with the error body', async () => {
    const unknown = await fx.client.get(fx.url('/v1/cashpack/nothing-here'));
    expect(unknown.status).toBe(404);
    expect(errorCode(unknown)).toBe('INVALID_REQUEST');
    const wrongMethod = await fx.client.get(fx.url('/v1/cashpack/issue'));
    expect(wrongMethod.status).toBe(405);
    expect(errorCode(wrongMethod)).toBe('INVALID_REQUEST');
  });
});

describe('the traffic hook can fail', () => {
  it('flags a response body that breaks its route schema, and a response no route covers', () => {
    const base = { requestHeaders: {}, headers: {}, text: '{}' };
    const problems = trafficProblems(
      [
        {
          ...base,
          method: 'POST',
          url: 'https://127.0.0.1:1/v1/cashpack/issue',
          status: 201,
          body: { pack_id: 'x' },
        },
        {
          ...base,
          method: 'GET',
          url: 'https://127.0.0.1:1/v1/cashpack/x/status',
          status: 403,
          body: { error: {} },
        },
        { ...base, method: 'PUT', url: 'https://127.0.0.1:1/elsewhere', status: 200, body: {} },
      ],
      OPERATOR_ROUTES,
    );
    expect(problems).toHaveLength(3);
    expect(problems[0]).toContain('cashpack/cashpack');
    expect(problems[1]).toContain('cashpack/error-body');
    expect(problems[2]).toContain('no route');
  });
});
