import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 5 rule 1 broken: Renewal Entry and Redemption Request signatures are not verified. */
class IgnoredSignatureOperator extends ReferenceOperator {
  protected override verifyBearerSignature(): void {} // the fault
}

/** A renewal entry or redemption request altered after signing is accepted. */
export const ignoredSignature: BrokenImplementation = {
  id: 'operator-ignored-signature',
  target: 'operator',
  fault: 'the bearer signature of renewal entries and redemption requests is ignored',
  expected: [
    'CP-5-INVALID-SIGNATURE',
    'CP-5-MESSAGES-SIGNED',
    'CP-7-INVALID-SIGNATURE',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, IgnoredSignatureOperator),
};
