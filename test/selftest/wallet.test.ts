import { describe, expect, it } from 'vitest';
import { faultsByTarget } from '../broken/all.js';
import { runFault } from '../broken/run-fault.js';

// Self-test of the wallet suite: every deliberately broken wallet makes the run fail on exactly the
// requirement IDs named for its fault, and on no others. Runs the built CLI (npm test builds first).
describe('self-test: wallet suite against deliberately broken implementations', () => {
  it('has broken implementations to prove its checks', () => {
    expect(faultsByTarget.wallet.length).toBeGreaterThan(0);
  });

  for (const fault of faultsByTarget.wallet) {
    it(`${fault.id}: ${fault.fault}`, async () => {
      const run = await runFault(fault);
      const detail = [`exit ${run.exitCode}`, ...run.problems, run.stderr.trim()].filter(Boolean).join('\n');
      expect(run.tripped, detail).toEqual(run.expected);
      expect(run.exitCode, detail).toBe(run.expectedExitCode);
    }, 180_000);
  }
});
