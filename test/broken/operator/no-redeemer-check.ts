import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 5 rule 4 broken: the redeemer's identity is never verified. */
class NoRedeemerCheckOperator extends ReferenceOperator {
  protected override checkRedeemer(): void {} // the fault
}

/** Redemption without a sufficient identity succeeds. */
export const noRedeemerCheck: BrokenImplementation = {
  id: 'operator-no-redeemer-check',
  target: 'operator',
  fault: 'a redeemer without identity, or below the required level, may redeem',
  expected: [
    'CP-1-REDEEMER-IDENTIFIED',
    'CP-5-REDEEMER-IDENTIFIED',
    'CP-7-REDEEMER-NOT-IDENTIFIED',
    'PRF-1-ERROR-STATUS',
    'PRF-4-REDEEMER-MISSING-403',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, NoRedeemerCheckOperator),
};
