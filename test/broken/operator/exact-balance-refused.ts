import {
  type AssetDescriptor,
  assetKey,
  OperatorError,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { StoreState } from '../../../src/reference/operator/store.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 7 broken: an amount equal to the available balance is INSUFFICIENT_BALANCE. */
class ExactBalanceRefusedOperator extends ReferenceOperator {
  protected override checkBalance(
    state: StoreState,
    principalId: string,
    asset: AssetDescriptor,
    amount: string,
  ): void {
    const account = state.accounts.get(principalId)?.get(assetKey(asset));
    if (account === undefined || account.available <= BigInt(amount)) {
      throw new OperatorError('INSUFFICIENT_BALANCE', 'the balance is not above "amount"'); // the fault: <=
    }
  }
}

/** The whole available balance cannot be locked. */
export const exactBalanceRefused: BrokenImplementation = {
  id: 'operator-exact-balance-refused',
  target: 'operator',
  fault: 'an issue of exactly the available balance is refused with INSUFFICIENT_BALANCE',
  expected: ['CP-7-INSUFFICIENT-BALANCE', 'PRF-4-MONEY-FLOWS'],
  start: ({ workDir }) => startBrokenOperator(workDir, ExactBalanceRefusedOperator),
};
