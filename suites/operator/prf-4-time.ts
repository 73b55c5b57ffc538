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
  sharedState,
  skip,
  waitRealTime,
} from '../_lib/index.js';
import {
  type CashPack,
  expectCodeIn,
  expectProfileCodeIn,
  harness,
  instantOf,
  isObject,
  issue,
  lockRequest,
  lowBalanceIfKnown,
  maxWaitMs,
  newKey,
  type OperatorSetup,
  operatorNow,
  redemptionRequest,
  renewalEntry,
  setup,
  statusOf,
  testClock,
  utcSeconds,
  validLifetime,
  withOffset,
} from './_support/index.js';

// These checks move the Operator's test clock (`cprc run --jobs` runs them after every other
// Operator check, in one process: suites/_lib sharedState); the expiry checks also spend the
// low-balance principal's balance.
sharedState('operator:clock', [
  'operator-test-clock-moves-expiry-forward',
  'operator-test-clock-advance-seconds-validated',
  'redeemed-pack-stays-redeemed-after-expires-at',
  'cancelled-pack-stays-cancelled-after-expires-at',
  'real-expiry-through-test-clock',
  'real-expiry-by-waiting',
]);
sharedState('operator:low-balance-principal', ['real-expiry-through-test-clock', 'real-expiry-by-waiting']);

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

/**
 * Whether a Lock Request's expiry lies outside the policy's range when the range is measured from
 * its own `created_at` (AMB-40; a few seconds of skew allowed at the edges), not from the Operator's now.
 */
function outOfRangeFromCreated(
  request: { created_at: string; expires_at: string },
  policy: { min_expiry_seconds: number; max_expiry_seconds: number },
): boolean {
  const created = instantOf(request.created_at);
  const expires = instantOf(request.expires_at);
  if (created === undefined || expires === undefined) return false;
  const ahead = (expires - created) / 1000;
  return ahead > policy.max_expiry_seconds + 5 || ahead < policy.min_expiry_seconds - 5;
}

/** `text` (an RFC 3339 date-time with whole seconds) with `fraction` (e.g. `.5`) after its seconds. */
function withFraction(text: string, fraction: string): string {
  return `${text.slice(0, 19)}${fraction}${text.slice(19)}`;
}

/**
 * The instant `ms` (whole seconds) written in each form the RFC 3339 grammar allows besides
 * `...Z` (section 5.6: lower-case t and z, `time-secfrac` of any length, `time-numoffset` with
 * minutes, up to 23:59), with the instant each names.
 */
function instantForms(ms: number): { what: string; text: string; instant: number }[] {
  const z = utcSeconds(ms);
  return [
    { what: 'lower-case t and z', text: z.replace('T', 't').replace('Z', 'z'), instant: ms },
    { what: 'a one-digit fraction', text: withFraction(z, '.5'), instant: ms + 500 },
    { what: 'a nine-digit fraction', text: withFraction(z, '.123456789'), instant: ms + 123 },
    { what: 'offset +00:00', text: withOffset(ms, 0), instant: ms },
    { what: 'offset +05:45', text: withOffset(ms, 5 * 60 + 45), instant: ms },
    { what: 'offset -09:30', text: withOffset(ms, -(9 * 60 + 30)), instant: ms },
    { what: 'offset +23:59', text: withOffset(ms, 23 * 60 + 59), instant: ms },
    { what: 'offset -23:59', text: withOffset(ms, -(23 * 60 + 59)), instant: ms },
    {
      what: 'a fraction and offset +05:30',
      text: withFraction(withOffset(ms, 330), '.25'),
      instant: ms + 250,
    },
  ];
}

/**
 * Past instants whose fields sit at the edge of their range (section 5.7): January, day 1, the
 * last day of a month, 23:59:59. Sent as `created_at`, which no rule of the profile bounds.
 */
function edgeDates(now: number): { what: string; text: string }[] {
  const d = new Date(now);
  const y = d.getUTCFullYear();
  return [
    { what: 'January 1 of this year at 00:00:00', text: `${y}-01-01T00:00:00Z` },
    {
      what: 'the last day of the previous month at 23:59:59',
      text: utcSeconds(Date.UTC(y, d.getUTCMonth(), 0, 23, 59, 59)),
    },
    { what: 'December 31 of last year at 23:59:59', text: `${y - 1}-12-31T23:59:59Z` },
  ];
}

