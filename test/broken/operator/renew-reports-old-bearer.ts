import { type CashPack, type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 4 renew broken: the returned cash-pack keeps naming the initial bearer as current. */
class RenewReportsOldBearerOperator extends ReferenceOperator {
  protected override signPack(record: PackRecord): CashPack {
    return super.signPack({ ...record, current_bearer_pk: record.initial_bearer_pk }); // the fault
  }
}

/** The updated cash-pack does not show the new bearer. */
export const renewReportsOldBearer: BrokenImplementation = {
  id: 'operator-renew-reports-old-bearer',
  target: 'operator',
  fault: 'the cash-pack returned by renew names the initial bearer as current_bearer_pk',
  expected: [
    'CP-1-INTERMEDIATE-ANONYMOUS',
    'CP-1-RENEWAL-TRANSFERS',
    'CP-3-ACTIVE',
    'CP-3-TERMINAL-STATUS',
    'CP-4-RENEW',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, RenewReportsOldBearerOperator),
};
