import {
  OperatorError,
  type PackRecord,
  ReferenceOperator,
  type RenewalEntry,
  type StoreState,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 2, 8 broken: a renewal_id is single use within its pack only. */
class RenewalIdPerPackOperator extends ReferenceOperator {
  protected override renewalChecks(
    state: StoreState,
    pack: PackRecord,
    entry: RenewalEntry,
    now: number,
  ): void {
    const id = entry.renewal_id.toLowerCase();
    if (pack.renewal_chain.some((e) => e.renewal_id.toLowerCase() === id)) {
      throw new OperatorError('DUPLICATE_ID', '"renewal_id" was seen before on this pack');
    }
    // the fault: the Operator-wide set of seen renewal_ids is not consulted
    this.checkActive(pack, now);
    this.checkChainDigest(pack, entry.prev_chain_digest);
    this.verifyBearer(pack, entry.bearer_pk);
    this.checkDepth(pack);
    void state;
  }
}

/** A renewal_id used on one pack is accepted on another. */
export const renewalIdPerPack: BrokenImplementation = {
  id: 'operator-renewal-id-per-pack',
  target: 'operator',
  fault: 'a renewal_id already used on one pack is accepted on another pack',
  // the random sequences of the CP-3 model check meet this fault only after their first 25 runs
  runs: 100,
  expected: [
    'CP-2-RENEWAL-ID-REPLAY',
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-7-DUPLICATE-ID',
    'CP-8-ID-SINGLE-USE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, RenewalIdPerPackOperator),
};
