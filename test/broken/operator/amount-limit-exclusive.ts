import { OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: an amount equal to max_amount already "exceeds" the limit. */
class AmountLimitExclusiveOperator extends ReferenceOperator {
  protected override checkAmountLimit(amount: string): void {
    if (BigInt(amount) >= BigInt(this.deps.policy.max_amount)) {
      throw new OperatorError('AMOUNT_EXCEEDS_LIMIT', '"amount" reaches the maximum'); // the fault: >=
    }
  }
}

/** max_amount itself is refused. */
export const amountLimitExclusive: BrokenImplementation = {
  id: 'operator-amount-limit-exclusive',
  target: 'operator',
  fault: 'an amount equal to max_amount is refused with AMOUNT_EXCEEDS_LIMIT',
  expected: ['CP-8-MAX-AMOUNT', 'PRF-4-LIMITS-INCLUSIVE'],
  start: ({ workDir }) => startBrokenOperator(workDir, AmountLimitExclusiveOperator),
};
