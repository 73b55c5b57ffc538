import { type FulfillResult, RequestRegistry } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 4.3 rule 5 broken: an already fulfilled request is fulfilled again. */
class RefulfillingRegistry extends RequestRegistry {
  override fulfill(requestId: string, now: Date): FulfillResult {
    const result = super.fulfill(requestId, now);
    const request = this.requests.get(requestId);
    if (result.outcome === 'duplicate' && request !== undefined) return { outcome: 'fulfilled', request };
    return result;
  }
}

/** A second fulfillment of the same request_id is accepted. */
export const secondFulfillment: BrokenImplementation = {
  id: 'payee-second-fulfillment',
  target: 'payee',
  fault: 'a second fulfillment of the same request_id answers 200 instead of being rejected',
  expected: ['CPR-1-SINGLE-USE', 'CPR-4.3-CONSUMED-REJECT', 'PRF-2-FULFILLMENT-DUPLICATE-409'],
  start: ({ workDir }) => startBrokenPayee(workDir, { requestRegistry: new RefulfillingRegistry() }),
};