describe('Profile sections 1 and 4: every RFC 3339 form in requests', () => {
  check(
    'request-timestamps-every-rfc3339-form-read',
    ['PRF-4-REQUEST-TIMESTAMP-OFFSET'],
    'every RFC 3339 date-time form is read in requests as the instant it names: lower-case t and z, a fraction of any length, offsets with minutes up to +23:59 and -23:59, and every field at the edge of its range (January, day 1, the last day of a month, 23:59:59)',
    async () => {
      const s = await setup();
      // expires_at: accepted, and the cash-pack's expires_at is the instant it names (to the
      // second: the profile fixes no sub-second precision).
      for (const form of instantForms(
        Math.floor((operatorNow() + validLifetime(s.policy) * 1000) / 1000) * 1000,
      )) {
        const { request } = lockRequest(s, { amount: '2', overrides: { expires_at: form.text } });
        const r = await s.op.issue(request);
        releaseIssued(s, r);
        const pack = expectOk(r, `issue with expires_at ${form.text} (${form.what})`) as CashPack;
        const got = isObject(pack) ? instantOf(pack.expires_at) : undefined;
        assertThat(
          got !== undefined && Math.abs(got - form.instant) < 1000,
          `the cash-pack's expires_at is the instant ${form.text} names, ${new Date(form.instant).toISOString()} (got ${JSON.stringify(isObject(pack) ? pack.expires_at : pack)})`,
        );
      }
      // created_at: every form, and every field at its edge, accepted.
      const now = operatorNow();
      const created = [
        ...instantForms(Math.floor(now / 1000) * 1000).map((f) => ({ what: f.what, text: f.text })),
        ...edgeDates(now),
      ];
      for (const form of created) {
        const { request } = lockRequest(s, { amount: '2', overrides: { created_at: form.text } });
        const r = await s.op.issue(request);
        releaseIssued(s, r);
        // AMB-40: the permitted expiry range may be measured from the Lock Request's created_at;
        // an edge date lies months back, so EXPIRY_INVALID is then the right answer, read from
        // the instant the form names (a form read wrongly gives another verdict or code)
        if (!r.ok && r.error?.code === 'EXPIRY_INVALID' && outOfRangeFromCreated(request, s.policy)) continue;
        expectOk(r, `issue with created_at ${form.text} (${form.what})`);
      }
      // The bearer messages read the same forms.
      const { pack, bearer } = await issue(s);
      const next = newKey();
      const at = Math.floor(operatorNow() / 1000) * 1000;
      const entry = renewalEntry(pack, bearer, next, {
        created_at: withFraction(withOffset(at, 5 * 60 + 45), '.123456').replace('T', 't'),
      });
      const renewed = expectOk(
        await s.op.renew(pack, entry),
        `renewal whose entry has created_at ${entry.created_at}`,
      ) as CashPack;
      const request = redemptionRequest(s, renewed, next, 'sufficient', {
        created_at: withFraction(withOffset(at, -(23 * 60 + 59)), '.5'),
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
            `POST {harness}/clock {"advance_seconds": ${clock.asked ?? 0}} answers 200 {now} (got HTTP ${a.status}${a.error?.code ? `, code ${a.error.code}` : ''}: ${JSON.stringify(a.body).slice(0, 200)})`,
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

  check(
    'operator-test-clock-advance-seconds-validated',
    ['PRF-2-HARNESS-CLOCK-OPERATOR', 'PRF-1-INVALID-REQUEST'],
    'the test clock takes {"advance_seconds": N} for every integer N >= 0 (0 included: 200 {now}, not moved back); a body whose advance_seconds is missing or not a number, or a refused negative N, answers 400 INVALID_REQUEST with the error body',
    async () => {
      const s = await setup();
      const clock = await testClock(s);
      if (!clock.present) skip(`no test clock: ${clock.reason}`);
      const h = harness(s);
      const advance = h.advanceClock?.bind(h) ?? skip('the operator driver has no test clock');
      await clock.advance(0);
      // Not numbers (the driver sends {"advance_seconds": value}; undefined leaves it out).
      for (const [what, value] of [
        ['missing', undefined],
        ['a numeric string', '5'],
        ['null', null],
        ['true', true],
        ['an array', [5]],
        ['an object', { seconds: 5 }],
      ] as const) {
        const r = await advance(value as unknown as number);
        // Later checks write timestamps relative to the Operator's now: follow it wherever it went.
        const moved = r.ok && isObject(r.body) ? instantOf(r.body.now) : undefined;
        if (moved !== undefined) clock.follow(moved);
        expectProfileCodeIn(r, ['INVALID_REQUEST'], `POST {harness}/clock with "advance_seconds" ${what}`);
      }
      // A negative N may be refused (then as a schema failure) or leave now where it is.
      const back = await advance(-60);
      if (!back.ok)
        expectProfileCodeIn(back, ['INVALID_REQUEST'], 'POST {harness}/clock {"advance_seconds": -60}');
      else if (isObject(back.body)) {
        const now = instantOf(back.body.now);
        if (now !== undefined) clock.follow(now);
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
  const left = await lowBalanceIfKnown(s);
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

/** Issues a pack `lifetime` seconds ahead with its bearer key (EXPIRY_INVALID skips, as above). */
async function issueWithKeyOrSkip(s: OperatorSetup, lifetime: number) {
  const { request, bearer } = lockRequest(s, { lifetimeSeconds: lifetime });
  const r = await s.op.issue(request);
  if (!r.ok && r.error?.code === 'EXPIRY_INVALID')
    skip(
      `the Operator refuses an expiry ${lifetime} s ahead, inside its range (see expiry-a-few-seconds-inside-range-accepted)`,
    );
  const pack = expectOk(r, `issue with an expiry ${lifetime} s ahead`) as CashPack;
  return { pack, bearer, expiresAt: instantOf(request.expires_at) as number };
}

/**
 * A pack issued near min_expiry_seconds, made `status` (REDEEMED by its bearer, CANCELLED through
 * the harness), then taken past its expires_at: it must still read `status`, also after its
 * Principal issues again (which settles the expiries due).
 */
async function terminalOutlastsExpiry(status: 'REDEEMED' | 'CANCELLED'): Promise<void> {
  const s = await setup();
  const h =
    status === 'CANCELLED' ? harness(s, 'a pack can be cancelled only through the harness') : undefined;
  const clock = await testClock(s);
  const lifetime = nearMinimum(s);
  if (!clock.present && (lifetime + 2) * 1000 > maxWaitMs())
    skip(
      `without a test clock this needs a wait of about ${lifetime + 2} s, above the maximum wait of ${Math.round(maxWaitMs() / 1000)} s (${clock.reason})`,
    );
  const made = await issueWithKeyOrSkip(s, lifetime);
  if (status === 'REDEEMED')
    expectOk(
      await s.op.redeem(made.pack, redemptionRequest(s, made.pack, made.bearer)),
      `redemption of a pack expiring ${lifetime} s ahead`,
    );
  else if (h !== undefined) expectOk(await h.cancel(made.pack.pack_id), 'harness cancel');
  if (clock.present) await clock.advance(Math.ceil((made.expiresAt - operatorNow()) / 1000) + 3);
  else await waitRealTime(Math.max(made.expiresAt + 1500 - operatorNow(), 0));
  const after = await statusOf(s, made.pack.pack_id);
  assertThat(
    after === status,
    `once its expires_at has passed the ${status} pack still reads ${status} (got ${JSON.stringify(after)})`,
  );
  const again = await s.op.issue(lockRequest(s).request);
  releaseIssued(s, again);
  expectOk(again, `a new issue by the same Principal once the ${status} pack passed its expires_at`);
  const settled = await statusOf(s, made.pack.pack_id);
  assertThat(
    settled === status,
    `after the Principal issued again the ${status} pack still reads ${status} (got ${JSON.stringify(settled)})`,
  );
}

describe('Cash-Pack API section 3: a terminal status outlasts expires_at', () => {
  check(
    'redeemed-pack-stays-redeemed-after-expires-at',
    ['CP-3-TERMINAL-STATUS', 'CP-3-REDEEMED'],
    'a REDEEMED pack stays REDEEMED once its expires_at passes, also after its Principal issues again (which settles the expiries due): it never turns EXPIRED (nor gives its funds back)',
    () => terminalOutlastsExpiry('REDEEMED'),
    { timeoutMs: maxWaitMs() + Math.max(context().timeoutMs, 60_000) },
  );

  check(
    'cancelled-pack-stays-cancelled-after-expires-at',
    ['CP-3-TERMINAL-STATUS', 'CP-3-CANCELLED'],
    'a CANCELLED pack stays CANCELLED once its expires_at passes, also after its Principal issues again (which settles the expiries due): it never turns EXPIRED (nor gives its funds back)',
    () => terminalOutlastsExpiry('CANCELLED'),
    { timeoutMs: maxWaitMs() + Math.max(context().timeoutMs, 60_000) },
  );
});

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
