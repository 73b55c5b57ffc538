/**
 * Time at the Operator (profile sections 1 and 4, spec CP 3): request timestamps written with any
 * RFC 3339 offset are read as instants and the Operator emits `Z`; the optional test clock of
 * the harness; and real expiry: a pack issued near `min_expiry_seconds` is EXPIRED once that
 * instant passes, on every endpoint (status, renew, redeem) and for the Principal's balance,
 * whether or not a sweep has run. Real expiry is checked through the test clock when the harness
 * offers one (no sleep), else by waiting when the wait is at most the run's maximum wait, else
 * skipped naming the wait it would need: the report shows which of the two checks ran.
 */
import {
  assertThat,
  check,
  context,
  expectErrorCode,
  expectOk,
  onCheckEnd,
  skip,
  waitRealTime,
} from '../_lib/index.js';
import {
  type CashPack,
  expectCodeIn,
  harness,
  instantOf,
  isObject,
  issue,
  lockRequest,
  lowBalanceLeft,
  maxWaitMs,
  newKey,
  type OperatorSetup,
  operatorNow,
  redemptionRequest,
  renewalEntry,
  setup,
  statusOf,
  testClock,
  validLifetime,
  withOffset,
} from './_support/index.js';

/** The offsets furthest from UTC that RFC 3339 dates use in practice. */
const OFFSETS = [
  { name: '+14:00', minutes: 14 * 60 },
  { name: '-12:00', minutes: -12 * 60 },
];

describe('Profile section 4: request timestamps with any offset', () => {
  check(
    'request-timestamps-any-offset-compared-as-instants',
    ['PRF-4-REQUEST-TIMESTAMP-OFFSET'],
    'timestamps in requests written with +14:00 or -12:00 are read as the instants they name (range decisions included), and the Operator emits Z',
    async () => {
      const s = await setup();
      for (const offset of OFFSETS) {
        const now = operatorNow();
        const expires = Math.floor((now + validLifetime(s.policy) * 1000) / 1000) * 1000;
        const { request } = lockRequest(s, {
          overrides: {
            expires_at: withOffset(expires, offset.minutes),
            created_at: withOffset(now, offset.minutes),
          },
        });
        const pack = expectOk(
          await s.op.issue(request),
          `issue with expires_at ${request.expires_at} and created_at ${request.created_at}`,
        ) as CashPack;
        assertThat(isObject(pack), 'the issue answer is a cash-pack object');
        assertThat(
          instantOf(pack.expires_at) === expires,
          `the cash-pack's expires_at is the instant ${request.expires_at} names, ${new Date(expires).toISOString()} (got ${JSON.stringify(pack.expires_at)})`,
        );
        for (const member of ['expires_at', 'issued_at'] as const) {
          assertThat(
            typeof pack[member] === 'string' && /Z$/.test(pack[member]),
            `the Operator emits "${member}" with Z (got ${JSON.stringify(pack[member])})`,
          );
        }
      }
      // A range decision in instants: beyond max_expiry_seconds, though its wall time in -12:00 is not.
      // Asked only when the same instant written with Z is refused: an Operator that enforces no
      // range at all fails the range checks, not this one.
      const beyond = operatorNow() + (s.policy.max_expiry_seconds + 600) * 1000;
      const inZ = await s.op.issue(
        lockRequest(s, { lifetimeSeconds: s.policy.max_expiry_seconds + 600 }).request,
      );
      releaseIssued(s, inZ);
      if (s.policy.max_expiry_seconds > 12 * 3600 + 1200 && inZ.error?.code === 'EXPIRY_INVALID') {
        const { request } = lockRequest(s, { overrides: { expires_at: withOffset(beyond, -12 * 60) } });
        expectErrorCode(
          await s.op.issue(request),
          'EXPIRY_INVALID',
          `issue with expires_at ${request.expires_at}, 600 s beyond max_expiry_seconds as an instant`,
        );
      }
      // Bearer messages: created_at with an offset is read, and the renewal entry is kept verbatim.
      const { pack, bearer } = await issue(s);
      const next = newKey();
      const entry = renewalEntry(pack, bearer, next, { created_at: withOffset(operatorNow(), 14 * 60) });
      const renewed = expectOk(
        await s.op.renew(pack, entry),
        `renewal whose entry has created_at ${entry.created_at}`,
      ) as CashPack;
      const request = redemptionRequest(s, renewed, next, 'sufficient', {
        created_at: withOffset(operatorNow(), -12 * 60),
      });
      expectOk(await s.op.redeem(renewed, request), `redemption with created_at ${request.created_at}`);
    },
  );
});

