import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 7 CHAIN_DIGEST_MISMATCH broken: prev_chain_digest is never compared. */
class UncheckedChainDigestOperator extends ReferenceOperator {
  protected override checkChainDigest(): void {} // the fault
}

/** A renewal or redemption citing an old chain digest is accepted. */
export const uncheckedChainDigest: BrokenImplementation = {
  id: 'operator-unchecked-chain-digest',
  target: 'operator',
  fault: 'prev_chain_digest is not compared with the current chain_digest',
  expected: ['CP-7-CHAIN-DIGEST-MISMATCH', 'PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, UncheckedChainDigestOperator),
};
