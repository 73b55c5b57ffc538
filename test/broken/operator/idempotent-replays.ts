import {
  type CashPack,
  type OperatorResponse,
  type RedemptionConfirmation,
  type RedemptionRequest,
  ReferenceOperator,
  type RenewalEntry,
} from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Spec CP 2, 3, 8 broken: an exact replay of a successful renewal or redemption is treated as an
 * idempotent retry and answered 200 again.
 */
class IdempotentReplaysOperator extends ReferenceOperator {
  private readonly done = new Map<string, OperatorResponse>();

  private replayOf(
    body: unknown,
    member: 'renewal_entry' | 'redemption_request',
  ): OperatorResponse | undefined {
    const message = (body as Record<string, unknown> | null)?.[member] as { signature?: unknown } | undefined;
    return typeof message?.signature === 'string' ? this.done.get(message.signature) : undefined;
  }

  override async renew(body: unknown): Promise<OperatorResponse> {
    const replay = this.replayOf(body, 'renewal_entry');
    if (replay !== undefined) return replay; // the fault: a replay succeeds again
    const answer = await super.renew(body);
    const entry = (body as { renewal_entry: RenewalEntry }).renewal_entry;
    this.done.set(entry.signature, { status: 200, body: answer.body as CashPack });
    return answer;
  }

  override async redeem(body: unknown): Promise<OperatorResponse> {
    const replay = this.replayOf(body, 'redemption_request');
    if (replay !== undefined) return replay; // the fault: a replay succeeds again
    const answer = await super.redeem(body);
    const request = (body as { redemption_request: RedemptionRequest }).redemption_request;
    this.done.set(request.signature, { status: 200, body: answer.body as RedemptionConfirmation });
    return answer;
  }
}

/** Exact replays of successful renewals and redemptions are answered 200 again. */
export const idempotentReplays: BrokenImplementation = {
  id: 'operator-idempotent-replays',
  target: 'operator',
  fault: 'an exact replay of a successful renewal or redemption is answered 200 again (idempotent retry)',
  expected: [
    'CP-2-RENEWAL-ID-REPLAY',
    'CP-3-REDEEMED',
    'CP-3-TERMINAL-STATUS',
    'CP-8-ID-SINGLE-USE',
    'PRF-1-ERROR-BODY',
    'PRF-1-ERROR-STATUS',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, IdempotentReplaysOperator),
};
