/**
 * The foreign stack as this project's referee (issue 26): a payee, wallet and Operator written
 * in test/foreign/ by an author who read only the two specifications and the profile, with its own
 * list of switchable faults. This module starts it (as a separate process, like any system under
 * test), runs `cprc run` against it and compares a faulty run with the clean one.
 *
 * The foreign stack's interface (test/foreign/README.md): `node test/foreign/stack.mjs --dir D
 * [--fault ID] [--targets payee,wallet]` writes `D/config.json` (profile section 5), prints its
 * path and serves until SIGTERM; `test/foreign/faults.mjs` exports `FAULTS`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../../src/paths.js';
import { inconclusiveRace } from './expected.js';

/** A target of the suite. */
export type ForeignTarget = 'payee' | 'wallet' | 'operator';
export const FOREIGN_TARGETS: readonly ForeignTarget[] = ['payee', 'wallet', 'operator'];

/** One fault of the foreign stack's own list (test/foreign/faults.mjs). */
export interface ForeignFault {
  id: string;
  target: ForeignTarget;
  class: string;
  summary: string;
  /** The spec or profile sentence the fault breaks, as its author cited it. */
  breaks: string;
}

/** One check of a run, as results.json records it. */
export interface CheckState {
  id: string;
  state: 'passed' | 'failed' | 'warning' | 'skipped' | 'error' | string;
  requirements: string[];
  message: string;
}

/** What one `cprc run` against the foreign stack produced. */
export interface SuiteRun {
  exitCode: number | null;
  checks: CheckState[];
  /** Set when no results.json could be read: why. */
  problem?: string;
  stderr: string;
  ms: number;
}

/** How a faulty run compares with the clean one. */
export type Detection = 'detected' | 'warned' | 'missed' | 'no-verdict';

export interface FaultVerdict {
  fault: ForeignFault;
  detection: Detection;
  /** Checks whose state differs from the clean run's (failed, error or warning where it passed). */
  tripped: Array<{ id: string; state: string; requirements: string[]; message: string }>;
  /** Why there is no verdict (the stack did not start, the run wrote no results). */
  problem?: string;
  ms: number;
}

const root = packageRoot();
export const FOREIGN_DIR = join(root, 'test', 'foreign');
const STACK = join(FOREIGN_DIR, 'stack.mjs');
const FAULTS = join(FOREIGN_DIR, 'faults.mjs');

/** Whether the foreign stack is in this checkout (it is part of the repository). */
export function foreignStackPresent(): boolean {
  return existsSync(STACK) && existsSync(FAULTS);
}

/** Reads and checks the foreign stack's fault list. */
export async function loadForeignFaults(): Promise<ForeignFault[]> {
  const mod = (await import(pathToFileURL(FAULTS).href)) as { FAULTS?: unknown };
  if (!Array.isArray(mod.FAULTS)) throw new Error(`${FAULTS} exports no FAULTS array`);
  const seen = new Set<string>();
  return mod.FAULTS.map((f: unknown, i: number) => {
    const o = f as Record<string, unknown>;
    for (const key of ['id', 'target', 'class', 'summary', 'breaks'])
      if (typeof o?.[key] !== 'string' || !o[key])
        throw new Error(`${FAULTS}: FAULTS[${i}] has no string "${key}"`);
    if (!FOREIGN_TARGETS.includes(o.target as ForeignTarget))
      throw new Error(`${FAULTS}: FAULTS[${i}] (${o.id}) names an unknown target "${o.target}"`);
    if (seen.has(o.id as string)) throw new Error(`${FAULTS}: fault id "${o.id}" is listed twice`);
    seen.add(o.id as string);
    return {
      id: o.id,
      target: o.target,
      class: o.class,
      summary: o.summary,
      breaks: o.breaks,
    } as ForeignFault;
  });
}

/** A started foreign stack. */
export interface StartedForeign {
  configPath: string;
  stop(): Promise<void>;
}

const START_MS = 30_000;
const STOP_MS = 5_000;

function exited(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
}

/**
 * Starts the foreign stack in a child process (`dir` must be an empty folder) with at most one
 * fault, and resolves once it has printed the path of its run configuration.
 */
