import { type IssuedRequest, RequestRegistry } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 2.1 (expires_at) broken: the registry never sees a request as expired. */
class NoExpiryRegistry extends RequestRegistry {
  override isExpired(_request: IssuedRequest, _now: Date): boolean {
    return false;
  }
}

/** A request past its expires_at is fulfilled. */
export const fulfillmentAfterExpiry: BrokenImplementation = {
  id: 'payee-fulfillment-after-expiry',
  target: 'payee',
  fault: 'a request past its expires_at is still fulfilled (200)',
  expected: ['CPR-2.1-EXPIRES-AT', 'PRF-2-FULFILLMENT-EXPIRED-409'],
  start: ({ workDir }) => startBrokenPayee(workDir, { requestRegistry: new NoExpiryRegistry() }),
};
