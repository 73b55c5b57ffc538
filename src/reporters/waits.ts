import type { TestResult } from '../model/results.js';

/**
 * What the reports say of real waits (issue: time you can see): the longest time one check slept
 * for an instant to pass on a target without a test clock (`waited_ms` of its result), or that no
 * check slept. With the reference stack's test clocks, no check sleeps.
 * @example
 * ```ts
 * waitSummary(doc.tests); // 'longest real wait of a check: 3.2 s (operator/real-expiry-by-waiting)'
 * ```
 */
export function waitSummary(tests: readonly Pick<TestResult, 'id' | 'waited_ms'>[]): string {
  let longest: { id: string; ms: number } | undefined;
  for (const t of tests) {
    if (t.waited_ms !== undefined && t.waited_ms > 0 && (!longest || t.waited_ms > longest.ms)) {
      longest = { id: t.id, ms: t.waited_ms };
    }
  }
  return longest
    ? `longest real wait of a check: ${(longest.ms / 1000).toFixed(1)} s (${longest.id})`
    : 'no check slept waiting for time to pass (expiry went through test clocks, or needed no wait)';
}
