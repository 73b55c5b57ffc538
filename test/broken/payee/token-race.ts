import { setTimeout as delay } from 'node:timers/promises';
import { type ConsumeResult, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * How long the broken store "writes" between the check and the invalidation (a storage round
 * trip). Long against the spread of 32 concurrent arrivals on loopback, so the race is lost on
 * every run; short enough to keep the suite fast.
 */
const WRITE_LATENCY_MS = 150;

/** Spec 5 rule 2 under concurrency broken: check, await, then invalidate. */
class RacyTokenStore extends TokenStore {
  override async consume(token: string, now: Date): Promise<ConsumeResult> {
    const record = this.records.get(token);
    if (record === undefined || record.consumed || this.isExpired(record, now))
      return super.consume(token, now);
    await delay(WRITE_LATENCY_MS); // the fault: another retrieval passes the check meanwhile
    this.invalidate(record);
    return { outcome: 'served', record };
  }
}

/** Concurrent first uses of one token are all served. */
export const tokenRace: BrokenImplementation = {
  id: 'payee-token-race',
  target: 'payee',
  fault:
    'retrieval checks the token, awaits a storage write, then invalidates: simultaneous first uses are all served',
  expected: ['CPR-5-TOKEN-SINGLE-USE', 'CPR-8-TOKEN-USES'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new RacyTokenStore() }),
};
