import { setTimeout as delay } from 'node:timers/promises';
import {
  type CashPack,
  type PackRecord,
  ReferenceOperator,
  type RenewalEntry,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * How long the broken renewal "writes" between its checks and its commit (a storage round
 * trip). Long against the spread of a last-byte-synchronised burst on loopback (well under the
 * suite's race bound), so the race is lost on every run; only renewals pay it.
 */
const WRITE_LATENCY_MS = 150;

/**
 * Spec CP 1 item 5 (the renewal hands the bearer rights on once) broken under concurrency: a
 * renewal runs the reference checks, awaits a storage write, then commits without checking again.
 */
class RenewRaceOperator extends ReferenceOperator {
  /** True while the reference commit runs after the checks already passed. */
  #committingChecked = false;

  protected override async commitRenewal(
    entry: RenewalEntry,
    submitted: CashPack,
    now: number,
  ): Promise<PackRecord> {
    const state = this.deps.store.state;
    const pack = this.packForDecision(this.storedPack(state, entry.pack_id), submitted);
    this.renewalChecks(state, pack, entry, now);
    await delay(WRITE_LATENCY_MS); // the fault: other renewals pass the checks meanwhile
    // The reference store commits synchronously: the flag covers exactly the reference's own checks.
    this.#committingChecked = true;
    try {
      return super.commitRenewal(entry, submitted, now);
    } finally {
      this.#committingChecked = false;
    }
  }

  protected override renewalChecks(...args: Parameters<ReferenceOperator['renewalChecks']>): void {
    if (!this.#committingChecked) super.renewalChecks(...args);
  }
}

/** Simultaneous renewals of one pack all succeed. */
export const renewRace: BrokenImplementation = {
  id: 'operator-renew-race',
  target: 'operator',
  fault:
    'renewal checks, awaits a storage write, then commits: simultaneous renewals of one pack all succeed',
  expected: ['CP-1-RENEWAL-TRANSFERS', 'CP-7-CHAIN-DIGEST-MISMATCH'],
  start: ({ workDir }) => startBrokenOperator(workDir, RenewRaceOperator),
};
