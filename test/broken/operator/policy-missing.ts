import {
  OperatorError,
  type OperatorResponse,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 4 well-known broken: the policy document is not served. */
class PolicyMissingOperator extends ReferenceOperator {
  override policyDocument(): OperatorResponse {
    throw new OperatorError('PACK_UNKNOWN', 'no policy here'); // the fault: 404 instead of the document
  }
}

/** No policy document; the checks that need it are skipped. */
export const policyMissing: BrokenImplementation = {
  id: 'operator-policy-missing',
  target: 'operator',
  fault: 'the policy document is not served (404)',
  expected: ['CP-4-WELL-KNOWN-POLICY', 'PRF-4-POLICY-SHAPE'],
  start: ({ workDir }) => startBrokenOperator(workDir, PolicyMissingOperator),
};
