import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 8 maximum amount broken: any amount is issued. */
class NoAmountLimitOperator extends ReferenceOperator {
  protected override checkAmountLimit(): void {} // the fault
}

/** An issue above max_amount succeeds. */
export const noAmountLimit: BrokenImplementation = {
  id: 'operator-no-amount-limit',
  target: 'operator',
  fault: "an amount above the policy's max_amount is issued",
  expected: ['CP-7-AMOUNT-EXCEEDS-LIMIT', 'CP-8-MAX-AMOUNT', 'PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, NoAmountLimitOperator),
};
