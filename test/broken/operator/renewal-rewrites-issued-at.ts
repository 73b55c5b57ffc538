import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 broken: a renewed cash-pack is re-dated (issued_at = the renewal's time). */
class RenewalRewritesIssuedAtOperator extends ReferenceOperator {
  protected override signPack(record: PackRecord): CashPack {
    if (record.renewal_chain.length === 0) return super.signPack(record);
    const reissued = new Date(this.now()).toISOString();
    return super.signPack({ ...record, issued_at: reissued }); // the fault
  }
}

/** A renewal changes issued_at. */
export const renewalRewritesIssuedAt: BrokenImplementation = {
  id: 'operator-renewal-rewrites-issued-at',
  target: 'operator',
  fault: 'a renewal re-dates the cash-pack: issued_at becomes the time of the renewal',
  // the time stamps a renewal keeps are judged by one check, the one whose renewal comes a second
  // after the issue (renewal-changes-only-bearer-digest-chain)
  expected: ['PRF-4-RENEWAL-CHANGES-BEARER-ONLY'],
  start: ({ workDir }) => startBrokenOperator(workDir, RenewalRewritesIssuedAtOperator),
};
