import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/** A harness without the optional balance capability: the suite measures the low balance itself. */
export const noBalanceHarness: PermittedVariant = {
  id: 'operator-variant-no-balance-harness',
  target: 'operator',
  choice:
    "the harness offers no POST {harness}/balance (404): the suite measures the low-balance principal's balance with issues it expires at once, and the capability checks are skipped",
  clause:
    'profile 4: "A suite probes it once; 404, 405 or 501 means absent, never a failure. Without it a suite must not assume that the configured available_balance is still what the principal holds"',
  start: ({ workDir }) => startBrokenOperator(workDir, ReferenceOperator, { balanceHarness: false }),
};
