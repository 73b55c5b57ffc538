import { setTimeout as delay } from 'node:timers/promises';
import {
  type CashPack,
  type RedemptionConfirmation,
  type RedemptionRequest,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * How long the broken redemption "writes" between its checks and its commit (a storage round
 * trip). Long against the spread of 32 concurrent arrivals on loopback, so the race is lost on
 * every run; only redemptions pay it, so the suite stays fast.
 */
const WRITE_LATENCY_MS = 150;

/**
 * Spec CP 3 (REDEEMED is terminal) broken under concurrency: a redemption runs the reference
 * checks, awaits a storage write, then commits without checking again (check, await, commit).
 */
class RedeemRaceOperator extends ReferenceOperator {
  /** True while the reference commit runs after the checks already passed. */
  #committingChecked = false;

  protected override async commitRedemption(
    request: RedemptionRequest,
    submitted: CashPack,
    now: number,
  ): Promise<RedemptionConfirmation> {
    const state = this.deps.store.state;
    const pack = this.packForDecision(this.storedPack(state, request.pack_id), submitted);
    this.checkDuplicateId(state, 'redemption_id', request.redemption_id);
    this.checkActive(pack, now);
    this.checkChainDigest(pack, request.prev_chain_digest);
    this.verifyBearer(pack, request.bearer_pk);
    await delay(WRITE_LATENCY_MS); // the fault: other redemptions pass the checks meanwhile
    // The reference store commits synchronously: the flag covers exactly the reference's own checks.
    this.#committingChecked = true;
    try {
      return super.commitRedemption(request, submitted, now); // its state checks are skipped below
    } finally {
      this.#committingChecked = false;
    }
  }

  protected override checkActive(pack: Parameters<ReferenceOperator['checkActive']>[0], now: number): void {
    if (!this.#committingChecked) super.checkActive(pack, now);
  }

  protected override checkChainDigest(
    pack: Parameters<ReferenceOperator['checkChainDigest']>[0],
    prev: string,
  ): void {
    if (!this.#committingChecked) super.checkChainDigest(pack, prev);
  }
}

/** Simultaneous redemptions of one pack all succeed. */
export const redeemRace: BrokenImplementation = {
  id: 'operator-redeem-race',
  target: 'operator',
  fault:
    'redemption checks, awaits a storage write, then commits: simultaneous redemptions of one pack all succeed',
  expected: ['CP-3-REDEEMED', 'CP-3-TERMINAL-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, RedeemRaceOperator),
};
