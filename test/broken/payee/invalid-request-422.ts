import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import type { Answer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

const to422 = (a: Answer): Answer => (a.status === 400 ? { ...a, status: 422 } : a);

/** Profile 1 broken: a malformed harness body answers 422 INVALID_REQUEST instead of 400. */
const UnprocessablePayee = harnessRewritingPayee('requests', to422);

/** INVALID_REQUEST comes with 422. */
export const invalidRequest422: BrokenImplementation = {
  id: 'payee-invalid-request-422',
  target: 'payee',
  fault: 'a malformed POST {harness}/requests body answers 422 INVALID_REQUEST instead of 400',
  // revised profile 2: a harness request the payee cannot honour is refused with 400
  // INVALID_REQUEST, so a 422 refusal of an over-long memo trips PRF-2-HARNESS-UNSERVICEABLE too
  expected: ['PRF-1-ERROR-STATUS', 'PRF-1-INVALID-REQUEST', 'PRF-2-HARNESS-UNSERVICEABLE'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, UnprocessablePayee),
};
