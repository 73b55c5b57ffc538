import type { ServerResponse } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import {
  type FulfillResult,
  type IssuedRequest,
  ReferencePayee,
  RequestRegistry,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * How long the broken fulfillment "writes" between its check and marking the request fulfilled
 * (a storage round trip). Long against the spread of a last-byte-synchronised burst on loopback
 * (well under the suite's race bound), so the race is lost on every run; only fulfillments pay it.
 */
const WRITE_LATENCY_MS = 150;

/** The reference registry, plus its check on its own and a commit that skips it. */
class RacyRegistry extends RequestRegistry {
  /** Set (synchronously around the reference's call) while a checked fulfillment commits. */
  committingChecked = false;

  /** The reference checks of `fulfill`, without marking anything. */
  wouldFulfill(requestId: string, now: Date): boolean {
    const request = this.requests.get(requestId);
    return request !== undefined && request.fulfilledAt === undefined && !this.isExpired(request, now);
  }

  override fulfill(requestId: string, now: Date): FulfillResult {
    if (!this.committingChecked) return super.fulfill(requestId, now);
    const request = this.requests.get(requestId) as IssuedRequest;
    request.fulfilledAt = now;
    return { outcome: 'fulfilled', request };
  }
}

/**
 * Spec 4.3 rule 5 (a fulfilled request is consumed) broken under concurrency: a fulfillment
 * checks the request, awaits a storage write, then marks it fulfilled without checking again.
 */
class FulfillRacePayee extends ReferencePayee {
  protected override async fulfill(body: unknown, res: ServerResponse): Promise<void> {
    const registry = this.requests as RacyRegistry;
    const id = (body as { request_id?: unknown } | null)?.request_id;
    if (typeof id !== 'string' || !registry.wouldFulfill(id, this.now())) return super.fulfill(body, res);
    await delay(WRITE_LATENCY_MS); // the fault: other fulfillments pass the check meanwhile
    // the reference's fulfill reaches the registry synchronously: the flag covers exactly that call
    registry.committingChecked = true;
    try {
      return super.fulfill(body, res);
    } finally {
      registry.committingChecked = false;
    }
  }
}

/** Simultaneous fulfillments of one request_id all succeed. */
export const fulfillRace: BrokenImplementation = {
  id: 'payee-fulfill-race',
  target: 'payee',
  fault:
    'fulfillment checks the request, awaits a storage write, then marks it fulfilled: simultaneous fulfillments all succeed',
  expected: ['CPR-4.3-CONSUMED-REJECT', 'PRF-2-FULFILLMENT-DUPLICATE-409'],
  start: ({ workDir }) =>
    startBrokenPayee(workDir, { requestRegistry: new RacyRegistry() }, FulfillRacePayee),
};
