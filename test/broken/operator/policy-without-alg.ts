import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 policy shape broken: the policy document omits signature_alg. */
class PolicyWithoutAlgOperator extends ReferenceOperator {
  override policyDocument(): OperatorResponse {
    const { signature_alg: _omitted, ...rest } = this.deps.policy; // the fault
    return { status: 200, body: rest };
  }
}

/** The policy lacks signature_alg. */
export const policyWithoutAlg: BrokenImplementation = {
  id: 'operator-policy-without-alg',
  target: 'operator',
  fault: 'the policy document omits "signature_alg"',
  expected: ['PRF-4-POLICY-SHAPE'],
  start: ({ workDir }) => startBrokenOperator(workDir, PolicyWithoutAlgOperator),
};
