import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Spec CP 4 broken: the pack a renewal entry or redemption request names is never compared with
 * the submitted cash-pack, so pack A's message goes through with pack B's (validly signed) copy
 * (a mutation-testing survivor: the `pack_id` comparison made `false`).
 */
class PackIdUncheckedOperator extends ReferenceOperator {
  protected override checkSamePack(): void {} // the fault
}

/** A message for one pack is accepted with another pack's cash-pack. */
export const packIdUnchecked: BrokenImplementation = {
  id: 'operator-pack-id-unchecked',
  target: 'operator',
  fault: "a renewal entry or redemption request of pack A is accepted together with pack B's cash-pack",
  expected: ['CP-4-REDEEM', 'CP-4-RENEW', 'PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, PackIdUncheckedOperator),
};
