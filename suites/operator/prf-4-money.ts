/**
 * Profile section 4 money flows, observed black-box through the low-balance principal's balance
 * (its configured `available_balance`): issuance locks the amount from the available balance (an
 * issue of exactly the balance succeeds, one more unit is INSUFFICIENT_BALANCE); redemption
 * releases it to the redeemer and never back to the Principal; cancellation holds it (returned to
 * no one); expiry returns it (cp-1 and the real-expiry checks). Skipped, with the reason, without
 * the balance or the harness (the harness expires the packs that lock the rest of the balance).
 *
 * The balance these checks start from is never the configured figure taken on trust (an earlier run
 * spent some of it): with the optional `POST {harness}/balance` it is set to the configured figure
 * at the start of each check and put back at its end; without it, it is measured once per run
 * (`lowBalance`, suites/operator/_support). A redemption or a cancellation spends one unit for good
 * without the capability; the suite keeps count (`spendLowBalance`) and says so in the report.
 *
 * The capability itself (when present) is checked here too: it sets the available balance only
 * (locked and held funds unchanged), and refuses an unknown principal or a malformed amount.
 */
import { randomUUID } from 'node:crypto';
import type { Ed25519KeyPair } from '../../src/crypto/ed25519.js';
import {
  assertThat,
  check,
  expectError,
  expectErrorCode,
  expectOk,
  onCheckEnd,
  sharedState,
  skip,
} from '../_lib/index.js';
import {
  ALL_ERROR_CODES,
  assertSchema,
  balanceCapability,
  type CashPack,
  expectProfileCodeIn,
  harness,
  isObject,
  type LockRequest,
  lockRequest,
  lowBalance,
  type OperatorSetup,
  type Policy,
  redemptionRequest,
  setup,
  spendLowBalance,
} from './_support/index.js';

// These checks spend or measure the low-balance principal's balance (`cprc run --jobs` runs them
// in one process, one after another: suites/_lib sharedState).
sharedState('operator:low-balance-principal', [
  'issue-of-exactly-available-balance-succeeds',
  'redeemed-funds-never-return-to-principal',
  'cancelled-funds-held-not-returned',
  'harness-balance-sets-available-only',
  'harness-balance-unknown-principal-malformed-amount-400',
]);

/** An asset descriptor as a Lock Request carries it. */
type AssetDescriptor = LockRequest['asset'];

type Result = Awaited<ReturnType<OperatorSetup['op']['issue']>>;

/** The harness, needed to expire the packs that hold the rest of the balance. */
function releaser(s: OperatorSetup) {
  return harness(s, 'the packs locking the rest of the balance could not be expired to return the funds');
}

/** When `result` issued a pack, it is expired through the harness when the check ends. */
function releaseIssued(s: OperatorSetup, result: { ok: boolean; body?: unknown }): void {
  const id = (result.body as { pack_id?: unknown } | undefined)?.pack_id;
  if (result.ok && typeof id === 'string') onCheckEnd(() => releaser(s).expire(id));
}

/**
 * Issues `amount` for the low-balance principal; the pack is expired when the check ends. An
 * INSUFFICIENT_BALANCE answer skips the check: the balance the suite counts on is not there (funds
 * an earlier check locked did not come back), which the checks of that flow report themselves.
 */
async function lockLow(
  s: OperatorSetup,
  amount: bigint,
  available: bigint,
): Promise<{ pack: CashPack; bearer: Ed25519KeyPair }> {
  const { request, bearer } = lockRequest(s, { principal: 'low_balance', amount: amount.toString() });
  const r = await s.op.issue(request);
  releaseIssued(s, r);
  if (!r.ok && r.error?.code === 'INSUFFICIENT_BALANCE')
    skip(
      `the low-balance principal cannot lock ${amount} of the ${available} units the suite counts on (funds an earlier check locked did not come back)`,
    );
  const pack = expectOk(r, `issue of ${amount} for the low-balance principal`) as CashPack;
  return { pack, bearer };
}

/**
 * Locks the low-balance principal's whole available balance in two packs: `one` of 1 unit and the
 * remainder (none when the balance is 1), both expired when the check ends; then makes sure the
 * lock is observable (one more unit is refused), else the check is skipped: the balance check
 * itself fails then, and the INSUFFICIENT_BALANCE checks report it.
 */
