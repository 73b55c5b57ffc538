import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { failureLevelOf } from '../../src/catalog/index.js';
import { packageRoot } from '../../src/paths.js';
import { BROKEN_RUNS, type BrokenImplementation, type BrokenTarget, type PermittedVariant } from './types.js';

/** What one run of a target suite produced, reduced to what the self-test compares. */
export interface FaultRun {
  id: string;
  target: BrokenTarget;
  exitCode: number | null;
  /** Requirement IDs whose verdict is failed, warning or error, sorted. */
  tripped: string[];
  /** Requirement IDs expected to trip, sorted. */
  expected: string[];
  /** The exit code the run (at `--level profile`) must end with: 1 when an expected ID is a MUST (SPEC or PROFILE), else 0 (warnings only). */
  expectedExitCode: number;
  /** Tests that did not pass or skip: `state title: message`, for diagnosis. */
  problems: string[];
  /** Checks whose failed MUST (SPEC or PROFILE) ended as a warning at level profile (must be empty). */
  mustWarnings: string[];
  stderr: string;
}

interface ResultsRequirement {
  id: string;
  verdict: string;
}
interface ResultsTest {
  state: string;
  title: string;
  message?: string;
  requirements?: string[];
  failure_level?: string;
}

const NON_PASSING = new Set(['failed', 'warning', 'error']);

/**
 * Runs `cprc run --target <target>` (the built CLI, `dist/`) against a system described by a run
 * config, with a fixed seed, and reduces the results to the tripped requirement IDs.
 */
export async function runSuiteAgainst(
  target: BrokenTarget,
  config: unknown,
  workDir: string,
  extraArgs: string[] = [],
): Promise<Omit<FaultRun, 'id' | 'expected' | 'expectedExitCode'>> {
  const configPath = join(workDir, 'config.json');
  const reportsDir = join(workDir, 'reports');
  await writeFile(configPath, JSON.stringify(config, null, 2));
  const args = [
    join(packageRoot(), 'bin', 'cprc.js'),
    'run',
    '--config',
    configPath,
    '--target',
    target,
    '--reports',
    reportsDir,
    '--seed',
    '1',
    '--level',
    'profile',
    // CPRC_SELFTEST_JOBS=N runs every self-test run with --jobs N: the checks side by side and the
    // runs of their properties overlapping, which must catch the same faults
    ...(process.env.CPRC_SELFTEST_JOBS ? ['--jobs', process.env.CPRC_SELFTEST_JOBS] : []),
    ...extraArgs,
  ];
  const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => {
      err += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (exitCode) => resolve({ code: exitCode, stderr: err }));
  });
  let results: { requirements?: ResultsRequirement[]; tests?: ResultsTest[] } = {};
  try {
    results = JSON.parse(await readFile(join(reportsDir, 'results.json'), 'utf8'));
  } catch {
    // no results.json: reported through `problems` below
  }
  const tripped = (results.requirements ?? [])
    .filter((r) => NON_PASSING.has(r.verdict))
    .map((r) => r.id)
    .sort();
  const problems = (results.tests ?? [])
    .filter((t) => NON_PASSING.has(t.state))
    .map((t) => `${t.state} ${t.title}: ${(t.message ?? '').split('\n')[0]}`);
  if (!results.tests) problems.push('no results.json was written');
  // a MUST must trip as a failure at the level its rule belongs to, never as a mere warning
  const mustWarnings = (results.tests ?? [])
    .filter((t) => t.state === 'warning' && (t.failure_level === 'spec' || t.failure_level === 'profile'))
    .map((t) => `a ${t.failure_level} MUST ended as a warning at level profile: ${t.title}`);
  return { target, exitCode: code, tripped, problems, mustWarnings, stderr };
}

/**
 * The exit code a run at `--level profile` tripping exactly `expected` must end with: 1 when one
 * of them is a MUST of either kind (a failure at the level its rule belongs to), 0 when all are
 * SHOULD/MAY (warnings do not fail a run).
 */
export function expectedExitCode(expected: readonly string[]): number {
  // the suite library's own grading of a failed check naming that one ID
  return expected.some((id) => failureLevelOf([id]) !== 'advisory') ? 1 : 0;
}

/** Starts one broken implementation, runs its target's suite against it and stops it. */
export async function runFault(fault: BrokenImplementation): Promise<FaultRun> {
  const workDir = await mkdtemp(join(tmpdir(), `cprc-fault-${fault.id}-`));
  // the folder goes whatever fails (start, run or close): it holds the implementation's keys
  try {
    const started = await fault.start({ workDir });
    try {
      const run = await runSuiteAgainst(fault.target, started.config, workDir, [
        '--runs',
        String(fault.runs ?? BROKEN_RUNS),
      ]);
      return {
        id: fault.id,
        expected: [...fault.expected].sort(),
        expectedExitCode: fault.exitCode ?? expectedExitCode(fault.expected),
        ...run,
      };
    } finally {
      await started.close();
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

/** What one run of a target suite against a permitted variant produced. */
export interface VariantRun {
  id: string;
  target: BrokenTarget;
  exitCode: number | null;
  /** Requirement IDs whose verdict is failed, warning or error (must be empty), sorted. */
  tripped: string[];
  /** Tests that did not pass or skip (must be empty). */
  problems: string[];
  /** Checks whose failed MUST ended as a warning (must be empty). */
  mustWarnings: string[];
  stderr: string;
}

/** Starts one permitted variant, runs its target's suite against it and stops it. */
export async function runVariant(variant: PermittedVariant): Promise<VariantRun> {
  const workDir = await mkdtemp(join(tmpdir(), `cprc-variant-${variant.id}-`));
  // the folder goes whatever fails (start, run or close): it holds the implementation's keys
  try {
    const started = await variant.start({ workDir });
    try {
      const run = await runSuiteAgainst(variant.target, started.config, workDir);
      return { id: variant.id, ...run };
    } finally {
      await started.close();
    }
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
