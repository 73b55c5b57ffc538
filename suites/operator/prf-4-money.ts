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
import { check, expectErrorCode, expectOk, onCheckEnd, skip } from '../_lib/index.js';
import {
  type CashPack,
  harness,
  lockRequest,
  lowBalanceAvailable,
  type OperatorSetup,
  redemptionRequest,
  setup,
  spendLowBalance,
} from './_support/index.js';

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