async function splitBalance(s: OperatorSetup): Promise<{ one: { pack: CashPack; bearer: Ed25519KeyPair } }> {
  releaser(s);
  const available = await lowBalance(s);
  if (available - 1n > BigInt(s.policy.max_amount))
    skip("the low-balance principal's balance exceeds max_amount: it cannot be locked in two packs");
  const one = await lockLow(s, 1n, available);
  if (available > 1n) await lockLow(s, available - 1n, available);
  const probe = await s.op.issue(lockRequest(s, { principal: 'low_balance', amount: '1' }).request);
  releaseIssued(s, probe);
  if (probe.ok)
    skip(
      'with the whole balance locked one more unit is still issued: the balance is not enforced (see the INSUFFICIENT_BALANCE checks)',
    );
  return { one };
}

/** One more unit for the low-balance principal must be refused; a pack it makes anyway is expired. */
async function expectNoUnitLeft(s: OperatorSetup, what: string): Promise<void> {
  const r = await s.op.issue(lockRequest(s, { principal: 'low_balance', amount: '1' }).request);
  releaseIssued(s, r);
  expectErrorCode(r, 'INSUFFICIENT_BALANCE', what);
}

/** The asset descriptor as one comparable text (type, code, chain_id). */
function assetText(a: AssetDescriptor): string {
  return JSON.stringify([a.type, a.code, a.chain_id ?? null]);
}

/**
 * Assets the policy does not offer, each one step from its first asset: another code, another
 * type, a chain_id added (or another one), so that matching on part of the descriptor shows.
 */
function assetsNotOffered(policy: Policy): { what: string; asset: AssetDescriptor }[] {
  const first = policy.assets[0] as AssetDescriptor;
  const offered = new Set(policy.assets.map((a) => assetText(a as AssetDescriptor)));
  const candidates: { what: string; asset: AssetDescriptor }[] = [
    { what: 'another code', asset: { ...first, code: first.code === 'XTS' ? 'XXX' : 'XTS' } },
    { what: 'another type', asset: { ...first, type: first.type === 'crypto' ? 'fiat' : 'crypto' } },
    {
      what: first.chain_id === undefined ? 'a chain_id added' : 'another chain_id',
      asset: { ...first, chain_id: first.chain_id === undefined ? '1' : `${first.chain_id}0` },
    },
  ];
  return candidates.filter((c) => !offered.has(assetText(c.asset)));
}

/** Issues in each asset not offered; a pack made anyway is expired through the harness at the end. */
async function issuesNotOffered(s: OperatorSetup): Promise<{ what: string; result: Result }[]> {
  const cases = assetsNotOffered(s.policy);
  if (cases.length === 0) skip('every asset one step from the first offered one is offered too');
  const out = [];
  for (const c of cases) {
    const result = await s.op.issue(lockRequest(s, { overrides: { asset: c.asset } }).request);
    const h = s.op.harness;
    const id = (result.body as { pack_id?: unknown } | undefined)?.pack_id;
    if (result.ok && h !== undefined && typeof id === 'string') onCheckEnd(() => h.expire(id));
    out.push({ what: `issue in ${JSON.stringify(c.asset)}, an asset not in the policy (${c.what})`, result });
  }
  return out;
}

describe('Profile section 4: issuance draws on the balance of an asset the Operator offers', () => {
  check(
    'issue-asset-not-offered-refused',
    ['PRF-4-MONEY-FLOWS'],
    "an issue in an asset the policy does not offer (another code, type or chain_id than an offered one) is refused: no pack locks another asset's funds (the Principal holds nothing in an asset the Operator does not offer)",
    async () => {
      const s = await setup();
      for (const r of await issuesNotOffered(s)) expectError(r.result, r.what);
    },
  );

  check(
    'asset-not-offered-error-status-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'the refusal of an asset the policy does not offer has a profile code (the profile names none: INVALID_REQUEST and INSUFFICIENT_BALANCE are both natural), the status of its row and the error body',
    async () => {
      const s = await setup();
      for (const r of await issuesNotOffered(s)) expectProfileCodeIn(r.result, ALL_ERROR_CODES, r.what);
    },
  );
});

