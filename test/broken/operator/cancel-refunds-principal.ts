import { type PackRecord, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 4 money broken: a cancellation returns the funds to the Principal like an expiry. */
class CancelRefundsPrincipalOperator extends ReferenceOperator {
  protected override async commitTerminal(packId: string, to: 'EXPIRED' | 'CANCELLED'): Promise<PackRecord> {
    const record = await super.commitTerminal(packId, to);
    if (to === 'CANCELLED') {
      await this.store.commit({
        check: () => {},
        apply: (state) => this.moveFunds(state, record, 'locked', 'available'), // the fault
      });
    }
    return record;
  }
}

/** Cancelled funds go back to the Principal. */
export const cancelRefundsPrincipal: BrokenImplementation = {
  id: 'operator-cancel-refunds-principal',
  target: 'operator',
  fault: "a cancellation puts the pack's funds back into the Principal's available balance",
  expected: ['CP-3-CANCELLED', 'PRF-4-MONEY-FLOWS'],
  start: ({ workDir }) => startBrokenOperator(workDir, CancelRefundsPrincipalOperator),
};
