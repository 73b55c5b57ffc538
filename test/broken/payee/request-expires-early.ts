import { type IssuedRequest, RequestRegistry } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (200 the first time): a request counts as expired 10 s before its expires_at. */
class EarlyRegistry extends RequestRegistry {
  override isExpired(request: IssuedRequest, now: Date): boolean {
    return now.getTime() >= request.expiresAt.getTime() - 10_000;
  }
}

/** A fulfillment 2 s before expires_at is refused as expired. */
export const requestExpiresEarly: BrokenImplementation = {
  id: 'payee-request-expires-early',
  target: 'payee',
  fault: 'a request is refused as REQUEST_EXPIRED from 10 s before its expires_at',
  expected: ['PRF-2-FULFILLMENT-FIRST-200'],
  start: ({ workDir }) => startBrokenPayee(workDir, { requestRegistry: new EarlyRegistry() }),
};
