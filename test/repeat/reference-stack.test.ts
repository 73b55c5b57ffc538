import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ReferenceStack, startReferenceStack } from '../../src/loopback/stack.js';
import { problems, type RepeatRun, runOnce } from './runs.js';

// Issue 27: the whole suite, three times, against ONE reference stack started once (its payee's
// and Operator's test clocks moved forward by every run, its low-balance principal's funds spent
// and put back through POST {harness}/balance): the same state for every check, every time.
// Property checks run twice each (--runs 2): the runs' state is what is compared, not the properties.
describe('repeatable runs: the whole suite three times against one reference stack', () => {
  let dir: string;
  let stack: ReferenceStack;
  const runs: RepeatRun[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cprc-repeat-stack-'));
    stack = await startReferenceStack({ workDir: join(dir, 'stack') });
    for (const n of [1, 2, 3])
      runs.push(await runOnce(stack.configPath, join(dir, `run-${n}`), ['--runs', '2']));
  }, 600_000);

  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('every run passes (no failure, warning or error) and exits 0', () => {
    for (const [i, run] of runs.entries()) {
      expect(problems(run), `run ${i + 1}: ${run.stderr.slice(-2000)}`).toEqual([]);
      expect(run.exitCode, `run ${i + 1}`).toBe(0);
      expect(run.tests.length, `run ${i + 1}`).toBeGreaterThan(300);
    }
  });

  it('every run gives every check the state the first run gave it', () => {
    const first = runs[0] as RepeatRun;
    for (const run of runs.slice(1)) expect(run.states).toEqual(first.states);
  });

  it('the money checks run every time, and say that what they spent was put back', () => {
    for (const [i, run] of runs.entries()) {
      const byId = new Map(run.tests.map((t) => [t.id, t]));
      for (const id of [
        'operator/funds-issued-pack-locked-once-whole-balance',
        'operator/expired-pack-returns-funds-principal-whole-balance',
        'operator/issue-of-exactly-available-balance-succeeds',
        'operator/harness-balance-sets-available-only',
      ])
        expect(byId.get(id)?.state, `run ${i + 1}: ${id}`).toBe('passed');
      for (const id of [
        'operator/redeemed-funds-never-return-to-principal',
        'operator/cancelled-funds-held-not-returned',
      ]) {
        expect(byId.get(id)?.state, `run ${i + 1}: ${id}`).toBe('passed');
        expect(byId.get(id)?.message, `run ${i + 1}: ${id}`).toMatch(
          /put back through POST \{harness\}\/balance/,
        );
      }
    }
  });
});
