import type { BrokenImplementation } from '../types.js';
import { startFrontedOperator } from './_front.js';

/**
 * Profile 1 broken for a body over the size limit: 500 INTERNAL_ERROR instead of a 4xx, as the
 * reference does when its size refusal carries a blank code (no status of the profile table).
 */
export const oversizedBody500: BrokenImplementation = {
  id: 'operator-oversized-body-500',
  target: 'operator',
  fault: 'a request body over 64 KiB is answered 500 INTERNAL_ERROR instead of a 4xx with the error body',
  expected: ['PRF-1-ERROR-BODY'],
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (_req, _path, body) =>
      body.length > 65_536
        ? {
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'the operator failed' } }),
          }
        : undefined,
    ),
};
