import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CprcError } from '../errors.js';
import { terminalLine } from '../reporters/safe-text.js';
import { waitSummary } from '../reporters/waits.js';
import {
  DEFAULT_JOBS,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RUNS,
  DEFAULT_TEST_TIMEOUT_MS,
} from '../runner/defaults.js';
import { loadSigningKey, signResults } from './bundle.js';

/** Options of `cprc run` as commander parses them. */
interface RunCliOptions {
  config?: string;
  target?: string[];
  reports: string;
  grep?: string;
  seed?: number;
  runs: number;
  timeout?: number;
  maxWait?: number;
  list?: boolean;
  bail?: boolean;
  driver?: string;
  reference?: boolean;
  maxDuration: number;
  suites?: string;
  sign?: string;
  level?: 'spec' | 'profile';
  failOnSkip?: boolean;
  baseline?: string;
  shard?: { index: number; total: number };
  shardTimings?: string;
  lastFailed?: string;
  jobs?: number | true;
}

function shardArg(value: string): { index: number; total: number } {
  const m = /^(\d{1,4})\/(\d{1,4})$/.exec(value.trim());
  const index = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || total < 1 || total > 1000 || index < 1 || index > total) {
    throw new InvalidArgumentError('must be INDEX/TOTAL with 1 <= INDEX <= TOTAL <= 1000, e.g. 2/4');
  }
  return { index, total };
}

function integer(name: string, min: number, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new InvalidArgumentError(`${name} must be an integer from ${min} to ${max}`);
    }
    return Number(value);
  };
}

/**
 * Registers `cprc run`: runs the conformance suites against the targets of a run configuration
 * (or against the reference stack with `--reference`) and writes junit.xml, results.json,
 * summary.md and report.html. Two verdicts are reported (SPEC and PROFILE conformance); the exit
 * status follows the level asked (`--level`, default `profile` with the built-in drivers, `spec`
 * with `--driver`): 0 when it passes, 1 when a check failed at that level or errored (or the run
 * was interrupted, a baseline entry is stale, or `--fail-on-skip` and a check was skipped), 2 for
 * a configuration/usage error or an unreachable target.
 * @example
 * ```sh
 * cprc run --config run.json --target payee --seed 42 --reports reports/
 * ```
 */
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run the conformance suites against the targets of a run configuration')
    .option('--config <file>', 'run configuration (JSON, profile section 5)')
    .option(
      '--target <target...>',
      'targets to test: payee, wallet, operator (default: every configured one)',
    )
    .option('--reports <dir>', 'reports folder', 'reports')
    .option('--grep <text>', 'run only the checks whose title contains this requirement ID or text')
    .option(
      '--seed <n>',
      'seed of the property checks (default: random, printed)',
      integer('--seed', 1, 2 ** 31 - 1),
    )
    .option('--runs <n>', 'runs per property check', integer('--runs', 1, 1_000_000), DEFAULT_RUNS)
    .option(
      '--timeout <ms>',
      `per-check timeout in ms (default: timeouts.test_ms of the config, else ${DEFAULT_TEST_TIMEOUT_MS})`,
      integer('--timeout', 1),
    )
    .option(
      '--max-wait <ms>',
      `longest real wait of a check (default: timeouts.max_wait_ms of the config, else ${DEFAULT_MAX_WAIT_MS}): an expiry check on a target without a test clock needing longer is skipped naming the wait; the Operator's renewal a second after an issue is then made without waiting, and noted`,
      integer('--max-wait', 0),
    )
    .option('--list', 'list the checks and requirements this configuration would run; send nothing')
    .option('--bail', 'stop at the first failure')
    .option('--driver <file>', 'your driver module (exports createDrivers; see docs/drivers.md)')
    .option('--reference', 'start the reference stack and run every suite against it')
    .option(
      '--max-duration <ms>',
      'wall-clock bound of the whole run in ms; a run still going is stopped and reported incomplete',
      integer('--max-duration', 1),
      DEFAULT_MAX_DURATION_MS,
    )
    .addOption(
      new Option(
        '--level <level>',
        'conformance level the exit status follows: spec (SPEC MUSTs fail) or profile (SPEC and PROFILE MUSTs fail); default profile, spec with --driver',
      ).choices(['spec', 'profile']),
    )
    .option('--fail-on-skip', 'a skipped check fails the run')
    .option(
      '--baseline <file>',
      'expected failures (JSON, schemas/tool/baseline.schema.json): listed failures do not fail the run; a listed check that passes fails it as stale',
    )
    .option(
      '--sign <key>',
      'sign results.json into results.bundle with this Ed25519 private key (PEM or JWK; "cprc keygen" makes one)',
    )
    .option(
      '--shard <index/total>',
      'run one slice of the checks (e.g. 2/4: whole describe blocks, balanced by number of checks); needs --seed; join the parts with "cprc merge"',
      shardArg,
    )
    .option(
      '--shard-timings <results>',
      'balance the shards by the durations this results.json recorded (an earlier whole run; give the same file to every shard)',
    )
    .option(
      '--jobs [n]',
      `run N checks at once, in a process a core (bare --jobs: ${DEFAULT_JOBS}, for a target across a network); checks that share state on the target never run together, and the reports are those of one serial run`,
      integer('--jobs', 1, 64),
    )
    .option(
      '--last-failed <results>',
      'run only the checks that failed or errored in this results.json (its seed and runs unless --seed/--runs are given)',
    )
    .addOption(new Option('--suites <dir>', 'compiled suites root (development)').hideHelp())
    .action(async (opts: RunCliOptions, cmd: Command) => {
      process.exitCode = await runCommand(opts, cmd.getOptionValueSource('runs') === 'cli');
    });
}

