import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 5 rule 3 broken: every caller may read the status of a known pack. */
class StatusOpenOperator extends ReferenceOperator {
  protected override checkStatusAccess(): void {} // the fault
}

/** The status endpoint answers anyone. */
export const statusOpen: BrokenImplementation = {
  id: 'operator-status-open',
  target: 'operator',
  fault: 'the status endpoint answers any caller, with or without credentials',
  expected: [
    'CP-4-STATUS-RESTRICTED',
    'CP-5-STATUS-ACCESS',
    'PRF-4-STATUS-FORBIDDEN-403',
    'PRF-4-STATUS-NO-EXISTENCE-LEAK',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, StatusOpenOperator),
};
