import { ReferenceOperator } from '../../../src/reference/operator/index.js';
import { startBrokenOperator } from '../../broken/operator/_start.js';
import type { PermittedVariant } from '../../broken/types.js';

/** A harness without the optional test clock, with the reference policy (min_expiry_seconds 60). */
export const noClock: PermittedVariant = {
  id: 'operator-variant-no-clock',
  target: 'operator',
  choice:
    'the harness offers no test clock and real expiry is 60 s away: the real-expiry check is skipped naming the wait',
  clause:
    'profile 2: "Optional test clock ... Without it a suite waits for real expiry when the wait is short, and otherwise reports the check skipped"',
  start: ({ workDir }) => startBrokenOperator(workDir, ReferenceOperator, { testClock: false }),
};

/** A harness without the test clock and a short policy minimum: the real-expiry check waits. */
export const noClockShortExpiry: PermittedVariant = {
  id: 'operator-variant-no-clock-short-expiry',
  target: 'operator',
  choice:
    'the harness offers no test clock and min_expiry_seconds is 4: the real-expiry check waits for real expiry',
  clause:
    'profile 2: "Optional test clock ... Without it a suite waits for real expiry when the wait is short"',
  start: ({ workDir }) =>
    startBrokenOperator(workDir, ReferenceOperator, { testClock: false, policy: { min_expiry_seconds: 4 } }),
};
