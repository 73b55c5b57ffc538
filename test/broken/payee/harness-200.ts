import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: POST {harness}/requests answers 200 instead of 201. */
const OkNotCreatedPayee = harnessRewritingPayee('requests', (a) =>
  a.status === 201 ? { ...a, status: 200 } : a,
);

/** The harness answers 200 to a created request. */
export const harness200: BrokenImplementation = {
  id: 'payee-harness-200',
  target: 'payee',
  fault: 'POST {harness}/requests answers 200 instead of 201 Created',
  expected: ['PRF-2-HARNESS-REQUESTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, OkNotCreatedPayee),
};
