import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 5 rule 2 broken: bearer_pk is never compared with current_bearer_pk. */
class NoBearerCheckOperator extends ReferenceOperator {
  protected override verifyBearer(): void {} // the fault
}

/** Any key may renew or redeem a pack whose copy it holds. */
export const noBearerCheck: BrokenImplementation = {
  id: 'operator-no-bearer-check',
  target: 'operator',
  fault: 'the submitting key is never compared with current_bearer_pk, so any key may renew or redeem',
  expected: [
    'CP-1-RENEWAL-TRANSFERS',
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-5-BEARER-MISMATCH',
    'CP-7-BEARER-MISMATCH',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, NoBearerCheckOperator),
};
