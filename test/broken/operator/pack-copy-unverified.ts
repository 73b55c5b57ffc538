import { type CashPack, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** AMB-33 broken: the Operator's own signature on the submitted cash-pack is not verified. */
class PackCopyUnverifiedOperator extends ReferenceOperator {
  protected override verifyPackCopy(copy: Record<string, unknown>): CashPack {
    return copy as unknown as CashPack; // the fault: no verification
  }
}

/** A cash-pack copy altered after the Operator signed it is accepted on renew and redeem. */
export const packCopyUnverified: BrokenImplementation = {
  id: 'operator-pack-copy-unverified',
  target: 'operator',
  fault: 'the Operator signature on the submitted cash-pack is not verified on renew and redeem',
  expected: [
    'CP-5-INVALID-SIGNATURE',
    'CP-5-MESSAGES-SIGNED',
    'CP-7-INVALID-SIGNATURE',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
    'PRF-4-SIGNATURE-MISSING-401', // a copy without its signature member is taken
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, PackCopyUnverifiedOperator),
};
