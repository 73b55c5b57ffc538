import { type OperatorResponse, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Spec CP 4 status broken: a REDEEMED pack is reported ACTIVE. */
class StatusHidesRedeemedOperator extends ReferenceOperator {
  override async status(packId: string, authorization: string | undefined): Promise<OperatorResponse> {
    const response = await super.status(packId, authorization);
    const body = response.body as { pack_id: string; status: string };
    if (body.status !== 'REDEEMED') return response;
    return { status: 200, body: { ...body, status: 'ACTIVE' } }; // the fault
  }
}

/** The status endpoint answers ACTIVE for a redeemed pack. */
export const statusHidesRedeemed: BrokenImplementation = {
  id: 'operator-status-hides-redeemed',
  target: 'operator',
  fault: 'the status endpoint reports a REDEEMED pack as ACTIVE',
  expected: [
    'CP-3-ACTIVE',
    'CP-3-REDEEMED',
    'CP-3-TERMINAL-STATUS',
    'CP-4-REDEEM',
    'CP-7-INSTRUMENT-NOT-ACTIVE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, StatusHidesRedeemedOperator),
};