describe('Profile section 4: money flows through the Principal balance', () => {
  check(
    'issue-of-exactly-available-balance-succeeds',
    ['CP-7-INSUFFICIENT-BALANCE', 'PRF-4-MONEY-FLOWS'],
    "an issue of exactly the Principal's available balance succeeds (only a balance below the amount is INSUFFICIENT_BALANCE)",
    async () => {
      const s = await setup();
      releaser(s);
      const available = await lowBalance(s);
      if (available > BigInt(s.policy.max_amount))
        skip("the low-balance principal's balance exceeds max_amount: it cannot be locked in one pack");
      const r = await s.op.issue(
        lockRequest(s, { principal: 'low_balance', amount: available.toString() }).request,
      );
      releaseIssued(s, r);
      if (!r.ok && r.error?.code === 'INSUFFICIENT_BALANCE') {
        // One unit less tells an exact-balance refusal from a balance that is not there at all.
        if (available < 2n)
          skip(
            'the available balance is 1 unit: an exact-balance refusal cannot be told from a lost balance',
          );
        await lockLow(s, available - 1n, available);
      }
      expectOk(r, `issue of exactly the available balance ${available} (one unit less is accepted)`);
    },
  );

  check(
    'redeemed-funds-never-return-to-principal',
    ['CP-3-REDEEMED', 'PRF-4-MONEY-FLOWS'],
    'a redemption releases the funds to the redeemer and never back to the Principal: with the rest of the balance locked, one more unit is INSUFFICIENT_BALANCE after the redemption',
    async () => {
      const s = await setup();
      const { one } = await splitBalance(s);
      expectOk(
        await s.op.redeem(one.pack, redemptionRequest(s, one.pack, one.bearer)),
        'redemption of the 1-unit pack',
      );
      await spendLowBalance(s, 1n, 'the 1-unit pack was redeemed (released to the redeemer)');
      await expectNoUnitLeft(s, 'issue of 1 unit after a redemption, with the rest of the balance locked');
    },
  );

  check(
    'cancelled-funds-held-not-returned',
    ['CP-3-CANCELLED', 'PRF-4-MONEY-FLOWS'],
    'a cancellation holds the funds (returned to no one): with the rest of the balance locked, one more unit is INSUFFICIENT_BALANCE after the cancellation',
    async () => {
      const s = await setup();
      const h = releaser(s);
      const { one } = await splitBalance(s);
      expectOk(await h.cancel(one.pack.pack_id), 'harness cancel of the 1-unit pack');
      await spendLowBalance(s, 1n, 'the 1-unit pack was cancelled (its funds held, returned to no one)');
      await expectNoUnitLeft(s, 'issue of 1 unit after a cancellation, with the rest of the balance locked');
    },
  );
});

/** The balance capability of the harness, present, or a skip naming why not. */
async function balanceHarness(s: OperatorSetup) {
  const cap = await balanceCapability(s);
  if (!cap.present) skip(cap.reason);
  return cap;
}

