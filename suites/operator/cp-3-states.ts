/**
 * Cash-Pack API section 3 (states and transitions, read as AMB-7): ACTIVE -> REDEEMED, EXPIRED
 * or CANCELLED, terminal states never change and answer INSTRUMENT_NOT_ACTIVE; the profile
 * section 4 harness; single success under 32 simultaneous issues with one request_id, redeems or renewals (last-byte synchronised, spread measured); and a model-based
 * run of random command sequences against a model of the instrument.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { Ed25519KeyPair } from '../../src/crypto/ed25519.js';
import {
  assertProperty,
  assertThat,
  check,
  expectErrorCode,
  expectOk,
  type OperatorCall,
  type OperatorResult,
  type RaceOutcome,
  runsAlone,
} from '../_lib/index.js';
import { assertRaced, runRace, singleWinner } from '../_lib/race.js';
import {
  ALL_ERROR_CODES,
  assertSchema,
  type CashPack,
  expectProfileCodeIn,
  expectProfileError,
  harness,
  isObject,
  issue,
  lockRequest,
  newKey,
  type OperatorSetup,
  redemptionRequest,
  renewalEntry,
  setup,
  statusOf,
} from './_support/index.js';

type Terminal = 'REDEEMED' | 'EXPIRED' | 'CANCELLED';

/** A fresh pack moved to `to`: by redemption, or through the harness. */
async function terminalPack(
  s: OperatorSetup,
  to: Terminal,
): Promise<{ pack: CashPack; bearer: Ed25519KeyPair }> {
  const issued = await issue(s);
  if (to === 'REDEEMED') {
    expectOk(await s.op.redeem(issued.pack, redemptionRequest(s, issued.pack, issued.bearer)), 'redemption');
  } else {
    const h = harness(s);
    expectOk(
      await (to === 'EXPIRED' ? h.expire(issued.pack.pack_id) : h.cancel(issued.pack.pack_id)),
      `harness ${to}`,
    );
  }
  return issued;
}

/** A renewal and a redemption of a terminal pack by its current bearer, otherwise valid. */
async function useTerminal(
  s: OperatorSetup,
  to: Terminal,
): Promise<{ renew: OperatorResult; redeem: OperatorResult; packId: string }> {
  const { pack, bearer } = await terminalPack(s, to);
  return {
    renew: await s.op.renew(pack, renewalEntry(pack, bearer, newKey())),
    redeem: await s.op.redeem(pack, redemptionRequest(s, pack, bearer)),
    packId: pack.pack_id,
  };
}

const TERMINAL_IDS: Record<Terminal, string> = {
  REDEEMED: 'CP-3-REDEEMED',
  EXPIRED: 'CP-3-EXPIRED',
  CANCELLED: 'CP-3-CANCELLED',
};

describe('Cash-Pack API section 3: terminal statuses', () => {
  for (const to of ['REDEEMED', 'EXPIRED', 'CANCELLED'] as const) {
    check(
      `pack-stays-renewal-redemption-yields-${to}-${to}`,
      ['CP-7-INSTRUMENT-NOT-ACTIVE', 'CP-3-TERMINAL-STATUS', TERMINAL_IDS[to]],
      `a pack that is ${to} stays ${to}, and its renewal or redemption yields INSTRUMENT_NOT_ACTIVE`,
      async () => {
        const s = await setup();
        const r = await useTerminal(s, to);
        expectErrorCode(r.renew, 'INSTRUMENT_NOT_ACTIVE', `renewal of a ${to} pack`);
        expectErrorCode(r.redeem, 'INSTRUMENT_NOT_ACTIVE', `redemption of a ${to} pack`);
        const status = await statusOf(s, r.packId);
        assertThat(status === to, `the status stays ${to} (got ${JSON.stringify(status)})`);
      },
    );
  }

  check(
    'instrument-active-http-409-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'INSTRUMENT_NOT_ACTIVE is HTTP 409 with the error body',
    async () => {
      const s = await setup();
      const r = await useTerminal(s, 'REDEEMED');
      expectProfileError(r.renew, 409, 'renewal of a REDEEMED pack');
      expectProfileError(r.redeem, 409, 'redemption of a REDEEMED pack');
    },
  );
});

