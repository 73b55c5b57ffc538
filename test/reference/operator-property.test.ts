import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Ed25519KeyPair, generateEd25519KeyPair } from '../../src/crypto/ed25519.js';
import { type CashPack, type PackStatus, ReferenceOperator } from '../../src/reference/operator/index.js';
import { type Exchange, validateTraffic } from '../_support/https.js';
import {
  lockRequest,
  OPERATOR_ROUTES,
  type OperatorFixture,
  redemptionRequest,
  renewalEntry,
  startOperatorFixture,
  totalMoney,
} from './operator-support.js';

type Command =
  | { kind: 'issue'; principal: 'funded' | 'low_balance'; amount: bigint; expirySeconds: number }
  | { kind: 'renew'; pack: number; rightKey: boolean; stale: boolean }
  | { kind: 'redeem'; pack: number; rightKey: boolean; sufficient: boolean }
  | { kind: 'status'; pack: number }
  | { kind: 'expire'; pack: number }
  | { kind: 'cancel'; pack: number }
  | { kind: 'replay' }
  | { kind: 'advance'; seconds: number };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({
    kind: fc.constant('issue' as const),
    principal: fc.constantFrom('funded' as const, 'low_balance' as const),
    amount: fc.oneof(fc.bigInt({ min: 1n, max: 6000n }), fc.bigInt({ min: 1n, max: 1_100_000n })),
    expirySeconds: fc.oneof(fc.integer({ min: 60, max: 7200 }), fc.constantFrom(10, 40 * 86_400)),
  }),
  fc.record({
    kind: fc.constant('renew' as const),
    pack: fc.nat(),
    rightKey: fc.boolean(),
    stale: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('redeem' as const),
    pack: fc.nat(),
    rightKey: fc.boolean(),
    sufficient: fc.boolean(),
  }),
  fc.record({ kind: fc.constant('status' as const), pack: fc.nat() }),
  fc.record({ kind: fc.constant('expire' as const), pack: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), pack: fc.nat() }),
  fc.constant({ kind: 'replay' as const }),
  fc.record({ kind: fc.constant('advance' as const), seconds: fc.integer({ min: 0, max: 4000 }) }),
);

/** One fault: DUPLICATE_ID never fires. */
class NoReplayCheck extends ReferenceOperator {
  protected override checkDuplicateId(): void {}
}

/** One fault: INSUFFICIENT_BALANCE never fires. */
class NoBalanceCheck extends ReferenceOperator {
  protected override checkBalance(): void {}
}

interface Tracked {
  latest: CashPack;
  previous: CashPack;
  bearer: Ed25519KeyPair;
}

/** Outcome of one property check against a running Operator. */
interface PropertyOutcome {
  details: fc.RunDetails<[Command[]]>;
  terminal: Map<string, PackStatus>;
}

/**
 * The property: over random command sequences, money is never created or lost (sum over
 * principals of available + locked + redeemed-out is constant, no bucket negative), a replayed
 * successful request never succeeds again, and a terminal pack never changes status.
 */
/** Seed of the ledger property (fixed: CI runs must not depend on luck). */
const PROPERTY_SEED = 20261122;

