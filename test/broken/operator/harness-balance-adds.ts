import { type Account, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 harness balance broken: the figure is added to the available balance (a top-up), not set. */
class BalanceAddsOperator extends ReferenceOperator {
  protected override applyBalance(account: Account, figure: bigint): void {
    account.available += figure; // the fault: a top-up instead of a set
  }
}

/** A harness balance set tops the balance up instead. */
export const harnessBalanceAdds: BrokenImplementation = {
  id: 'operator-harness-balance-adds',
  target: 'operator',
  fault: 'POST {harness}/balance adds the figure to the available balance instead of setting it',
  expected: ['PRF-4-HARNESS-BALANCE'],
  start: ({ workDir }) => startBrokenOperator(workDir, BalanceAddsOperator),
};
