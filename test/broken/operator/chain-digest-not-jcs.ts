import { createHash } from 'node:crypto';
import {
  type LockRequest,
  type PackRecord,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 4 chain digest broken: d0 hashes JSON.stringify of the members in another order
 * instead of their JCS bytes. Renewals fold dN on top of it consistently, so the pack works,
 * but no digest matches the profile's formula.
 */
class ChainDigestNotJcsOperator extends ReferenceOperator {
  protected override async commitIssue(
    request: LockRequest,
    expiresAtMs: number,
    now: number,
  ): Promise<PackRecord> {
    const record = await super.commitIssue(request, expiresAtMs, now);
    const stored = this.deps.store.state.packs.get(record.pack_id) as PackRecord;
    const { initial_bearer_pk, pack_id, amount, asset, expires_at } = stored;
    // the fault: not JCS (member order of the code, not sorted)
    stored.chain_digest = createHash('sha256')
      .update(JSON.stringify({ initial_bearer_pk, pack_id, amount, asset, expires_at }))
      .digest('hex');
    return { ...stored };
  }
}

/** Chain digests follow another formula than profile 4. */
export const chainDigestNotJcs: BrokenImplementation = {
  id: 'operator-chain-digest-not-jcs',
  target: 'operator',
  fault: 'd0 is computed over JSON.stringify in another member order instead of JCS',
  expected: ['PRF-4-CHAIN-DIGEST'],
  start: ({ workDir }) => startBrokenOperator(workDir, ChainDigestNotJcsOperator),
};
