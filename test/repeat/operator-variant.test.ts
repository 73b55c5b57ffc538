import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLoopbackPki, writeCaFile } from '../../src/loopback/tls.js';
import { type RunningOperator, startReferenceOperator } from '../../src/reference/operator/index.js';
import { problems, type RepeatRun, runOnce, writeConfig } from './runs.js';

/** The low-balance principal's account in the policy's first asset, as digit strings. */
function lowAccount(op: RunningOperator): { available: string; locked: string; redeemedOut: string } {
  const accounts = op.ledger().accounts[op.identities.principals.low_balance.principal_id] ?? {};
  return Object.values(accounts)[0] as { available: string; locked: string; redeemedOut: string };
}

// Issue 27: the permitted variant whose state is most at risk, an Operator whose harness has no
// POST {harness}/balance (profile 4: optional), started once and run three times. Before, the
// second run failed it: the first run's redemption and cancellation took 2 units of the
// low-balance principal for good, and the suite still counted on the configured 5000 (two checks
// failed with INSUFFICIENT_BALANCE, three skipped). Now the suite measures the balance at the
// start of each run and spends exactly 2 units a run, which each run's report states.
describe('repeatable runs: the Operator suite three times against one Operator without the balance harness', () => {
  let dir: string;
  let op: RunningOperator;
  const runs: RepeatRun[] = [];
  const after: { available: string; locked: string; redeemedOut: string }[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cprc-repeat-operator-'));
    const { ca, server } = await createLoopbackPki();
    const caFile = join(dir, 'ca.pem');
    await writeCaFile(caFile, ca);
    op = await startReferenceOperator({ tls: server, balanceHarness: false });
    const config = await writeConfig(dir, {
      tls: { ca_file: caFile },
      timeouts: { request_ms: 10_000 },
      operator: { base_url: op.baseUrl, harness_url: op.harnessUrl, ...structuredClone(op.identities) },
    });
    for (const n of [1, 2, 3]) {
      runs.push(await runOnce(config, join(dir, `run-${n}`), ['--target', 'operator', '--runs', '2']));
      after.push(lowAccount(op));
    }
  }, 600_000);

  afterAll(async () => {
    await op?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('every run passes and exits 0, with the same state for every check', () => {
    for (const [i, run] of runs.entries()) {
      expect(problems(run), `run ${i + 1}: ${run.stderr.slice(-2000)}`).toEqual([]);
      expect(run.exitCode, `run ${i + 1}`).toBe(0);
    }
    const first = runs[0] as RepeatRun;
    expect(Object.keys(first.states).length).toBeGreaterThan(90);
    for (const run of runs.slice(1)) expect(run.states).toEqual(first.states);
  });

  it('the checks that failed the second run before pass every run, from the balance measured that run', () => {
    for (const [i, run] of runs.entries()) {
      const byId = new Map(run.tests.map((t) => [t.id, t]));
      const whole = byId.get('operator/funds-issued-pack-locked-once-whole-balance');
      expect(whole?.state, `run ${i + 1}`).toBe('passed');
      // the balance each run measured: 5000 less the 2 units each earlier run spent
      expect(whole?.message, `run ${i + 1}`).toContain(`measured at ${5000 - 2 * i} at the start of the run`);
      expect(
        byId.get('operator/expired-pack-returns-funds-principal-whole-balance')?.state,
        `run ${i + 1}`,
      ).toBe('passed');
      for (const id of [
        'operator/redeemed-funds-never-return-to-principal',
        'operator/cancelled-funds-held-not-returned',
      ])
        expect(byId.get(id)?.message, `run ${i + 1}: ${id}`).toMatch(
          /1 unit of principal-low-balance spent for good/,
        );
      // the balance capability is absent: its checks are skipped, never failed
      expect(byId.get('operator/harness-balance-sets-available-only')?.skip_reason, `run ${i + 1}`).toMatch(
        /no balance capability \(POST \{harness\}\/balance answered HTTP 404\)/,
      );
    }
  });

  it('each run takes exactly the 2 units its report states, and leaves no other funds locked', () => {
    expect(after).toEqual(
      [1, 2, 3].map((k) => ({ available: String(5000 - 2 * k), locked: String(k), redeemedOut: String(k) })),
    );
  });
});