async function runCommand(opts: RunCliOptions, runsGiven = false): Promise<number> {
  // loaded here, not at the top: every other command (validate above all) starts without them
  const [{ randomInt }, { mkdtemp, rm }, { tmpdir }] = await Promise.all([
    import('node:crypto'),
    import('node:fs/promises'),
    import('node:os'),
  ]);
  if (!opts.config && !opts.reference) {
    throw new CprcError('CPRC_USAGE', 'cprc run: give --config FILE (your run configuration) or --reference');
  }
  if (opts.config && opts.reference) {
    throw new CprcError('CPRC_USAGE', 'cprc run: give either --config or --reference, not both');
  }
  if (opts.shard && opts.seed === undefined) {
    throw new CprcError(
      'CPRC_USAGE',
      'cprc run --shard needs --seed N: every shard must use the same seed (e.g. the CI run number), or "cprc merge" refuses the parts',
    );
  }
  if (opts.shardTimings && !opts.shard) {
    throw new CprcError('CPRC_USAGE', 'cprc run --shard-timings goes with --shard INDEX/TOTAL');
  }
  let shardTimings: Record<string, number> | undefined;
  if (opts.shardTimings) {
    const { readResults } = await import('../results/read.js');
    shardTimings = {};
    for (const t of readResults(opts.shardTimings).doc.tests) {
      if (typeof t.duration_ms === 'number') shardTimings[t.id] = (shardTimings[t.id] ?? 0) + t.duration_ms;
    }
  }
  // --last-failed: the checks that failed or errored in a previous run, with its seed and runs
  let only: { checks: string[]; source: string } | undefined;
  let previous: { seed: number; runs: number; level: 'spec' | 'profile'; targets: string[] } | undefined;
  if (opts.lastFailed) {
    const { readResults } = await import('../results/read.js');
    const { failedCheckIds } = await import('../runner/run.js');
    const { doc } = readResults(opts.lastFailed);
    const checks = failedCheckIds(doc);
    if (checks.length === 0) {
      process.stdout.write(
        `cprc run --last-failed: no check failed or errored in ${opts.lastFailed}; nothing to run\n`,
      );
      return 0;
    }
    only = { checks, source: `last-failed ${opts.lastFailed}` };
    previous = {
      seed: doc.seed,
      runs: doc.runs,
      level: doc.level,
      targets: [...new Set(checks.map((id) => id.split('/')[0] ?? ''))],
    };
  }
  const reportsDir = resolve(opts.reports);
  // the key is read before anything runs, so a wrong path fails in a second, not after the run
  const signingKey = opts.sign ? await loadSigningKey(opts.sign) : undefined;
  const controller = new AbortController();
  const onSignal = (sig: NodeJS.Signals): void => {
    process.stderr.write(
      `\ncprc: ${sig} received; stopping the run and writing the reports (marked incomplete)\n`,
    );
    controller.abort(`interrupted (${sig})`);
  };
  const onInt = (): void => onSignal('SIGINT');
  const onTerm = (): void => onSignal('SIGTERM');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);

  let stack: { configPath: string; close(): Promise<void> } | undefined;
  let stackDir: string | undefined;
  // The reference stack runs in this process, where a real target would run in its own: a defect
  // that escapes one of its handlers must fail the checks that reach it (they see an answer missing
  // or broken), never end the run that is judging it.
  let stackFaults = 0;
  const onStackFault = (err: unknown): void => {
    stackFaults += 1;
    if (stackFaults === 1)
      process.stderr.write(
        `cprc: the reference stack failed (${err instanceof Error ? err.message : String(err)}); the checks that reach it report what it answered\n`,
      );
  };
  if (opts.reference) {
    process.on('uncaughtException', onStackFault);
    process.on('unhandledRejection', onStackFault);
  }
  try {
    let configPath = opts.config ? resolve(opts.config) : '';
    if (opts.reference) {
      // Reference stack (src/loopback/stack.ts): its throwaway CA key and run config (private keys,
      // credentials) live in a private temporary folder removed when the run ends, never in the
      // reports folder; results.json carries the config with its secrets redacted.
      const { STACK_TARGETS, startReferenceStack } = await import('../loopback/stack.js');
      stackDir = await mkdtemp(join(tmpdir(), 'cprc-reference-'));
      // only the targets this run tests (a mutant's run, a shard of one target, starts less)
      const wanted = opts.target ?? previous?.targets;
      const stackTargets = wanted ? STACK_TARGETS.filter((t) => wanted.includes(t)) : undefined;
      stack = await startReferenceStack({
        workDir: stackDir,
        ...(stackTargets && stackTargets.length > 0 ? { targets: stackTargets } : {}),
      });
      configPath = stack.configPath;
      process.stdout.write(
        'cprc: reference stack started on 127.0.0.1 (its configuration is in results.json)\n',
      );
    }
    // The seed is chosen here when not given, so the reproduction line in the reports carries it.
    const seed = opts.seed ?? previous?.seed ?? randomInt(1, 2 ** 31 - 1);
    const command = [
      'cprc',
      'run',
      ...process.argv.slice(3),
      ...(opts.seed === undefined ? ['--seed', String(seed)] : []),
    ];
    // loaded on use, so `cprc validate` does not pay for the runner at start-up
    const { listSuiteChecks, runSuites } = await import('../runner/run.js');
    const runOptions: Parameters<typeof runSuites>[0] = {
      configPath,
      ...(opts.target ? { targets: opts.target } : previous ? { targets: previous.targets } : {}),
      reportsDir,
      ...(opts.shard ? { shard: opts.shard } : {}),
      ...(opts.jobs !== undefined ? { jobs: opts.jobs === true ? DEFAULT_JOBS : opts.jobs } : {}),
      ...(shardTimings ? { shardTimings } : {}),
      ...(only ? { only } : {}),
      ...(opts.reference ? { reference: true } : {}),
      ...(opts.grep ? { grep: opts.grep } : {}),
      seed,
      runs: previous && !runsGiven ? previous.runs : opts.runs,
      ...(opts.timeout !== undefined ? { timeoutMs: opts.timeout } : {}),
      ...(opts.maxWait !== undefined ? { maxWaitMs: opts.maxWait } : {}),
      bail: opts.bail === true,
      ...(opts.driver ? { driverModule: resolve(opts.driver) } : {}),
      ...(opts.suites ? { suitesRoot: resolve(opts.suites) } : {}),
      maxDurationMs: opts.maxDuration,
      ...(opts.level ? { level: opts.level } : previous ? { level: previous.level } : {}),
      ...(opts.failOnSkip ? { failOnSkip: true } : {}),
      ...(opts.baseline ? { baselineFile: resolve(opts.baseline) } : {}),
      signal: controller.signal,
      command,
      onStart: ({ seed, runs, targets }) => {
        process.stdout.write(
          `cprc run: targets ${targets.join(', ')}; seed ${seed} (reproduce with --seed ${seed}); ${runs} runs per property\n`,
        );
      },
      onProgress: (line) => process.stdout.write(`${line}\n`),
    };
    if (opts.list) {
      // what the configuration would run, and the requirements it would exercise: nothing is sent
      const listed = await listSuiteChecks(runOptions);
      for (const check of listed)
        process.stdout.write(`${terminalLine(check.id)}  ${terminalLine(check.title)}\n`);
      const requirements = new Set(listed.flatMap((check) => check.requirements));
      process.stdout.write(
        `\n${listed.length} checks naming ${requirements.size} requirements would run (nothing was sent)\n`,
      );
      return listed.length > 0 ? 0 : 2;
    }
    const result = await runSuites(runOptions);
    const c = result.reports.counts;
    const v = result.reports.verdicts;
    process.stdout.write(
      `\n${c.passed} passed, ${c.failed} failed, ${c.warning} warnings, ${c.skipped} skipped, ${c.error} errors` +
        `${c.expected_failure > 0 ? `, ${c.expected_failure} expected failures` : ''} (of ${c.total})` +
        `${result.incomplete ? `\nINCOMPLETE: ${result.incompleteReason}` : ''}` +
        `\nSPEC conformance:    ${v.spec.summary}\nPROFILE conformance: ${v.profile.summary}` +
        `\nlevel asked: ${result.level} (the exit status follows it)\n${waitSummary(result.events.flatMap((e) => (e.type === 'test' ? [e] : [])))}` +
        `\nseed ${result.seed}; reports in ${reportsDir}\n`,
    );
    if (c.total === 0 && !result.incomplete) {
      // Nothing was tested: a passing verdict would be vacuous (wrong --grep, --target or a missing build).
      process.stderr.write(
        `cprc: no check ran (targets ${result.targets.join(', ')}${opts.grep ? `, --grep ${JSON.stringify(opts.grep)}` : ''}); ` +
          'check --grep and --target, and that the suites are built ("npm run build")\n',
      );
      return 2;
    }
    if (signingKey) {
      const bundle = await signResults(
        join(reportsDir, 'results.json'),
        join(reportsDir, 'results.bundle'),
        signingKey,
      );
      process.stdout.write(`signed: ${bundle} (check it with "cprc verify ${bundle} --key <public key>")\n`);
    }
    // an interrupted run exits as the shell expects of a signalled command (128 + signal number)
    if (controller.signal.aborted) return String(controller.signal.reason).includes('SIGTERM') ? 143 : 130;
    return result.exitCode;
  } finally {
    process.off('SIGINT', onInt);
    process.off('SIGTERM', onTerm);
    process.off('uncaughtException', onStackFault);
    process.off('unhandledRejection', onStackFault);
    try {
      await stack?.close();
    } finally {
      // the stack's CA key and run config go even when a server did not close cleanly
      if (stackDir) await rm(stackDir, { recursive: true, force: true });
    }
  }
}
