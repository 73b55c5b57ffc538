import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: the first fulfillment answers 202 instead of 200. */
const AcceptedPayee = harnessRewritingPayee('fulfillments', (a) =>
  a.status === 200 ? { ...a, status: 202 } : a,
);

/** First fulfillment answers 202. */
export const fulfillment202: BrokenImplementation = {
  id: 'payee-fulfillment-202',
  target: 'payee',
  fault: 'the first fulfillment answers 202 Accepted instead of 200',
  expected: ['PRF-2-FULFILLMENT-FIRST-200'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, AcceptedPayee),
};
