import { describe, expect, it } from 'vitest';
import { staleWarnings, unexpectedWarnings } from './expected.js';
import {
  FOREIGN_TARGETS,
  type ForeignFault,
  judgeFault,
  loadForeignFaults,
  runForeign,
  type SuiteRun,
} from './run.js';
import { CI_SLICE } from './slice.js';

// The foreign stack (test/foreign/, written clean-room from the specifications and the profile) is
// the suite's independent referee (docs/foreign.md). In CI: its clean run, and a slice of its
// faults that must stay detected; `npm run foreign` runs every fault.
describe('the suite against the foreign stack', () => {
  let clean: SuiteRun | undefined;
  const cleanRun = async (): Promise<SuiteRun> => {
    clean ??= await runForeign({ targets: FOREIGN_TARGETS, seed: 1, runs: 25 });
    return clean;
  };

  it('lists at least 60 faults, at least 15 per target, each with its class and the rule it breaks', async () => {
    const faults = await loadForeignFaults();
    expect(faults.length).toBeGreaterThanOrEqual(60);
    for (const t of FOREIGN_TARGETS)
      expect(faults.filter((f) => f.target === t).length).toBeGreaterThanOrEqual(15);
  });

  it('passes the clean foreign stack at level profile: no failure, no error, only the named warnings', async () => {
    const run = await cleanRun();
    expect(run.problem, run.stderr).toBeUndefined();
    const notPassing = run.checks
      .filter((c) => c.state === 'failed' || c.state === 'error')
      .map((c) => `${c.state} ${c.id}: ${c.message}`);
    expect(notPassing).toEqual([]);
    expect(unexpectedWarnings(run.checks)).toEqual([]);
    expect(staleWarnings(run.checks)).toEqual([]);
    // every target ran, and most checks ran rather than skipped
    for (const t of FOREIGN_TARGETS)
      expect(
        run.checks.filter((c) => c.id.startsWith(`${t}/`) && c.state === 'passed').length,
      ).toBeGreaterThan(20);
    expect(run.exitCode).toBe(0);
  }, 300_000);

  it.each(CI_SLICE)(
    'detects the foreign fault %s',
    async (id) => {
      const faults = await loadForeignFaults();
      const fault = faults.find((f) => f.id === id) as ForeignFault;
      expect(fault, `${id} is no longer in test/foreign/faults.mjs`).toBeDefined();
      const run = await cleanRun();
      const verdict = await judgeFault(fault, run.checks, { seed: 1, runs: 25 });
      expect(verdict.problem).toBeUndefined();
      expect(verdict.detection, JSON.stringify(verdict.tripped)).toBe('detected');
    },
    300_000,
  );
});
