/**
 * `cprc run --last-failed` and `cprc replay` on real runs of the operator suite: against a broken
 * Operator (the status endpoint answers anyone) a run fails some checks; `--last-failed` re-runs
 * exactly those, with the recorded seed; `replay` of one of them reproduces the failure against
 * the broken Operator (exit 1) and passes against the reference stack (exit 0).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResults } from '../../src/model/results.js';
import { statusOpen } from '../broken/operator/status-open.js';
import type { StartedBroken } from '../broken/types.js';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'cprc.js');
let dir: string;
let broken: StartedBroken | undefined;
let configPath: string;
let first: ConformanceResults;
let failing: string[];

function cprc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function results(folder: string): ConformanceResults {
  return JSON.parse(readFileSync(join(dir, folder, 'results.json'), 'utf8')) as ConformanceResults;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-replay-'));
  broken = await statusOpen.start({ workDir: dir });
  configPath = join(dir, 'config.json');
  writeFileSync(configPath, JSON.stringify(broken.config, null, 2));
  const r = await cprc([
    'run',
    '--config',
    configPath,
    '--target',
    'operator',
    '--seed',
    '3',
    '--runs',
    '10',
    '--reports',
    'first',
  ]);
  expect(r.code, r.stderr).toBe(1);
  first = results('first');
  failing = first.tests.filter((t) => t.state === 'failed' || t.state === 'error').map((t) => t.id);
}, 300_000);
afterAll(async () => {
  await broken?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('cprc run --last-failed', () => {
  it('re-runs exactly the checks that failed or errored, with the recorded seed, and they fail again', async () => {
    expect(failing.length).toBeGreaterThan(0);
    expect(failing.length).toBeLessThan(first.tests.length);
    const r = await cprc([
      'run',
      '--config',
      configPath,
      '--last-failed',
      'first/results.json',
      '--reports',
      'again',
    ]);
    expect(r.code, r.stderr).toBe(1);
    const again = results('again');
    expect(again.tests.map((t) => t.id).sort()).toEqual([...failing].sort());
    expect(again.tests.every((t) => t.state === 'failed')).toBe(true);
    expect(again.seed).toBe(3);
    expect(again.runs).toBe(10);
    expect(again.selection).toEqual({ source: 'last-failed first/results.json', checks: failing });
    expect(readFileSync(join(dir, 'again', 'summary.md'), 'utf8')).toContain(
      `Only ${failing.length} selected checks ran (last-failed first/results.json)`,
    );
  }, 120_000);

  it('runs nothing and exits 0 when nothing failed', async () => {
    const clean = structuredClone(first);
    clean.tests = clean.tests.filter((t) => !failing.includes(t.id));
    writeFileSync(join(dir, 'clean.json'), JSON.stringify(clean));
    const r = await cprc(['run', '--config', configPath, '--last-failed', 'clean.json', '--reports', 'none']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/no check failed or errored/);
  });
});

describe('cprc replay', () => {
  it('reproduces a failure against the broken Operator (exit 1) and passes against the reference (exit 0)', async () => {
    const id = failing[0] as string;
    const still = await cprc([
      'replay',
      'first/results.json',
      id,
      '--config',
      configPath,
      '--reports',
      'replay-broken',
    ]);
    expect(still.code, still.stderr).toBe(1);
    expect(still.stdout).toMatch(/the failure still occurs: failed/);
    const replayed = results('replay-broken');
    expect(replayed.tests.map((t) => [t.id, t.state])).toEqual([[id, 'failed']]);
    expect(replayed.seed).toBe(3);
    expect(replayed.selection?.checks).toEqual([id]);

    const fixed = await cprc([
      'replay',
      'first/results.json',
      id,
      '--reference',
      '--reports',
      'replay-reference',
    ]);
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toMatch(/passes now \(it was failed\)/);
    expect(results('replay-reference').tests.map((t) => [t.id, t.state])).toEqual([[id, 'passed']]);
  }, 120_000);

  it('names the failing checks when the id is not in the results, and needs a target', async () => {
    const r = await cprc(['replay', 'first/results.json', 'operator/no-such-check', '--config', configPath]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('has no check "operator/no-such-check"');
    expect(r.stderr).toContain(failing[0] as string);
    const none = await cprc(['replay', 'first/results.json', failing[0] as string]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/give --config FILE/);
  });
});