describe('Profile section 4: the optional test clock of the operator harness', () => {
  check(
    'operator-test-clock-moves-expiry-forward',
    ['PRF-2-HARNESS-CLOCK-OPERATOR'],
    'POST {harness}/clock {"advance_seconds": N} answers 200 {now}, moves the Operator\'s now forward by N seconds for every expiry decision, and never moves it back',
    async () => {
      const s = await setup();
      const clock = await testClock(s);
      if (!clock.present) {
        if (clock.answer !== undefined) {
          const a = clock.answer;
          assertThat(
            false,
            `POST {harness}/clock {"advance_seconds": 1} answers 200 {now} (got HTTP ${a.status}${a.error?.code ? `, code ${a.error.code}` : ''}: ${JSON.stringify(a.body).slice(0, 200)})`,
          );
        }
        skip(clock.reason);
      }
      const h = harness(s);
      const before = await clock.advance(5);
      const lifetime = nearMinimum(s);
      const pack = await issueOrSkip(s, lifetime);
      await clock.advance(lifetime + 3);
      const status = await statusOf(s, pack.pack_id);
      assertThat(
        status === 'EXPIRED',
        `after advancing the clock past its expires_at (${lifetime} s ahead) the pack is EXPIRED (got ${JSON.stringify(status)})`,
      );
      // Never back: a negative advance is refused, or answered without moving now back.
      const back = await h.advanceClock?.(-60);
      if (back?.ok) {
        const now = instantOf(isObject(back.body) ? back.body.now : undefined);
        const movedBack = now === undefined || now < before + (lifetime + 3) * 1000 - 1000;
        // Later checks write timestamps relative to the Operator's now: follow it wherever it went.
        if (now !== undefined) clock.follow(now);
        assertThat(
          !movedBack,
          `a negative advance does not move the clock back (got ${JSON.stringify(back.body)})`,
        );
      }
      await clock.advance(1);
    },
  );
});

/** What one real-expiry run needs: the packs, one per endpoint that must see the expiry first. */
interface ExpiryPacks {
  forStatus: CashPack;
  forRenew: { pack: CashPack; bearer: ReturnType<typeof newKey> };
  forRedeem: { pack: CashPack; bearer: ReturnType<typeof newKey> };
  /** The low-balance principal's whole balance, locked (when the balance is configured). */
  wholeBalance?: { pack: CashPack; amount: string };
  /** expires_at of the last pack issued (epoch ms). */
  lastExpiry: number;
}

/** The lifetime of the packs of the real-expiry checks: the policy minimum plus 5 s of skew. */
function nearMinimum(s: OperatorSetup): number {
  return Math.min(s.policy.min_expiry_seconds + 5, s.policy.max_expiry_seconds);
}

/** When `result` issued a pack, it is expired through the harness (if any) when the check ends. */
function releaseIssued(s: OperatorSetup, result: { ok: boolean; body?: unknown }): void {
  const id = (result.body as { pack_id?: unknown } | undefined)?.pack_id;
  const h = s.op.harness;
  if (result.ok && h !== undefined && typeof id === 'string') onCheckEnd(() => h.expire(id));
}

/**
 * Issues a pack `lifetime` seconds from the Operator's now (near min_expiry_seconds). An
 * EXPIRY_INVALID answer skips the check: the Operator refuses an expiry inside its own range,
 * which the inclusive-limits check reports.
 */
async function issueOrSkip(s: OperatorSetup, lifetime: number): Promise<CashPack> {
  const r = await s.op.issue(lockRequest(s, { lifetimeSeconds: lifetime }).request);
  if (!r.ok && r.error?.code === 'EXPIRY_INVALID')
    skip(
      `the Operator refuses an expiry ${lifetime} s ahead, inside its range (see expiry-a-few-seconds-inside-range-accepted)`,
    );
  return expectOk(r, `issue with an expiry ${lifetime} s ahead`) as CashPack;
}

/** Issues the packs of a real-expiry run, each to be accessed first by a different endpoint. */
async function issueNearMinimum(s: OperatorSetup): Promise<ExpiryPacks> {
  const lifetimeSeconds = nearMinimum(s);
  const a = await issueOrSkip(s, lifetimeSeconds);
  const b = await issue(s, { lifetimeSeconds });
  const c = await issue(s, { lifetimeSeconds });
  const out: ExpiryPacks = {
    forStatus: a,
    forRenew: { pack: b.pack, bearer: b.bearer },
    forRedeem: { pack: c.pack, bearer: c.bearer },
    lastExpiry: instantOf(c.request.expires_at) as number,
  };
  const left = lowBalanceLeft(s);
  if (left !== undefined && left <= BigInt(s.policy.max_amount)) {
    const configured = left.toString();
    const { request } = lockRequest(s, { principal: 'low_balance', amount: configured, lifetimeSeconds });
    const r = await s.op.issue(request);
    if (r.ok && isObject(r.body)) {
      out.wholeBalance = { pack: r.body as unknown as CashPack, amount: configured };
      out.lastExpiry = instantOf(request.expires_at) as number;
    }
  }
  return out;
}