async function checkLedgerProperty(fx: OperatorFixture, numRuns: number): Promise<PropertyOutcome> {
  const initialTotal = totalMoney(fx.op);
  /** Every terminal status ever observed, by pack_id: it must never change. */
  const terminal = new Map<string, PackStatus>();

  async function observe(packId: string): Promise<void> {
    const ex = await fx.client.get(fx.url(`/v1/cashpack/${packId}/status`), {
      headers: { authorization: `Bearer ${fx.op.identities.operator_status_credential}` },
    });
    expect(ex.status).toBe(200);
    const status = (ex.body as { status: PackStatus }).status;
    const seen = terminal.get(packId);
    // Spec CP 3: REDEEMED, EXPIRED and CANCELLED are terminal.
    if (seen !== undefined) expect(status, `terminal pack ${packId} changed status`).toBe(seen);
    if (status !== 'ACTIVE') terminal.set(packId, status);
  }

  const details = await fc.check(
    fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 20 }), async (commands) => {
      const packs: Tracked[] = [];
      let lastMutation: { url: string; body: unknown } | undefined;
      const send = async (path: string, body: unknown): Promise<Exchange> => {
        const url = fx.url(path);
        const ex = await fx.client.post(url, body);
        expect(ex.status === undefined ? 0 : ex.status < 500, `no 5xx: ${ex.text}`).toBe(true);
        if (ex.status !== undefined && ex.status < 300 && !path.startsWith('/harness')) {
          lastMutation = { url, body };
        }
        return ex;
      };
      const pick = (i: number): Tracked | undefined =>
        packs.length === 0 ? undefined : packs[i % packs.length];

      for (const cmd of commands) {
        let touched: Tracked | undefined;
        switch (cmd.kind) {
          case 'issue': {
            const expires = new Date(fx.clock.now().getTime() + cmd.expirySeconds * 1000).toISOString();
            const { request, bearer } = lockRequest(fx, {
              principal: cmd.principal,
              overrides: { amount: cmd.amount.toString(), expires_at: expires },
            });
            const ex = await send('/v1/cashpack/issue', request);
            if (ex.status === 201) {
              const pack = ex.body as CashPack;
              touched = { latest: pack, previous: pack, bearer };
              packs.push(touched);
            }
            break;
          }
          case 'renew': {
            touched = pick(cmd.pack);
            if (touched === undefined) break;
            const copy = cmd.stale ? touched.previous : touched.latest;
            const signer = cmd.rightKey ? touched.bearer : generateEd25519KeyPair();
            const next = generateEd25519KeyPair();
            const ex = await send('/v1/cashpack/renew', {
              cashpack: copy,
              renewal_entry: renewalEntry(copy, signer, next),
            });
            if (ex.status === 200) {
              touched.previous = touched.latest;
              touched.latest = ex.body as CashPack;
              touched.bearer = next;
            }
            break;
          }
          case 'redeem': {
            touched = pick(cmd.pack);
            if (touched === undefined) break;
            const tokens = fx.op.identities.redeemer_identity_tokens;
            const signer = cmd.rightKey ? touched.bearer : generateEd25519KeyPair();
            await send('/v1/cashpack/redeem', {
              cashpack: touched.latest,
              redemption_request: redemptionRequest(
                touched.latest,
                signer,
                cmd.sufficient ? tokens.sufficient : tokens.insufficient,
              ),
            });
            break;
          }
          case 'status':
            touched = pick(cmd.pack);
            break;
          case 'expire':
          case 'cancel': {
            touched = pick(cmd.pack);
            if (touched === undefined) break;
            await send(`/harness/${cmd.kind}`, { pack_id: touched.latest.pack_id });
            break;
          }
          case 'replay': {
            if (lastMutation === undefined) break;
            const ex = await fx.client.post(lastMutation.url, lastMutation.body);
            // Spec CP 2, 8: a replayed request_id, renewal_id or redemption_id never succeeds twice.
            expect(ex.status, `replay of ${lastMutation.url} succeeded`).toBeGreaterThanOrEqual(400);
            break;
          }
          case 'advance':
            fx.clock.advance(cmd.seconds);
            break;
        }
        if (touched !== undefined) await observe(touched.latest.pack_id);
        // Spec CP 1 item 2, CP 3: money moves between available, locked and redeemed-out only.
        expect(totalMoney(fx.op)).toBe(initialTotal);
        for (const account of Object.values(fx.op.ledger().accounts)) {
          for (const a of Object.values(account)) {
            expect(BigInt(a.available) >= 0n && BigInt(a.locked) >= 0n, 'an account bucket is negative').toBe(
              true,
            );
          }
        }
      }
      for (const p of packs) await observe(p.latest.pack_id);
      validateTraffic(fx.client.take(), OPERATOR_ROUTES);
    }),
    // A fixed seed keeps the suite reproducible (and the vacuity guard below stable); change it
    // to explore other sequences. fast-check prints the seed and path of any failure.
    { numRuns, seed: PROPERTY_SEED },
  );
  return { details, terminal };
}

describe('ledger and status invariants over random command sequences', () => {
  let fx: OperatorFixture;
  beforeAll(async () => {
    fx = await startOperatorFixture();
  });
  afterEach(() => {
    validateTraffic(fx.client.take(), OPERATOR_ROUTES);
  });
  afterAll(async () => {
    await fx.close();
  });

  it('money is never created or lost, and a terminal pack never changes status', async () => {
    const { details, terminal } = await checkLedgerProperty(fx, 40);
    // On failure fast-check's report names the seed, the path and the shrunk command sequence.
    if (details.failed) throw new Error(fc.defaultReportMessage(details) ?? 'property failed');
    // The runs really reached terminal statuses (the property did not pass vacuously).
    expect(new Set(terminal.values()).size).toBeGreaterThanOrEqual(2);
  });
});

describe('the property can fail: one-fault operators trip it', () => {
  it.each([
    ['a replayed request id is accepted', NoReplayCheck, /replay of .* succeeded/],
    ['the balance is not checked', NoBalanceCheck, /an account bucket is negative/],
  ])('%s', async (_name, operatorClass, reason) => {
    const fx = await startOperatorFixture({ operatorClass });
    try {
      const { details } = await checkLedgerProperty(fx, 100);
      expect(details.failed).toBe(true);
      expect(String(details.errorInstance)).toMatch(reason);
    } finally {
      fx.client.take();
      await fx.close();
    }
  });
});
