import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 8 maximum chain depth broken: renewals never stop. */
class NoDepthLimitOperator extends ReferenceOperator {
  protected override checkDepth(): void {} // the fault
}

/** A renewal beyond max_chain_depth is accepted. */
export const noDepthLimit: BrokenImplementation = {
  id: 'operator-no-depth-limit',
  target: 'operator',
  fault: "renewal_chain may grow beyond the policy's max_chain_depth",
  // the random sequences of the CP-3 model check meet this fault only after their first 25 runs
  runs: 100,
  expected: [
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-7-CHAIN-DEPTH-EXCEEDED',
    'CP-8-MAX-CHAIN-DEPTH',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, NoDepthLimitOperator),
};