describe('Profile section 4: the operator harness', () => {
  check(
    'post-harness-expire-cancel-move-active-pack',
    ['PRF-4-HARNESS-EXPIRE-CANCEL'],
    'POST {harness}/expire and /cancel move an ACTIVE pack to EXPIRED / CANCELLED and answer 200 {pack_id, status}',
    async () => {
      const s = await setup();
      const h = harness(s);
      for (const [to, call] of [
        ['EXPIRED', (id: string) => h.expire(id)],
        ['CANCELLED', (id: string) => h.cancel(id)],
      ] as const) {
        const { pack } = await issue(s);
        const r = await call(pack.pack_id);
        assertThat(
          r.ok && (r.status === undefined || r.status === 200),
          `harness ${to} answers 200 (got ${r.status})`,
        );
        assertSchema('harness/expire-or-cancel-response', r.body, `the harness ${to} answer`);
        const body = r.body as { pack_id?: unknown; status?: unknown };
        assertThat(
          body.pack_id === pack.pack_id && body.status === to,
          `the answer is {pack_id, status: "${to}"}`,
        );
      }
    },
  );

  check(
    'harness-answers-409-instrument-active-pack-already',
    ['PRF-4-HARNESS-TERMINAL-409'],
    'the harness answers 409 INSTRUMENT_NOT_ACTIVE for a pack already terminal',
    async () => {
      const s = await setup();
      const h = harness(s);
      const { pack } = await terminalPack(s, 'REDEEMED');
      for (const [what, r] of [
        ['expire', await h.expire(pack.pack_id)],
        ['cancel', await h.cancel(pack.pack_id)],
      ] as const) {
        expectProfileError(r, 409, `harness ${what} of a REDEEMED pack`);
        expectErrorCode(r, 'INSTRUMENT_NOT_ACTIVE', `harness ${what} of a REDEEMED pack`);
      }
    },
  );
});

/**
 * Simultaneous requests of each race: every racer's connection opened first, its request held
 * one byte short, the last bytes released together (suites/_lib/race.ts).
 */
const RACERS = 32;

// a race runs with no other check beside it (`cprc run --jobs`): other traffic would widen its spread
runsAlone([
  `simultaneous-issues-one-request-id-exactly-succeeds-${RACERS}`,
  `concurrent-redemptions-pack-exactly-succeeds-${RACERS}`,
  `concurrent-renewals-pack-exactly-succeeds-${RACERS}`,
]);

/** Runs `calls` as one race through the driver (measured), or all at once without its race method. */
function raceOperator(s: OperatorSetup, calls: OperatorCall[]): Promise<RaceOutcome<OperatorResult>> {
  const one = (c: OperatorCall): Promise<OperatorResult> =>
    c.op === 'issue'
      ? s.op.issue(c.lockRequest)
      : c.op === 'renew'
        ? s.op.renew(c.cashpack, c.entry)
        : s.op.redeem(c.cashpack, c.request);
  return runRace(calls.length, s.op.race?.bind(s.op, calls), (i) => one(calls[i] as OperatorCall));
}

describe('Profile section 1: the harness refuses a pack it never issued', () => {
  check(
    'harness-unknown-pack-profile-error',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'POST {harness}/expire and /cancel of a pack_id the Operator never issued answer a profile error (a code of the profile table, the status of its row, the error body), never a success or a server error',
    async () => {
      const s = await setup();
      const h = harness(s, 'the harness transitions cannot be asked about an unknown pack');
      for (const [what, call] of [
        ['expire', (id: string) => h.expire(id)],
        ['cancel', (id: string) => h.cancel(id)],
      ] as const) {
        expectProfileCodeIn(
          await call(randomUUID()),
          ALL_ERROR_CODES,
          `harness ${what} of a pack never issued`,
        );
      }
    },
  );
});

