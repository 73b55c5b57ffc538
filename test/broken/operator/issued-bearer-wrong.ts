import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 1 item 4 broken in the answer: a new cash-pack names another key than the initial bearer's. */
class IssuedBearerWrongOperator extends ReferenceOperator {
  protected override signPack(record: PackRecord): CashPack {
    if (record.renewal_chain.length > 0) return super.signPack(record);
    return super.signPack({ ...record, current_bearer_pk: this.publicJwk.x }); // the fault
  }
}

/** The issued cash-pack's current_bearer_pk is not the Lock Request's initial_bearer_pk. */
export const issuedBearerWrong: BrokenImplementation = {
  id: 'operator-issued-bearer-wrong',
  target: 'operator',
  fault: "an issued cash-pack names the Operator's key instead of the initial bearer's as current_bearer_pk",
  expected: ['CP-1-INITIAL-BEARER', 'CP-2-CASHPACK-FIELDS', 'CP-3-ACTIVE', 'CP-4-ISSUE'],
  start: ({ workDir }) => startBrokenOperator(workDir, IssuedBearerWrongOperator),
};
