import { OperatorError, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: the chain stops one entry short of max_chain_depth. */
class DepthLimitExclusiveOperator extends ReferenceOperator {
  protected override checkDepth(pack: PackRecord): void {
    if (pack.renewal_chain.length + 1 >= this.deps.policy.max_chain_depth) {
      throw new OperatorError('CHAIN_DEPTH_EXCEEDED', '"renewal_chain" is full'); // the fault: off by one
    }
  }
}

/** The renewal that would make the chain reach max_chain_depth is refused. */
export const depthLimitExclusive: BrokenImplementation = {
  id: 'operator-depth-limit-exclusive',
  target: 'operator',
  fault: 'a renewal chain cannot reach max_chain_depth entries (the last allowed renewal is refused)',
  // the random sequences of the CP-3 model check meet this fault only after their first 25 runs
  runs: 100,
  expected: [
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-7-CHAIN-DEPTH-EXCEEDED',
    'CP-8-MAX-CHAIN-DEPTH',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
    'PRF-4-LIMITS-INCLUSIVE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, DepthLimitExclusiveOperator),
};
