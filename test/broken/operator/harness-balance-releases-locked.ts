import { type Account, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 4 harness balance broken: setting the available balance also frees the funds that
 * ACTIVE packs lock and CANCELLED packs hold (they are added to the figure and the lock is
 * cleared). The answer tells the balance it made.
 */
class BalanceReleasesLockedOperator extends ReferenceOperator {
  protected override applyBalance(account: Account, figure: bigint): void {
    account.available = figure + account.locked; // the fault: locked and held funds released
    account.locked = 0n;
  }
}

/** A harness balance set frees the locked and held funds. */
export const harnessBalanceReleasesLocked: BrokenImplementation = {
  id: 'operator-harness-balance-releases-locked',
  target: 'operator',
  fault: "POST {harness}/balance frees the principal's locked and held funds into the figure it sets",
  expected: ['PRF-4-HARNESS-BALANCE'],
  start: ({ workDir }) => startBrokenOperator(workDir, BalanceReleasesLockedOperator),
};
