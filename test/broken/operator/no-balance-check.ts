import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 7 INSUFFICIENT_BALANCE broken: the available balance is never compared. */
class NoBalanceCheckOperator extends ReferenceOperator {
  protected override checkBalance(): void {} // the fault
}

/** A principal can lock more than its available balance. */
export const noBalanceCheck: BrokenImplementation = {
  id: 'operator-no-balance-check',
  target: 'operator',
  fault: "an issue above the principal's available balance is accepted",
  expected: ['CP-1-FUNDS-LOCKED', 'CP-7-INSUFFICIENT-BALANCE', 'PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, NoBalanceCheckOperator),
};
