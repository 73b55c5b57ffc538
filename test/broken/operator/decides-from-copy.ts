import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * AMB-33 broken: the bearer and chain state come from the submitted copy (which only has to
 * carry a valid Operator signature) instead of the Operator's own record, so a stale copy from
 * before a renewal still works for its former bearer.
 */
class DecidesFromCopyOperator extends ReferenceOperator {
  protected override packForDecision(stored: PackRecord, submitted: CashPack): PackRecord {
    return {
      ...stored,
      // the fault: the client's copy decides who the bearer is and which digest is current
      current_bearer_pk: submitted.current_bearer_pk,
      chain_digest: submitted.chain_digest,
      renewal_chain: submitted.renewal_chain,
    };
  }
}

/** A stale (correctly signed) copy is accepted. */
export const decidesFromCopy: BrokenImplementation = {
  id: 'operator-decides-from-copy',
  target: 'operator',
  fault: "renew and redeem trust the submitted copy's bearer and chain digest, so a stale copy is accepted",
  // the random sequences of the CP-3 model check meet this fault only after their first 25 runs
  runs: 100,
  expected: ['CP-1-RENEWAL-TRANSFERS', 'CP-3-ACTIVE', 'CP-3-TERMINAL-STATUS', 'CP-7-CHAIN-DIGEST-MISMATCH'],
  start: ({ workDir }) => startBrokenOperator(workDir, DecidesFromCopyOperator),
};
