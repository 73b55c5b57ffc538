import {
  type PackRecord,
  type RedemptionRequest,
  ReferenceOperator,
  type StoreState,
} from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/** Tests the pack's status before the redemption_id: an exact replay answers INSTRUMENT_NOT_ACTIVE. */
class ReplayNotActiveFirstOperator extends ReferenceOperator {
  protected override redemptionChecks(
    state: StoreState,
    pack: PackRecord,
    request: RedemptionRequest,
    now: number,
  ): void {
    this.checkActive(pack, now);
    this.checkDuplicateId(state, 'redemption_id', request.redemption_id);
    this.checkChainDigest(pack, request.prev_chain_digest);
    this.verifyBearer(pack, request.bearer_pk);
  }
}

/** An exact replay of a successful redemption answers INSTRUMENT_NOT_ACTIVE instead of DUPLICATE_ID. */
export const replayNotActiveFirst: PermittedVariant = {
  id: 'operator-variant-replay-not-active-first',
  target: 'operator',
  choice:
    'an exact replay of a successful redemption answers INSTRUMENT_NOT_ACTIVE (the status is tested before the redemption_id)',
  clause:
    'profile 4: "an exact replay of a successful redemption is both a seen redemption_id and a pack no longer ACTIVE ... either code is correct"',
  start: ({ workDir }) => startBrokenOperator(workDir, ReplayNotActiveFirstOperator),
};
