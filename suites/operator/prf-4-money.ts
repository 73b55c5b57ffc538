/**
 * Profile section 4 money flows, observed black-box through the low-balance principal's balance
 * (its configured `available_balance`): issuance locks the amount from the available balance (an
 * issue of exactly the balance succeeds, one more unit is INSUFFICIENT_BALANCE); redemption
 * releases it to the redeemer and never back to the Principal; cancellation holds it (returned to
 * no one); expiry returns it (cp-1 and the real-expiry checks). Skipped, with the reason, without
 * the balance or the harness (the harness expires the packs that lock the rest of the balance).
 *
 * A redemption or a cancellation spends one unit of the configured balance for good; the suite
 * keeps count (`spendLowBalance`) so that later checks lock what is really left.
 */
import type { Ed25519KeyPair } from '../../src/crypto/ed25519.js';
import { check, expectError, expectErrorCode, expectOk, onCheckEnd, skip } from '../_lib/index.js';
import {
  ALL_ERROR_CODES,
  type CashPack,
  expectProfileCodeIn,
  harness,
  type LockRequest,
  lockRequest,
  lowBalanceAvailable,
  type OperatorSetup,
  type Policy,
  redemptionRequest,
  setup,
  spendLowBalance,
} from './_support/index.js';

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
): Promise<{ pack: CashPack; bearer: Ed25519KeyPair }> {
  const { request, bearer } = lockRequest(s, { principal: 'low_balance', amount: amount.toString() });
  const r = await s.op.issue(request);
  releaseIssued(s, r);
  if (!r.ok && r.error?.code === 'INSUFFICIENT_BALANCE')
    skip(
      `the low-balance principal cannot lock ${amount} of the ${lowBalanceAvailable(s)} units the suite counts on (funds an earlier check locked did not come back)`,
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
  const available = lowBalanceAvailable(s);
  if (available - 1n > BigInt(s.policy.max_amount))
    skip("the low-balance principal's balance exceeds max_amount: it cannot be locked in two packs");
  const one = await lockLow(s, 1n);
  if (available > 1n) await lockLow(s, available - 1n);
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
      const available = lowBalanceAvailable(s);
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
        await lockLow(s, available - 1n);
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
      spendLowBalance(1n);
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
      spendLowBalance(1n);
      await expectNoUnitLeft(s, 'issue of 1 unit after a cancellation, with the rest of the balance locked');
    },
  );
});
