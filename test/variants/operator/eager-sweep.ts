import {
  type OperatorDeps,
  type OperatorResponse,
  ReferenceOperator,
} from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/**
 * Sweeps every pack past its expires_at to EXPIRED (funds returned) in the background, every
 * 50 ms and at every advance of the test clock, besides settling on access like the reference.
 */
class EagerSweepOperator extends ReferenceOperator {
  private readonly timer: NodeJS.Timeout;

  constructor(deps: OperatorDeps) {
    super(deps);
    this.timer = setInterval(() => void this.sweep(), 50);
    this.timer.unref();
  }

  private async sweep(): Promise<void> {
    const now = this.now();
    await this.store.commit({
      check: () => {},
      apply: (state) => {
        for (const record of state.packs.values()) this.expireIfDue(state, record, now);
      },
    });
  }

  override async advanceClock(body: unknown): Promise<OperatorResponse> {
    const answer = await super.advanceClock(body);
    await this.sweep();
    return answer;
  }

  override dispose(): void {
    clearInterval(this.timer);
  }
}

/** Expired packs are swept eagerly (the reference settles them lazily, on access). */
export const eagerSweep: PermittedVariant = {
  id: 'operator-variant-eager-sweep',
  target: 'operator',
  choice: 'expired packs are swept to EXPIRED in the background, not only when accessed',
  clause:
    'profile 4: "A pack is EXPIRED from the instant its expires_at passes, on any access, whether or not a sweep has run"',
  start: ({ workDir }) => startBrokenOperator(workDir, EagerSweepOperator),
};
