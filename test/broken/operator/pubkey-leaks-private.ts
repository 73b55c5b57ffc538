import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 2 / profile 4 broken: the well-known key document carries the private member "d". */
class PubkeyLeaksPrivateOperator extends ReferenceOperator {
  override publicKeyDocument(): OperatorResponse {
    return { status: 200, body: { ...this.publicJwk, d: this.deps.signingKey.d } }; // the fault
  }
}

/** The published JWK is the private key. */
export const pubkeyLeaksPrivate: BrokenImplementation = {
  id: 'operator-pubkey-leaks-private',
  target: 'operator',
  fault: 'the well-known public key document also carries the private key member "d"',
  expected: ['CP-2-PUBKEY-JWK', 'CP-4-WELL-KNOWN-PUBKEY', 'PRF-4-ED25519-KEYS', 'PRF-4-OPERATOR-JWK'],
  start: ({ workDir }) => startBrokenOperator(workDir, PubkeyLeaksPrivateOperator),
};
