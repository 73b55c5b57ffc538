import { ReferenceOperator, type StatusCaller } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 5 rule 3 broken the other way: the Operator's own credential is not recognised. */
class OperatorCredentialRefusedOperator extends ReferenceOperator {
  protected override identifyCaller(authorization: string | undefined): StatusCaller | undefined {
    const caller = super.identifyCaller(authorization);
    return caller?.kind === 'operator' ? undefined : caller; // the fault
  }
}

/** The Operator cannot read statuses. */
export const operatorCredentialRefused: BrokenImplementation = {
  id: 'operator-operator-credential-refused',
  target: 'operator',
  fault: "the status endpoint refuses the Operator's own credential",
  expected: ['CP-4-STATUS-RESTRICTED', 'CP-5-STATUS-ACCESS', 'PRF-4-STATUS-UNKNOWN-404'],
  start: ({ workDir }) => startBrokenOperator(workDir, OperatorCredentialRefusedOperator),
};