export async function startForeign(opts: {
  dir: string;
  fault?: string | null;
  targets?: readonly ForeignTarget[];
}): Promise<StartedForeign> {
  const args = [STACK, '--dir', opts.dir];
  if (opts.fault) args.push('--fault', opts.fault);
  if (opts.targets) args.push('--targets', opts.targets.join(','));
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr?.on('data', (c: Buffer) => {
    err = (err + c.toString('utf8')).slice(-20_000);
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_MS);
    await exited(child);
    clearTimeout(timer);
  };
  const expected = join(opts.dir, 'config.json');
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the foreign stack printed no config path within ${START_MS} ms\n${err}`)),
        START_MS,
      );
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString('utf8');
        if (out.includes(expected) || out.split('\n').some((l) => l.trim().endsWith('config.json'))) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        reject(new Error(`the foreign stack exited (${code ?? signal}) before it was ready\n${err}`));
      });
      child.once('error', (e) => {
        clearTimeout(timer);
        reject(e);
      });
    });
  } catch (e) {
    await stop();
    throw e;
  }
  child.stdout?.resume();
  return { configPath: expected, stop };
}

/** Runs `cprc run` (the built CLI) against a configuration and reads its results.json. */
export async function runSuite(
  configPath: string,
  opts: {
    targets: readonly ForeignTarget[];
    reportsDir: string;
    seed: number;
    runs?: number;
    args?: string[];
  },
): Promise<SuiteRun> {
  const args = [
    join(root, 'bin', 'cprc.js'),
    'run',
    '--config',
    configPath,
    '--target',
    ...opts.targets,
    '--reports',
    opts.reportsDir,
    '--seed',
    String(opts.seed),
    '--level',
    'profile',
    ...(opts.runs ? ['--runs', String(opts.runs)] : []),
    ...(opts.args ?? []),
  ];
  const started = Date.now();
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let e = '';
    child.stderr.on('data', (c: Buffer) => {
      e = (e + c.toString('utf8')).slice(-20_000);
    });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ code: exitCode, stderr: e }));
  });
  const ms = Date.now() - started;
  try {
    const results = JSON.parse(await readFile(join(opts.reportsDir, 'results.json'), 'utf8')) as {
      tests?: Array<{ id: string; state: string; requirements?: string[]; message?: string }>;
    };
    const checks = (results.tests ?? []).map((t) => ({
      id: t.id,
      state: t.state,
      requirements: t.requirements ?? [],
      message: (t.message ?? '').split('\n')[0] ?? '',
    }));
    return { exitCode: code, checks, stderr, ms };
  } catch (e) {
    return {
      exitCode: code,
      checks: [],
      problem: `no readable results.json (exit ${code}): ${(e as Error).message}\n${stderr.trim()}`,
      stderr,
      ms,
    };
  }
}

const RANK: Record<string, number> = { passed: 0, skipped: 0, warning: 1, failed: 2, error: 2 };

/**
 * Compares a faulty run with the clean run of the same targets: `detected` when a check failed or
 * errored that did not in the clean run (the run fails at level profile), `warned` when only new
 * warnings appeared, `missed` when no check did worse. An inconclusive race (the machine was too
 * loaded to make it tight) is no verdict on the target and counts as passed.
 */
export function compareRuns(
  clean: readonly CheckState[],
  faulty: readonly CheckState[],
): { detection: Exclude<Detection, 'no-verdict'>; tripped: FaultVerdict['tripped'] } {
  const before = new Map(clean.map((c) => [c.id, c.state]));
  const tripped = faulty
    .filter((c) => !inconclusiveRace(c))
    .filter((c) => (RANK[c.state] ?? 2) > (RANK[before.get(c.id) ?? 'passed'] ?? 0))
    .map((c) => ({ id: c.id, state: c.state, requirements: c.requirements, message: c.message }));
  const detection = tripped.some((t) => t.state === 'failed' || t.state === 'error')
    ? 'detected'
    : tripped.length > 0
      ? 'warned'
      : 'missed';
  return { detection, tripped };
}

/** Makes a temporary folder `cprc-<label>-*`, gives it to `work` and removes it afterwards. */
export async function inTempDir<T>(label: string, work: (dir: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), `cprc-${label}-`));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Starts the foreign stack (clean or with one fault) for some targets and runs their suites. */
export async function runForeign(opts: {
  fault?: string | null;
  targets: readonly ForeignTarget[];
  seed: number;
  runs?: number;
  args?: string[];
}): Promise<SuiteRun> {
  return inTempDir(`foreign-${opts.fault ?? 'clean'}`, async (dir) => {
    const stackDir = join(dir, 'stack');
    const reportsDir = join(dir, 'reports');
    await import('node:fs/promises').then((fs) => fs.mkdir(stackDir));
    const started = Date.now();
    let stack: StartedForeign;
    try {
      stack = await startForeign({ dir: stackDir, fault: opts.fault ?? null, targets: opts.targets });
    } catch (e) {
      return {
        exitCode: null,
        checks: [],
        problem: (e as Error).message,
        stderr: '',
        ms: Date.now() - started,
      };
    }
    try {
      const run = await runSuite(stack.configPath, { ...opts, reportsDir });
      return { ...run, ms: Date.now() - started };
    } finally {
      await stack.stop();
    }
  });
}

/** Runs the suite of the fault's target against the foreign stack with that fault on. */
export async function judgeFault(
  fault: ForeignFault,
  clean: readonly CheckState[],
  opts: { seed: number; runs?: number; args?: string[] },
): Promise<FaultVerdict> {
  const run = await runForeign({ fault: fault.id, targets: [fault.target], ...opts });
  if (run.problem || run.checks.length === 0)
    return {
      fault,
      detection: 'no-verdict',
      tripped: [],
      problem: run.problem ?? 'the run recorded no check',
      ms: run.ms,
    };
  const { detection, tripped } = compareRuns(
    clean.filter((c) => c.id.startsWith(`${fault.target}/`)),
    run.checks,
  );
  return { fault, detection, tripped, ms: run.ms };
}
