import { verifyObject } from '../../../src/crypto/ed25519.js';
import { type LockRequest, OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Spec CP 5 rule 1 broken: a principal_id the Operator does not know is not refused first; its
 * missing key is then read and the request fails with a server error (a mutation-testing
 * survivor: the `principal === undefined` test made `false`).
 */
class UnknownPrincipalCrashOperator extends ReferenceOperator {
  protected override verifyPrincipalSignature(request: LockRequest): void {
    const principal = this.deps.principals.get(request.principal_id);
    // the fault: no test for an unknown principal (TypeError: the answer is a 500)
    const key = (principal as NonNullable<typeof principal>).publicKey;
    if (!verifyObject(request, key)) {
      throw new OperatorError('INVALID_SIGNATURE', 'the lock request "signature" does not verify');
    }
  }
}

/** A Lock Request from an unknown principal gets a server error. */
export const unknownPrincipalCrash: BrokenImplementation = {
  id: 'operator-unknown-principal-crash',
  target: 'operator',
  fault: 'a Lock Request naming an unknown principal_id is answered 500 instead of INVALID_SIGNATURE',
  expected: ['CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE', 'PRF-1-ERROR-BODY', 'PRF-1-ERROR-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, UnknownPrincipalCrashOperator),
};