describe('Profile section 4: the optional harness capability POST {harness}/balance', () => {
  check(
    'harness-balance-sets-available-only',
    ['PRF-4-HARNESS-BALANCE'],
    "POST {harness}/balance answers 200 {principal_id, available_balance} and sets the principal's available balance to exactly that figure, leaving locked and held funds as they were: set while a 1-unit pack is locked and another cancelled, the whole figure can be locked and not one unit more",
    async () => {
      const s = await setup();
      const cap = await balanceHarness(s);
      const p = cap.probe;
      assertThat(
        cap.probeOk,
        `the first POST {harness}/balance of the run (setting the configured figure) answers 200 {principal_id, available_balance} with the figure set (got HTTP ${p.status}: ${JSON.stringify(p.body).slice(0, 200)})`,
      );
      const h = releaser(s);
      const id = s.config.principals.low_balance.principal_id;
      const figure = BigInt(s.config.principals.low_balance.available_balance as string);
      if (figure < 2n || figure + 1n > BigInt(s.policy.max_amount))
        skip(
          `the configured available_balance ${figure} must be at least 2 and below max_amount ${s.policy.max_amount} for this check`,
        );
      // registered first, so it runs last: the configured figure again once every pack is expired
      onCheckEnd(() => cap.set(id, figure.toString()));
      const first = await cap.set(id, figure.toString());
      expectOk(first, `POST {harness}/balance setting ${figure}`);
      assertThat(
        first.status === undefined || first.status === 200,
        `the answer is HTTP 200 (got ${first.status})`,
      );
      assertSchema('harness/balance-response', first.body, 'the balance answer');
      const body = first.body as { principal_id?: unknown; available_balance?: unknown };
      assertThat(
        body.principal_id === id && body.available_balance === figure.toString(),
        `the answer names the principal and the figure set (got ${JSON.stringify(first.body).slice(0, 200)})`,
      );
      // First what the issues show with nothing else locked: the whole figure and not one unit more
      // (an Operator that refuses exactly its balance, or enforces none, fails the balance checks;
      // this check is then skipped, as it could not tell a set from those faults).
      const baseline = await s.op.issue(
        lockRequest(s, { principal: 'low_balance', amount: figure.toString() }).request,
      );
      releaseIssued(s, baseline);
      if (!baseline.ok && baseline.error?.code === 'INSUFFICIENT_BALANCE') {
        const less = await s.op.issue(
          lockRequest(s, { principal: 'low_balance', amount: (figure - 1n).toString() }).request,
        );
        releaseIssued(s, less);
        if (less.ok)
          skip(
            `the figure ${figure} just set cannot be locked in one pack though one unit less can (see issue-of-exactly-available-balance-succeeds)`,
          );
      }
      const baselinePack = expectOk(baseline, `issue of the figure ${figure} just set`) as CashPack;
      const unitMore = await s.op.issue(lockRequest(s, { principal: 'low_balance', amount: '1' }).request);
      releaseIssued(s, unitMore);
      if (unitMore.ok)
        skip(
          'with the whole figure locked one more unit is still issued: the balance is not enforced (see the INSUFFICIENT_BALANCE checks)',
        );
      expectOk(await h.expire(baselinePack.pack_id), `harness expire of the pack locking ${figure}`);
      // Then the set, with one unit locked by an ACTIVE pack and one held by a CANCELLED one.
      const cancelled = await lockLow(s, 1n, figure);
      expectOk(await h.cancel(cancelled.pack.pack_id), 'harness cancel of a 1-unit pack (its funds held)');
      await lockLow(s, 1n, figure);
      const again = await cap.set(id, figure.toString());
      expectOk(again, `POST {harness}/balance setting ${figure} again, 1 unit locked and 1 held`);
      assertThat(
        isObject(again.body) && again.body.available_balance === figure.toString(),
        `with 1 unit locked and 1 held the answer still says the figure set, ${figure} (got ${JSON.stringify(again.body).slice(0, 200)})`,
      );
      const whole = await s.op.issue(
        lockRequest(s, { principal: 'low_balance', amount: figure.toString() }).request,
      );
      releaseIssued(s, whole);
      expectOk(
        whole,
        `issue of the whole figure ${figure} set while 1 unit was locked and 1 held (those are not taken from it)`,
      );
      await expectNoUnitLeft(
        s,
        `issue of 1 unit more than the figure ${figure} set while 1 unit was locked and 1 held (they must not have been added to the available balance)`,
      );
    },
  );

  check(
    'harness-balance-unknown-principal-malformed-amount-400',
    ['PRF-4-HARNESS-BALANCE-INVALID-400'],
    'POST {harness}/balance answers 400 INVALID_REQUEST with the error body to a principal the Operator does not know and to every malformed amount (a sign, a leading zero, a fraction, an exponent, spaces, hex, empty, a JSON number, null, missing, above 2^256 - 1)',
    async () => {
      const s = await setup();
      const cap = await balanceHarness(s);
      const id = s.config.principals.low_balance.principal_id;
      const figure = s.config.principals.low_balance.available_balance as string;
      // an accepted case may have changed the balance: the configured figure again at the end
      let changed = false;
      onCheckEnd(() => (changed && cap.probeOk ? cap.set(id, figure) : undefined));
      const cases: [string, unknown, unknown][] = [
        ['a principal the Operator does not know', `cprc-unknown-principal-${randomUUID()}`, '100'],
        ['a negative amount', id, '-1'],
        ['an amount with a plus sign', id, '+100'],
        ['an amount with a leading zero', id, '0100'],
        ['a fraction', id, '100.5'],
        ['an exponent', id, '1e3'],
        ['spaces around the digits', id, ' 100 '],
        ['hex digits', id, '0x64'],
        ['an empty string', id, ''],
        ['a JSON number', id, 100],
        ['null', id, null],
        ['no available_balance member', id, undefined],
        ['an amount above 2^256 - 1', id, `1${'0'.repeat(78)}`],
      ];
      for (const [what, principal, amount] of cases) {
        const r = await cap.set(principal, amount);
        changed ||= r.ok;
        expectProfileCodeIn(r, ['INVALID_REQUEST'], `POST {harness}/balance with ${what}`);
      }
      const missing = await cap.set(undefined, figure);
      changed ||= missing.ok;
      expectProfileCodeIn(missing, ['INVALID_REQUEST'], 'POST {harness}/balance without principal_id');
    },
  );
});
