/**
 * Runs of the built CLI against one long-lived target (issue 27: any number of runs against one
 * system give the same verdicts): each run gets its own reports folder; the state of every check
 * is read back from its results.json.
 */
import { spawn } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';

/** One check of a run as results.json records it. */
export interface RunTest {
  id: string;
  state: string;
  message?: string;
  skip_reason?: string;
}

/** What one run produced. */
export interface RepeatRun {
  exitCode: number | null;
  stderr: string;
  tests: RunTest[];
  /** check id -> state. */
  states: Record<string, string>;
}

/**
 * Runs `cprc run` (dist/, as `npm test` builds it) with `config` against the running target,
 * `--seed 1 --level profile` and the given extra arguments, its reports in `reportsDir`.
 */
export async function runOnce(config: string, reportsDir: string, extraArgs: string[]): Promise<RepeatRun> {
  const args = [
    join(packageRoot(), 'bin', 'cprc.js'),
    'run',
    '--config',
    config,
    '--reports',
    reportsDir,
    '--seed',
    '1',
    '--level',
    'profile',
    ...extraArgs,
  ];
  const { exitCode, stderr } = await new Promise<{ exitCode: number | null; stderr: string }>(
    (resolve, reject) => {
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => {
        err += c.toString('utf8');
      });
      child.on('error', reject);
      child.on('close', (code) => resolve({ exitCode: code, stderr: err }));
    },
  );
  let tests: RunTest[] = [];
  try {
    tests = (JSON.parse(await readFile(join(reportsDir, 'results.json'), 'utf8')) as { tests: RunTest[] })
      .tests;
  } catch {
    // no results.json: the empty list fails the comparisons, with stderr in their message
  }
  return { exitCode, stderr, tests, states: Object.fromEntries(tests.map((t) => [t.id, t.state])) };
}

/** Writes a run config (it holds the target's secrets) into `dir` and returns its path. */
export async function writeConfig(dir: string, config: unknown): Promise<string> {
  const path = join(dir, 'config.json');
  await writeFile(path, JSON.stringify(config, null, 2), { mode: 0o600 });
  return path;
}

/** The checks of a run that did not pass or skip, one line each (for failure messages). */
export function problems(run: RepeatRun): string[] {
  return run.tests
    .filter((t) => t.state !== 'passed' && t.state !== 'skipped')
    .map((t) => `${t.state} ${t.id}: ${(t.message ?? '').split('\n')[0]}`);
}
