import { type IssuedRequest, RequestRegistry } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 2.1 broken at its boundary: a request is still fulfilled up to 5 s past its expires_at. */
class GraceRegistry extends RequestRegistry {
  override isExpired(request: IssuedRequest, now: Date): boolean {
    return now.getTime() >= request.expiresAt.getTime() + 5_000;
  }
}

/** Fulfillment is accepted for 5 s after expires_at. */
export const requestExpiryGrace: BrokenImplementation = {
  id: 'payee-request-expiry-grace',
  target: 'payee',
  fault: 'a request is still fulfilled up to 5 s past its expires_at (a grace period)',
  expected: ['CPR-2.1-EXPIRES-AT', 'PRF-2-FULFILLMENT-EXPIRED-409'],
  start: ({ workDir }) => startBrokenPayee(workDir, { requestRegistry: new GraceRegistry() }),
};
