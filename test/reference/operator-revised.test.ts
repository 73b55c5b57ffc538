/**
 * The reference Operator under the revised profile (issue 7, issue 11): a missing signature is
 * 401 INVALID_SIGNATURE, request timestamps with any offset are read as instants and emitted with
 * Z, impossible timestamps are refused, the optional harness test clock, expiry on any access
 * (the Principal's balance included), status secrecy, and the ledger snapshot's shape.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/crypto/ed25519.js';
import type { CashPack } from '../../src/reference/operator/index.js';
import { MessageParser, parseRfc3339 } from '../../src/reference/operator/index.js';
import { type Exchange, validateTraffic } from '../_support/https.js';
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
let initialTotal: bigint;

beforeAll(async () => {
  fx = await startOperatorFixture();
  initialTotal = totalMoney(fx.op);
});
afterEach(() => {
  validateTraffic(fx.client.take(), OPERATOR_ROUTES);
  expect(totalMoney(fx.op)).toBe(initialTotal);
});
afterAll(async () => {
  await fx.close();
});

function expectError(ex: Exchange, code: string, status: number): void {
  expect({ status: ex.status, code: errorCode(ex) }, ex.text).toEqual({ status, code });
}

function without<T extends object>(o: T, member: string): Record<string, unknown> {
  const copy = { ...(o as Record<string, unknown>) };
  delete copy[member];
  return copy;
}

const post = (path: string, body: unknown) => fx.client.post(fx.url(path), body);

describe('profile 4: a message without its signature member is 401 INVALID_SIGNATURE', () => {
  it('on issue, renew (entry and copy) and redeem (request and copy)', async () => {
    expectError(
      await post('/v1/cashpack/issue', without(lockRequest(fx).request, 'signature')),
      'INVALID_SIGNATURE',
      401,
    );
    const { pack, bearer } = await issuePack(fx);
    const token = fx.op.identities.redeemer_identity_tokens.sufficient;
    for (const body of [
      {
        cashpack: pack,
        renewal_entry: without(renewalEntry(pack, bearer, generateEd25519KeyPair()), 'signature'),
      },
      {
        cashpack: without(pack, 'signature'),
        renewal_entry: renewalEntry(pack, bearer, generateEd25519KeyPair()),
      },
    ]) {
      expectError(await post('/v1/cashpack/renew', body), 'INVALID_SIGNATURE', 401);
    }
    for (const body of [
      { cashpack: pack, redemption_request: without(redemptionRequest(pack, bearer, token), 'signature') },
      { cashpack: without(pack, 'signature'), redemption_request: redemptionRequest(pack, bearer, token) },
    ]) {
      expectError(await post('/v1/cashpack/redeem', body), 'INVALID_SIGNATURE', 401);
    }
    // a signature of the wrong type is a schema failure
    expectError(
      await post('/v1/cashpack/issue', { ...lockRequest(fx).request, signature: 5 }),
      'INVALID_REQUEST',
      400,
    );
  });
});

describe('profile 1 and 4: request timestamps', () => {
  it('reads any offset as the instant it names and refuses impossible dates and times', () => {
    expect(parseRfc3339('2026-11-22T10:00:00+14:00')).toBe(Date.UTC(2026, 10, 21, 20));
    expect(parseRfc3339('2026-11-22T10:00:00-12:00')).toBe(Date.UTC(2026, 10, 22, 22));
    expect(parseRfc3339('2026-11-22t10:00:00.250z')).toBe(Date.UTC(2026, 10, 22, 10, 0, 0, 250));
    for (const bad of [
      '2026-13-01T10:00:00Z',
      '2026-00-01T10:00:00Z',
      '2026-02-29T10:00:00Z',
      '2026-04-31T10:00:00Z',
      '2026-11-22T24:00:00Z',
      '2026-11-22T10:60:00Z',
      '2026-11-22T10:00:61Z',
      '2026-11-22T10:00:00+24:00',
      '2026-11-22T10:00:00+10:60',
      '2026-11-22T10:00:00',
      '2026-11-22',
      '',
      42,
    ]) {
      expect(parseRfc3339(bad), String(bad)).toBeUndefined();
    }
    expect(parseRfc3339('2028-02-29T00:00:00Z')).toBe(Date.UTC(2028, 1, 29));
  });

  it('issues a pack whose expires_at, requested with +14:00, is the same instant written with Z', async () => {
    const now = fx.clock.now().getTime();
    const instant = Math.floor(now / 1000) * 1000 + 7200_000;
    const wall = new Date(instant + 14 * 3600_000).toISOString().slice(0, 19);
    const { request } = lockRequest(fx, { overrides: { expires_at: `${wall}+14:00` } });
    const ex = await post('/v1/cashpack/issue', request);
    expect(ex.status, ex.text).toBe(201);
    const pack = ex.body as CashPack;
    expect(pack.expires_at).toMatch(/Z$/);
    expect(Date.parse(pack.expires_at)).toBe(instant);
    // The wall time of that instant in Z, written +14:00, is 12 h in the past.
    const wallOfZ = new Date(instant).toISOString().slice(0, 19);
    expectError(
      await post(
        '/v1/cashpack/issue',
        lockRequest(fx, { overrides: { expires_at: `${wallOfZ}+14:00` } }).request,
      ),
      'EXPIRY_INVALID',
      422,
    );
    await fx.client.post(`${fx.op.harnessUrl}/expire`, { pack_id: pack.pack_id });
  });

  it('the parser is a seam: a subclass can weaken exactly one check', () => {
    class NoTimestampCheck extends MessageParser {
      protected override timestamp(obj: Record<string, unknown>, key: string): string {
        return String(obj[key]);
      }
    }
    const { request } = lockRequest(fx, { overrides: { created_at: '2026-11-22T24:00:00Z' } });
    expect(() => new MessageParser().lockRequest(request)).toThrow(/created_at/);
    expect(new NoTimestampCheck().lockRequest(request).created_at).toBe('2026-11-22T24:00:00Z');
  });
});

describe('profile 4: limits are inclusive', () => {
  it('allows max_amount, exactly the balance, and an expiry exactly min or max ahead', async () => {
    const low = fx.op.identities.principals.low_balance.available_balance as string;
    const now = fx.clock.now().getTime();
    const exact = (seconds: number) => new Date(now + seconds * 1000).toISOString();
    for (const request of [
      lockRequest(fx, { overrides: { amount: fx.op.policy.max_amount } }).request,
      lockRequest(fx, { principal: 'low_balance', overrides: { amount: low } }).request,
      lockRequest(fx, { overrides: { expires_at: exact(fx.op.policy.min_expiry_seconds) } }).request,
      lockRequest(fx, { overrides: { expires_at: exact(fx.op.policy.max_expiry_seconds) } }).request,
    ]) {
      const ex = await post('/v1/cashpack/issue', request);
      expect(ex.status, ex.text).toBe(201);
      await fx.client.post(`${fx.op.harnessUrl}/expire`, { pack_id: (ex.body as CashPack).pack_id });
    }
  });
});

describe('profile 4: the optional test clock', () => {
  it('moves now forward for every expiry decision, never back, and answers {now} with Z', async () => {
    const local = await startOperatorFixture();
    try {
      const { pack } = await issuePack(local);
      const a = await local.client.post(`${local.op.harnessUrl}/clock`, { advance_seconds: 0 });
      expect(a.status, a.text).toBe(200);
      const b = await local.client.post(`${local.op.harnessUrl}/clock`, { advance_seconds: 3601 });
      const nowA = Date.parse((a.body as { now: string }).now);
      const nowB = Date.parse((b.body as { now: string }).now);
      expect(nowB - nowA).toBe(3601_000);
      for (const bad of [{ advance_seconds: -1 }, { advance_seconds: 1.5 }, { advance_seconds: '5' }, {}]) {
        const ex = await local.client.post(`${local.op.harnessUrl}/clock`, bad);
        expect({ status: ex.status, code: errorCode(ex) }).toEqual({ status: 400, code: 'INVALID_REQUEST' });
      }
      const st = await local.client.get(local.url(`/v1/cashpack/${pack.pack_id}/status`), {
        headers: { authorization: `Bearer ${local.op.identities.principals.funded.status_credential}` },
      });
      expect(st.body).toEqual({ pack_id: pack.pack_id, status: 'EXPIRED' });
      validateTraffic(local.client.take(), OPERATOR_ROUTES);
    } finally {
      await local.close();
    }
  });

  it('is absent (404) when the harness is started without it', async () => {
    const local = await startOperatorFixture({ testClock: false });
    try {
      const ex = await local.client.post(`${local.op.harnessUrl}/clock`, { advance_seconds: 1 });
      expect(ex.status).toBe(404);
    } finally {
      await local.close();
    }
  });
});

describe('profile 4: a pack is EXPIRED from the instant expires_at passes, on any access', () => {
  it("returns an expired pack's funds before the Principal's next issue, without the pack being accessed", async () => {
    const local = await startOperatorFixture();
    try {
      const low = local.op.identities.principals.low_balance;
      const whole = low.available_balance as string;
      const first = await local.client.post(
        local.url('/v1/cashpack/issue'),
        lockRequest(local, { principal: 'low_balance', overrides: { amount: whole } }).request,
      );
      expect(first.status, first.text).toBe(201);
      local.clock.advance(3600);
      const again = await local.client.post(
        local.url('/v1/cashpack/issue'),
        lockRequest(local, { principal: 'low_balance', overrides: { amount: whole } }).request,
      );
      expect(again.status, again.text).toBe(201);
      const ledger = local.op.ledger().accounts[low.principal_id]?.['fiat:EUR:'];
      expect(ledger).toEqual({ available: '0', locked: whole, redeemedOut: '0' });
      const st = await local.client.get(
        local.url(`/v1/cashpack/${(first.body as CashPack).pack_id}/status`),
        {
          headers: { authorization: `Bearer ${low.status_credential}` },
        },
      );
      expect((st.body as { status: string }).status).toBe('EXPIRED');
    } finally {
      await local.close();
    }
  });

  it('at expires_at itself the pack is no longer ACTIVE', async () => {
    const local = await startOperatorFixture();
    try {
      const { pack, bearer } = await issuePack(local);
      local.clock.advance((Date.parse(pack.expires_at) - local.clock.now().getTime()) / 1000);
      const ex = await local.client.post(local.url('/v1/cashpack/renew'), {
        cashpack: pack,
        renewal_entry: renewalEntry(pack, bearer, generateEd25519KeyPair()),
      });
      expect({ status: ex.status, code: errorCode(ex) }).toEqual({
        status: 409,
        code: 'INSTRUMENT_NOT_ACTIVE',
      });
    } finally {
      await local.close();
    }
  });
});

describe('profile 4: status secrecy and the ledger', () => {
  it('answers 403 FORBIDDEN to a caller without a valid credential, whether or not the pack exists', async () => {
    const { pack } = await issuePack(fx);
    for (const id of [pack.pack_id, '00000000-0000-4000-8000-00000000abcd']) {
      for (const headers of [
        {},
        { authorization: 'Bearer not-a-credential' },
        { authorization: 'Basic x' },
      ] as Record<string, string>[]) {
        const ex = await fx.client.get(fx.url(`/v1/cashpack/${id}/status`), { headers });
        expectError(ex, 'FORBIDDEN', 403);
      }
    }
    await fx.client.post(`${fx.op.harnessUrl}/expire`, { pack_id: pack.pack_id });
  });

  it('reports every account with its three balances as digit strings', () => {
    const accounts = fx.op.ledger().accounts;
    const ids = Object.keys(accounts).sort();
    expect(ids).toEqual(
      [
        fx.op.identities.principals.funded.principal_id,
        fx.op.identities.principals.low_balance.principal_id,
      ].sort(),
    );
    for (const id of ids) {
      const eur = accounts[id]?.['fiat:EUR:'];
      expect(Object.keys(eur ?? {}).sort()).toEqual(['available', 'locked', 'redeemedOut']);
      for (const v of Object.values(eur ?? {})) expect(v).toMatch(/^(0|[1-9][0-9]*)$/);
    }
  });
});