describe('Cash-Pack API section 3: one success among simultaneous requests', () => {
  check(
    `simultaneous-issues-one-request-id-exactly-succeeds-${RACERS}`,
    ['CP-2-REQUEST-ID-REPLAY', 'CP-8-ID-SINGLE-USE'],
    `${RACERS} simultaneous issues of one Lock Request (one request_id): exactly one succeeds`,
    async () => {
      const s = await setup();
      const { request } = lockRequest(s);
      const race = await raceOperator(
        s,
        Array.from({ length: RACERS }, () => ({ op: 'issue' as const, lockRequest: request })),
      );
      const what = 'simultaneous issues of one Lock Request';
      singleWinner(race, (r) => r.ok, what);
      assertRaced(race, what);
    },
  );

  check(
    `concurrent-redemptions-pack-exactly-succeeds-${RACERS}`,
    ['CP-3-REDEEMED', 'CP-3-TERMINAL-STATUS'],
    `${RACERS} concurrent redemptions of one pack: exactly one succeeds and the pack ends REDEEMED`,
    async () => {
      const s = await setup();
      const { pack, bearer } = await issue(s);
      const race = await raceOperator(
        s,
        Array.from({ length: RACERS }, () => ({
          op: 'redeem' as const,
          cashpack: pack,
          request: redemptionRequest(s, pack, bearer),
        })),
      );
      const what = 'simultaneous redemptions of one pack';
      singleWinner(race, (r) => r.ok, what);
      const status = await statusOf(s, pack.pack_id);
      assertThat(status === 'REDEEMED', `the pack ends REDEEMED (got ${JSON.stringify(status)})`);
      assertRaced(race, what);
    },
  );

  check(
    `concurrent-renewals-pack-exactly-succeeds-${RACERS}`,
    ['CP-1-RENEWAL-TRANSFERS', 'CP-7-CHAIN-DIGEST-MISMATCH'],
    `${RACERS} concurrent renewals of one pack: exactly one succeeds and its new key holds the pack`,
    async () => {
      const s = await setup();
      const { pack, bearer } = await issue(s);
      const nextKeys = Array.from({ length: RACERS }, () => newKey());
      const race = await raceOperator(
        s,
        nextKeys.map((k) => ({ op: 'renew' as const, cashpack: pack, entry: renewalEntry(pack, bearer, k) })),
      );
      const what = 'simultaneous renewals of one pack';
      const winner = singleWinner(race, (r) => r.ok, what);
      const updated = race.results[winner]?.body as CashPack;
      expectOk(
        await s.op.redeem(updated, redemptionRequest(s, updated, nextKeys[winner] as Ed25519KeyPair)),
        "redemption by the winning renewal's key",
      );
      assertRaced(race, what);
    },
  );
});

// ------------------------------------------------------------------ model-based run

/** The model of one instrument (AMB-7): its status and chain depth. */
interface ModelPack {
  status: 'ACTIVE' | Terminal;
  depth: number;
}

/** The model: the packs of this run, and the single-use IDs consumed so far. */
interface Model {
  packs: ModelPack[];
  requestIds: string[];
  renewalIds: string[];
}

/** The real side: the Operator and, per pack, the current copy and bearer key (and the previous ones). */
interface Real {
  s: OperatorSetup;
  packs: {
    pack: CashPack;
    bearer: Ed25519KeyPair;
    previous?: { pack: CashPack; bearer: Ed25519KeyPair };
  }[];
}

type Cmd = fc.AsyncCommand<Model, Real, boolean>;

/** Packs a command can address: the most recent ones (older packs are usually terminal). */
const MAX_PACKS = 2;
/** Packs one sequence may issue. */
const MAX_ISSUED = 6;

/** The pack (or id) a command's index designates among the {@link MAX_PACKS} most recent. */
function pick<T>(list: readonly T[], i: number): T {
  return list[list.length - 1 - (i % Math.min(list.length, MAX_PACKS))] as T;
}

/**
 * The error codes a model in state `p` allows for a renewal or redemption by the current bearer
 * (empty: it must succeed). With several broken conditions any of their codes is right (AMB-30).
 */
function expectedRefusals(p: ModelPack, kind: 'renew' | 'redeem', maxDepth: number): string[] {
  const codes: string[] = [];
  if (p.status !== 'ACTIVE') codes.push('INSTRUMENT_NOT_ACTIVE');
  if (kind === 'renew' && p.depth >= maxDepth) codes.push('CHAIN_DEPTH_EXCEEDED');
  return codes;
}

/** Asserts an error answer whose code is one of `codes`. */
function expectOneOf(result: OperatorResult, codes: string[], what: string): void {
  assertThat(!result.ok, `${what}: expected an error ${codes.join(' or ')}, got a success`);
  assertThat(
    result.error?.code !== undefined && codes.includes(result.error.code),
    `${what}: expected error code ${codes.join(' or ')}, got ${result.error?.code ?? 'no code'}`,
  );
}

class IssueCmd implements Cmd {
  check(m: Readonly<Model>): boolean {
    const active = m.packs.slice(-MAX_PACKS).filter((p) => p.status === 'ACTIVE').length;
    return m.packs.length < MAX_ISSUED && active < MAX_PACKS;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { request, bearer } = lockRequest(r.s, { amount: '1' });
    const pack = expectOk(await r.s.op.issue(request), 'model: issue') as CashPack;
    assertThat(isObject(pack) && pack.status === 'ACTIVE', 'model: a new pack is ACTIVE');
    m.packs.push({ status: 'ACTIVE', depth: 0 });
    m.requestIds.push(request.request_id);
    r.packs.push({ pack, bearer });
  }
  toString(): string {
    return 'issue';
  }
}

class RenewCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<Model>): boolean {
    return m.packs.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const p = pick(m.packs, this.i);
    const real = pick(r.packs, this.i);
    const next = newKey();
    const entry = renewalEntry(real.pack, real.bearer, next);
    const result = await r.s.op.renew(real.pack, entry);
    const refusals = expectedRefusals(p, 'renew', r.s.policy.max_chain_depth);
    if (refusals.length > 0) {
      expectOneOf(result, refusals, `model: renewal of a pack ${p.status} at depth ${p.depth}`);
      return;
    }
    const updated = expectOk(result, `model: renewal of an ACTIVE pack at depth ${p.depth}`) as CashPack;
    assertThat(
      updated.current_bearer_pk === next.publicKey,
      'model: the renewal hands the pack to new_bearer_pk',
    );
    assertThat(
      updated.renewal_chain.length === p.depth + 1,
      `model: renewal_chain has ${p.depth + 1} entries`,
    );
    p.depth += 1;
    m.renewalIds.push(entry.renewal_id);
    real.previous = { pack: real.pack, bearer: real.bearer };
    real.pack = updated;
    real.bearer = next;
  }
  toString(): string {
    return `renew(pack ${this.i})`;
  }
}

class RedeemCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<Model>): boolean {
    return m.packs.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const p = pick(m.packs, this.i);
    const real = pick(r.packs, this.i);
    const result = await r.s.op.redeem(real.pack, redemptionRequest(r.s, real.pack, real.bearer));
    const refusals = expectedRefusals(p, 'redeem', r.s.policy.max_chain_depth);
    if (refusals.length > 0) {
      expectOneOf(result, refusals, `model: redemption of a ${p.status} pack`);
      return;
    }
    expectOk(result, 'model: redemption of an ACTIVE pack by its bearer');
    p.status = 'REDEEMED';
  }
  toString(): string {
    return `redeem(pack ${this.i})`;
  }
}

class StatusCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<Model>): boolean {
    return m.packs.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const p = pick(m.packs, this.i);
    const status = await statusOf(r.s, pick(r.packs, this.i).pack.pack_id);
    assertThat(status === p.status, `model: the status is ${p.status} (got ${JSON.stringify(status)})`);
  }
  toString(): string {
    return `status(pack ${this.i})`;
  }
}

/** An otherwise valid renewal re-using a consumed renewal_id: DUPLICATE_ID. */
class ReplayRenewalIdCmd implements Cmd {
  constructor(
    readonly i: number,
    readonly j: number,
  ) {}
  check(m: Readonly<Model>): boolean {
    if (m.packs.length === 0 || m.renewalIds.length === 0) return false;
    return pick(m.packs, this.i).status === 'ACTIVE';
  }
  async run(m: Model, r: Real): Promise<void> {
    const p = pick(m.packs, this.i);
    if (p.depth >= r.s.policy.max_chain_depth) return; // the depth limit would be broken too
    const real = pick(r.packs, this.i);
    const entry = renewalEntry(real.pack, real.bearer, newKey(), {
      renewal_id: m.renewalIds[this.j % m.renewalIds.length] as string,
    });
    expectErrorCode(
      await r.s.op.renew(real.pack, entry),
      'DUPLICATE_ID',
      'model: renewal re-using a renewal_id',
    );
  }
  toString(): string {
    return `replayRenewalId(pack ${this.i}, id ${this.j})`;
  }
}

/** An otherwise valid Lock Request re-using a consumed request_id: DUPLICATE_ID. */
class ReplayRequestIdCmd implements Cmd {
  constructor(readonly j: number) {}
  check(m: Readonly<Model>): boolean {
    return m.requestIds.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const { request } = lockRequest(r.s, {
      amount: '1',
      overrides: { request_id: m.requestIds[this.j % m.requestIds.length] as string },
    });
    expectErrorCode(await r.s.op.issue(request), 'DUPLICATE_ID', 'model: issue re-using a request_id');
  }
  toString(): string {
    return `replayRequestId(id ${this.j})`;
  }
}

/** The previous bearer renews the current copy: BEARER_MISMATCH (only the signer is wrong). */
class OldBearerCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<Model>): boolean {
    if (m.packs.length === 0) return false;
    const p = pick(m.packs, this.i);
    return p.status === 'ACTIVE' && p.depth >= 1;
  }
  async run(_m: Model, r: Real): Promise<void> {
    const real = pick(r.packs, this.i);
    const p = pick(_m.packs, this.i);
    if (real.previous === undefined || p.depth >= r.s.policy.max_chain_depth) return;
    const entry = renewalEntry(real.pack, real.previous.bearer, newKey());
    expectErrorCode(
      await r.s.op.renew(real.pack, entry),
      'BEARER_MISMATCH',
      'model: renewal by the previous bearer key',
    );
  }
  toString(): string {
    return `oldBearer(pack ${this.i})`;
  }
}

