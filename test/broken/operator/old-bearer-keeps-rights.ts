import { type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 1 item 5 broken: renewal adds a bearer instead of replacing it. */
class OldBearerKeepsRightsOperator extends ReferenceOperator {
  protected override verifyBearer(pack: PackRecord, bearerPk: string): void {
    const former = [pack.initial_bearer_pk, ...pack.renewal_chain.map((e) => e.bearer_pk)];
    if (former.includes(bearerPk)) return; // the fault: every key that ever held the pack still may
    super.verifyBearer(pack, bearerPk);
  }
}

/** A previous bearer key still renews or redeems after a renewal. */
export const oldBearerKeepsRights: BrokenImplementation = {
  id: 'operator-old-bearer-keeps-rights',
  target: 'operator',
  fault: 'after a renewal every previous bearer key may still renew or redeem',
  expected: ['CP-1-RENEWAL-TRANSFERS', 'CP-3-ACTIVE', 'CP-3-TERMINAL-STATUS'],
  start: ({ workDir }) => startBrokenOperator(workDir, OldBearerKeepsRightsOperator),
};