/** Every endpoint sees the packs EXPIRED, each as its first access after the instant passed. */
async function assertExpiredEverywhere(s: OperatorSetup, p: ExpiryPacks): Promise<void> {
  const renew = await s.op.renew(p.forRenew.pack, renewalEntry(p.forRenew.pack, p.forRenew.bearer, newKey()));
  expectCodeIn(renew, ['INSTRUMENT_NOT_ACTIVE'], 'renewal, as the first access after expires_at passed');
  const redeem = await s.op.redeem(
    p.forRedeem.pack,
    redemptionRequest(s, p.forRedeem.pack, p.forRedeem.bearer),
  );
  expectCodeIn(redeem, ['INSTRUMENT_NOT_ACTIVE'], 'redemption, as the first access after expires_at passed');
  const status = await statusOf(s, p.forStatus.pack_id);
  assertThat(
    status === 'EXPIRED',
    `the status, as the first access after expires_at passed, is EXPIRED (got ${JSON.stringify(status)})`,
  );
  if (p.wholeBalance !== undefined) {
    const { amount } = p.wholeBalance;
    const again = lockRequest(s, { principal: 'low_balance', amount });
    const r = await s.op.issue(again.request);
    expectOk(
      r,
      `issue of the low-balance principal's whole balance (${amount}) once the pack that locked it has passed its expires_at, before any access to that pack (expiry returns the funds)`,
    );
    const h = s.op.harness;
    if (h !== undefined && isObject(r.body)) {
      const id = String(r.body.pack_id);
      onCheckEnd(() => h.expire(id));
    }
  }
  for (const [what, id, principal] of [
    ['the pack refused a renewal', p.forRenew.pack.pack_id, 'funded'],
    ['the pack refused a redemption', p.forRedeem.pack.pack_id, 'funded'],
    ['the pack that locked the whole balance', p.wholeBalance?.pack.pack_id, 'low_balance'],
  ] as const) {
    if (id === undefined) continue;
    const after = await statusOf(s, id, principal);
    assertThat(after === 'EXPIRED', `${what} reads EXPIRED (got ${JSON.stringify(after)})`);
  }
}

describe('Cash-Pack API section 3 and profile section 4: real expiry on every endpoint', () => {
  check(
    'real-expiry-through-test-clock',
    ['CP-3-EXPIRED', 'CP-7-INSTRUMENT-NOT-ACTIVE', 'PRF-4-EXPIRED-ON-ACCESS'],
    'through the test clock: a pack issued near min_expiry_seconds is ACTIVE just before its expires_at and EXPIRED once it passes, on status, renew and redeem, and its funds are back with the Principal',
    async () => {
      const s = await setup();
      const clock = await testClock(s);
      if (!clock.present)
        skip(`no test clock, so real expiry is checked by waiting instead: ${clock.reason}`);
      const packs = await issueNearMinimum(s);
      const lifetime = nearMinimum(s);
      await clock.advance(Math.max(lifetime - 5, 0));
      const early = await statusOf(s, packs.forStatus.pack_id);
      assertThat(
        early === 'ACTIVE',
        `about 5 s before its expires_at the pack is still ACTIVE (got ${JSON.stringify(early)})`,
      );
      await clock.advance(8);
      await assertExpiredEverywhere(s, packs);
    },
  );

  check(
    'real-expiry-by-waiting',
    ['CP-3-EXPIRED', 'CP-7-INSTRUMENT-NOT-ACTIVE', 'PRF-4-EXPIRED-ON-ACCESS'],
    'by waiting (no test clock): a pack issued near min_expiry_seconds is EXPIRED once its expires_at passes, on status, renew and redeem, and its funds are back with the Principal',
    async () => {
      const s = await setup();
      const clock = await testClock(s);
      if (clock.present)
        skip('checked without waiting through the test clock (real-expiry-through-test-clock)');
      const waitMs = (nearMinimum(s) + 2) * 1000;
      const limit = maxWaitMs();
      if (waitMs > limit) {
        skip(
          `real expiry needs a wait of about ${Math.ceil(waitMs / 1000)} s (min_expiry_seconds ${s.policy.min_expiry_seconds} + 7 s), above the maximum wait of ${Math.round(limit / 1000)} s: raise --max-wait or offer the test clock (POST {harness}/clock)`,
        );
      }
      const packs = await issueNearMinimum(s);
      const early = await statusOf(s, packs.forStatus.pack_id);
      assertThat(early === 'ACTIVE', `right after issue the pack is ACTIVE (got ${JSON.stringify(early)})`);
      await waitRealTime(Math.max(packs.lastExpiry + 1500 - operatorNow(), 0));
      await assertExpiredEverywhere(s, packs);
    },
    { timeoutMs: maxWaitMs() + Math.max(context().timeoutMs, 60_000) },
  );
});
