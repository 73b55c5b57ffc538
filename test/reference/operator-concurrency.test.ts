import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateEd25519KeyPair } from '../../src/crypto/ed25519.js';
import type { CashPack } from '../../src/reference/operator/index.js';
import { OperatorStore, type Transaction } from '../../src/reference/operator/index.js';
import { validateTraffic } from '../_support/https.js';
import {
  errorCode,
  issuePack,
  OPERATOR_ROUTES,
  type OperatorFixture,
  redemptionRequest,
  renewalEntry,
  startOperatorFixture,
  totalMoney,
} from './operator-support.js';

const N = 32;

/** Opens N keep-alive TLS connections first, so the race below is not serialised by handshakes. */
async function warm(fx: OperatorFixture): Promise<void> {
  const warmups = await Promise.all(
    Array.from({ length: N }, () => fx.client.get(fx.url('/.well-known/cashpack-policy.json'))),
  );
  expect(warmups.every((ex) => ex.status === 200)).toBe(true);
}

async function raceRedeems(
  fx: OperatorFixture,
): Promise<{ statuses: number[]; codes: (string | undefined)[] }> {
  const { pack, bearer } = await issuePack(fx);
  const token = fx.op.identities.redeemer_identity_tokens.sufficient;
  const bodies = Array.from({ length: N }, () => ({
    cashpack: pack,
    redemption_request: redemptionRequest(pack, bearer, token),
  }));
  const results = await Promise.all(bodies.map((b) => fx.client.post(fx.url('/v1/cashpack/redeem'), b)));
  return { statuses: results.map((r) => r.status as number), codes: results.map(errorCode) };
}

describe('spec CP 3 single use under concurrency (reference store)', () => {
  let fx: OperatorFixture;
  let initialTotal: bigint;
  beforeAll(async () => {
    fx = await startOperatorFixture();
    initialTotal = totalMoney(fx.op);
    await warm(fx);
  });
  afterEach(() => {
    validateTraffic(fx.client.take(), OPERATOR_ROUTES);
    expect(totalMoney(fx.op)).toBe(initialTotal);
  });
  afterAll(async () => {
    await fx.close();
  });

  it(`${N} simultaneous redeems of one pack: exactly one succeeds, the rest are INSTRUMENT_NOT_ACTIVE`, async () => {
    const id = fx.op.identities.principals.funded.principal_id;
    const before = fx.op.ledger().accounts[id]?.['fiat:EUR:'];
    const { statuses, codes } = await raceRedeems(fx);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 'INSTRUMENT_NOT_ACTIVE')).toHaveLength(N - 1);
    const after = fx.op.ledger().accounts[id]?.['fiat:EUR:'];
    // Funds released once: redeemed-out grows by one amount only.
    expect(BigInt(after?.redeemedOut ?? '0') - BigInt(before?.redeemedOut ?? '0')).toBe(2500n);
    expect(after?.locked).toBe(before?.locked);
  });

  it(`${N} simultaneous renewals of one pack: exactly one succeeds, the rest are CHAIN_DIGEST_MISMATCH`, async () => {
    const { pack, bearer } = await issuePack(fx);
    const entries = Array.from({ length: N }, () => renewalEntry(pack, bearer, generateEd25519KeyPair()));
    const results = await Promise.all(
      entries.map((renewal_entry) =>
        fx.client.post(fx.url('/v1/cashpack/renew'), { cashpack: pack, renewal_entry }),
      ),
    );
    const winners = results.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(results.filter((r) => errorCode(r) === 'CHAIN_DIGEST_MISMATCH')).toHaveLength(N - 1);
    const renewed = winners[0]?.body as CashPack;
    expect(renewed.renewal_chain).toHaveLength(1);
    // The stored state agrees: one entry, and the winner's new key is the bearer.
    const stored = fx.op.operator.store.getPack(pack.pack_id);
    expect(stored?.renewal_chain).toHaveLength(1);
    expect(stored?.current_bearer_pk).toBe(renewed.current_bearer_pk);
  });
});

/** A store that awaits between check and write: the seam a broken variant uses. */
class AwaitingStore extends OperatorStore {
  override async commit<T>(tx: Transaction<T>): Promise<T> {
    tx.check(this.state);
    await new Promise((resolve) => setImmediate(resolve));
    return tx.apply(this.state);
  }
}

describe('the concurrency check can fail: a store that awaits between check and write', () => {
  let fx: OperatorFixture;
  beforeAll(async () => {
    fx = await startOperatorFixture({ storeClass: AwaitingStore });
    await warm(fx);
  });
  afterAll(async () => {
    fx.client.take();
    await fx.close();
  });

  it('lets more than one of the simultaneous redeems through (double spend the reference prevents)', async () => {
    const { statuses } = await raceRedeems(fx);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThan(1);
  });
});
