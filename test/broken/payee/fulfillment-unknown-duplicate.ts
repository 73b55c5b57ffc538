import { type FulfillResult, RequestRegistry } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: a request_id never issued is reported as a duplicate. */
class DuplicateByDefaultRegistry extends RequestRegistry {
  override fulfill(requestId: string, now: Date): FulfillResult {
    if (!this.requests.has(requestId)) return { outcome: 'duplicate' };
    return super.fulfill(requestId, now);
  }
}

/** Unknown request_ids answer 409 DUPLICATE_ID. */
export const fulfillmentUnknownDuplicate: BrokenImplementation = {
  id: 'payee-fulfillment-unknown-duplicate',
  target: 'payee',
  fault:
    'the fulfillment of a request_id never issued (a UUID, or any other string) answers 409 DUPLICATE_ID instead of 404 REQUEST_UNKNOWN',
  // a string that is no UUID was never issued either: 409 is neither answer profile 2 allows for it
  expected: ['PRF-2-FULFILLMENT-ID-INVALID', 'PRF-2-FULFILLMENT-UNKNOWN-404'],
  start: ({ workDir }) => startBrokenPayee(workDir, { requestRegistry: new DuplicateByDefaultRegistry() }),
};
