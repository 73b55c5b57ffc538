import { setTimeout as delay } from 'node:timers/promises';
import {
  type LockRequest,
  type PackRecord,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * How long the broken issue "writes" between its replay check and its commit (a storage round
 * trip). Long against the spread of a last-byte-synchronised burst on loopback (well under the
 * suite's race bound), so the race is lost on every run; only issues pay it.
 */
const WRITE_LATENCY_MS = 150;

/**
 * Spec CP 2 / CP 8 (request_id single use) broken under concurrency: an issue checks the
 * request_id, awaits a storage write, then commits without checking it again.
 */
class IssueRaceOperator extends ReferenceOperator {
  /** True while the reference commit runs after the replay check already passed. */
  #committingChecked = false;

  protected override async commitIssue(
    request: LockRequest,
    expiresAtMs: number,
    now: number,
  ): Promise<PackRecord> {
    this.checkDuplicateId(this.deps.store.state, 'request_id', request.request_id);
    await delay(WRITE_LATENCY_MS); // the fault: other issues with the same request_id pass meanwhile
    // The reference store commits synchronously: the flag covers exactly the reference's own check.
    this.#committingChecked = true;
    try {
      return super.commitIssue(request, expiresAtMs, now);
    } finally {
      this.#committingChecked = false;
    }
  }

  protected override checkDuplicateId(...args: Parameters<ReferenceOperator['checkDuplicateId']>): void {
    if (!(this.#committingChecked && args[1] === 'request_id')) super.checkDuplicateId(...args);
  }
}

/** Simultaneous issues with one request_id all succeed. */
export const issueRace: BrokenImplementation = {
  id: 'operator-issue-race',
  target: 'operator',
  fault:
    'issue checks the request_id, awaits a storage write, then commits: simultaneous issues with one request_id all succeed',
  expected: ['CP-2-REQUEST-ID-REPLAY', 'CP-8-ID-SINGLE-USE'],
  start: ({ workDir }) => startBrokenOperator(workDir, IssueRaceOperator),
};
