import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** `ms` as RFC 3339 with `Z` in whole seconds (`2026-01-01T00:00:00Z`). */
function wholeSecond(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * Profile 4 broken, as `renewal-rewrites-issued-at` but in the form in which it issues: its time
 * stamps carry whole seconds, and a renewal stamps issued_at afresh. Within the second of the
 * issue the re-stamp writes the same text: only a renewal a second later shows it.
 */
class RenewalRestampsWholeSecondsOperator extends ReferenceOperator {
  protected override signPack(record: PackRecord): CashPack {
    const stamped = record.renewal_chain.length === 0 ? Date.parse(record.issued_at) : this.now(); // the fault
    return super.signPack({ ...record, issued_at: wholeSecond(stamped) });
  }
}

/** A renewal re-stamps issued_at, in whole seconds. */
export const renewalRestampsWholeSeconds: BrokenImplementation = {
  id: 'operator-renewal-restamps-whole-seconds',
  target: 'operator',
  fault:
    'time stamps carry whole seconds and a renewal stamps issued_at afresh: the same text within the second of the issue, a later one after it',
  expected: ['PRF-4-RENEWAL-CHANGES-BEARER-ONLY'],
  start: ({ workDir }) => startBrokenOperator(workDir, RenewalRestampsWholeSecondsOperator),
};
