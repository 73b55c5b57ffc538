import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 harness balance broken: any principal_id gets an account (200), known or not. */
class BalanceUnknownPrincipalOperator extends ReferenceOperator {
  protected override checkBalancePrincipal(): void {} // the fault: an unknown principal is not refused
}

/** A balance set for a principal the Operator does not know is answered 200. */
export const harnessBalanceUnknownPrincipal200: BrokenImplementation = {
  id: 'operator-harness-balance-unknown-principal-200',
  target: 'operator',
  fault: 'POST {harness}/balance for a principal the Operator does not know opens an account and answers 200',
  expected: ['PRF-4-HARNESS-BALANCE-INVALID-400'],
  start: ({ workDir }) => startBrokenOperator(workDir, BalanceUnknownPrincipalOperator),
};
