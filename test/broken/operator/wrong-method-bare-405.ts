import type { BrokenImplementation } from '../types.js';
import { startFrontedOperator } from './_front.js';

const POST_ONLY = new Set([
  '/v1/cashpack/issue',
  '/v1/cashpack/renew',
  '/v1/cashpack/redeem',
  '/harness/expire',
  '/harness/cancel',
  '/harness/clock',
]);

/**
 * Profile 1 broken for a method an endpoint does not take: 405 with the body `{}` (no error
 * object), as the reference does with its method-not-allowed body emptied.
 */
export const wrongMethodBare405: BrokenImplementation = {
  id: 'operator-wrong-method-bare-405',
  target: 'operator',
  fault: 'a method an endpoint does not take is answered 405 with the body {} instead of the error body',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path) => {
      const takes = POST_ONLY.has(path) ? 'POST' : 'GET';
      const known =
        POST_ONLY.has(path) ||
        path.startsWith('/.well-known/') ||
        /^\/v1\/cashpack\/[^/]+\/status$/.test(path);
      return known && req.method !== takes
        ? { status: 405, contentType: 'application/json', body: '{}' }
        : undefined;
    }),
};