/** The previous bearer redeems the stale pre-renewal copy: refused. */
class StaleCopyCmd implements Cmd {
  constructor(readonly i: number) {}
  check(m: Readonly<Model>): boolean {
    if (m.packs.length === 0) return false;
    const p = pick(m.packs, this.i);
    return p.status === 'ACTIVE' && p.depth >= 1;
  }
  async run(_m: Model, r: Real): Promise<void> {
    const real = pick(r.packs, this.i);
    if (real.previous === undefined) return;
    const { pack, bearer } = real.previous;
    const result = await r.s.op.redeem(pack, redemptionRequest(r.s, pack, bearer));
    assertThat(!result.ok, 'model: a stale pre-renewal copy cannot be redeemed by its former bearer');
  }
  toString(): string {
    return `staleCopy(pack ${this.i})`;
  }
}

/**
 * Harness expire or cancel: ACTIVE -> EXPIRED/CANCELLED; on a terminal pack the status must not
 * change (spec CP 3). The harness's own answer to a terminal pack (409) is a PROFILE check of its
 * own (PRF-4-HARNESS-TERMINAL-409), not graded here.
 */
class TerminateCmd implements Cmd {
  constructor(
    readonly i: number,
    readonly to: 'EXPIRED' | 'CANCELLED',
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.packs.length > 0;
  }
  async run(m: Model, r: Real): Promise<void> {
    const p = pick(m.packs, this.i);
    const h = harness(r.s);
    const id = pick(r.packs, this.i).pack.pack_id;
    const result = await (this.to === 'EXPIRED' ? h.expire(id) : h.cancel(id));
    if (p.status !== 'ACTIVE') {
      const status = await statusOf(r.s, id);
      assertThat(
        status === p.status,
        `model: a ${p.status} pack stays ${p.status} after a harness ${this.to} (got ${JSON.stringify(status)})`,
      );
      return;
    }
    expectOk(result, `model: harness ${this.to} of an ACTIVE pack`);
    p.status = this.to;
  }
  toString(): string {
    return `${this.to === 'EXPIRED' ? 'expire' : 'cancel'}(pack ${this.i})`;
  }
}

describe('Cash-Pack API section 3: model-based run', () => {
  check(
    'random-sequences-issue-renew-redeem-status-replays',
    ['CP-3-ACTIVE', 'CP-3-TERMINAL-STATUS'],
    'random sequences of issue, renew, redeem, status, replays and old keys (and expire/cancel with the harness) follow the instrument model: ACTIVE -> REDEEMED/EXPIRED/CANCELLED, terminal stays terminal, only the current bearer acts, the depth limit holds',
    async () => {
      const s = await setup();
      const index = fc.nat({ max: MAX_PACKS - 1 });
      const arbitraries: fc.Arbitrary<Cmd>[] = [
        fc.constant(new IssueCmd()),
        fc.constant(new IssueCmd()),
        // Renewals weigh more, so sequences reach the depth limit before a pack turns terminal.
        ...Array.from({ length: 8 }, () => index.map((i) => new RenewCmd(i))),
        index.map((i) => new RedeemCmd(i)),
        index.map((i) => new StatusCmd(i)),
        fc.tuple(index, fc.nat({ max: 7 })).map(([i, j]) => new ReplayRenewalIdCmd(i, j)),
        fc.nat({ max: 7 }).map((j) => new ReplayRequestIdCmd(j)),
        index.map((i) => new OldBearerCmd(i)),
        index.map((i) => new StaleCopyCmd(i)),
      ];
      if (s.op.harness !== undefined) {
        arbitraries.push(index.map((i) => new TerminateCmd(i, 'EXPIRED')));
        arbitraries.push(index.map((i) => new TerminateCmd(i, 'CANCELLED')));
      }
      await assertProperty(
        // size 'max': sequence lengths spread up to maxCommands (the default favours very short ones).
        fc.asyncProperty(fc.commands(arbitraries, { size: 'max', maxCommands: 24 }), async (cmds) => {
          await fc.asyncModelRun(
            () => ({ model: { packs: [], requestIds: [], renewalIds: [] }, real: { s, packs: [] } }),
            cmds,
          );
        }),
        // each sequence issues and acts on packs of its own (the principal's balance is ample)
        { overlap: true },
      );
    },
    // some 630 exchanges at 100 runs: 31 s at a 50 ms round trip one run at a time, about 10 s
    // with the runs overlapping in a --jobs run
    { long: true },
  );
});
