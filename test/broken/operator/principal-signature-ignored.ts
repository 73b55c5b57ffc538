import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 5 rule 1 broken for issue: the Lock Request signature is never verified. */
class PrincipalSignatureIgnoredOperator extends ReferenceOperator {
  protected override verifyPrincipalSignature(): void {} // the fault
}

/** A Lock Request altered after the principal signed it is accepted. */
export const principalSignatureIgnored: BrokenImplementation = {
  id: 'operator-principal-signature-ignored',
  target: 'operator',
  fault: "the principal's signature on a Lock Request is not verified",
  expected: [
    'CP-5-INVALID-SIGNATURE',
    'CP-5-MESSAGES-SIGNED',
    'CP-7-INVALID-SIGNATURE',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, PrincipalSignatureIgnoredOperator),
};
