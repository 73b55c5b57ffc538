import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { createHash, randomInt } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, getPriority, setPriority, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { loadCoverage } from '../catalog/coverage.js';
import { loadAmbiguities, loadCatalog } from '../catalog/index.js';
import { canonicalize } from '../crypto/jcs.js';
import { CprcError } from '../errors.js';
import type { RunConfig } from '../generated/tool/run-config.js';
import type { ConformanceResults, Level, RunEvent, Target } from '../model/results.js';
import { packageRoot } from '../paths.js';
import { type WriteReportsResult, writeReports } from '../reporters/index.js';
import { terminalLine } from '../reporters/safe-text.js';
import { redactConfig, redactValue, secretsOf } from '../secrets/index.js';
import { loadBaseline } from './baseline.js';
import { loadRunConfig, selectTargets, targetUrls } from './config.js';
import {
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RUNS,
  DEFAULT_TEST_TIMEOUT_MS,
} from './defaults.js';
import { type JobChildMessage, type JobParentMessage, JobScheduler } from './jobs.js';
import { PreflightError, preflight } from './preflight.js';
import { CHILD_OPTIONS_ENV, type ChildOptions, type ChildPlan, type ListedCheck } from './types.js';

export {
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RUNS,
  DEFAULT_TEST_TIMEOUT_MS,
};

/** Options of {@link runSuites}. */
export interface RunSuitesOptions {
  /** Path of the run configuration. */
  configPath: string;
  /** Targets named on the command line (default: every target with a config section). */
  targets?: string[];
  /** Reports folder (created); the event stream lives in a private temporary folder removed once the reports are written. */
  reportsDir: string;
  /** Run only this slice (`--shard INDEX/TOTAL`): whole top-level describe blocks, dealt by weight (`plan.ts`). */
  shard?: { index: number; total: number };
  /** Durations (ms) by check id that weigh the shard plan instead of the number of checks (`--shard-timings`). */
  shardTimings?: Record<string, number>;
  /**
   * Checks run side by side (`--jobs N`, default 1: one child, serial), by N mocha runners a few
   * to a child ({@link slotsPerProcess}); the reports are those of one serial run (`jobs.ts`).
   * Not with `shard`.
   */
  jobs?: number;
  /** Run only the checks with these ids (`--last-failed`, `cprc replay`), and where the list came from. */
  only?: { checks: string[]; source: string };
  /** The configuration is the reference stack's (`--reference`): its digest names the stack, not its ephemeral ports and paths. */
  reference?: boolean;
  /** Mocha grep: a requirement ID or text. */
  grep?: string;
  /** Seed (default: a random one, reported in `start`). */
  seed?: number;
  /** Runs per property (default {@link DEFAULT_RUNS}). */
  runs?: number;
  /** Per-test timeout in ms (default: `timeouts.test_ms` of the config, else {@link DEFAULT_TEST_TIMEOUT_MS}). */
  timeoutMs?: number;
  /** Longest real wait an expiry check may make when the target has no test clock (`--max-wait`), ms. */
  maxWaitMs?: number;
  /** Stop at the first failure. */
  bail?: boolean;
  /** An implementer's driver module (`--driver`). */
  driverModule?: string;
  /** Compiled suites root (default `<package>/dist/suites`); tests use `dist/suites/smoke`. */
  suitesRoot?: string;
  /** Wall-clock bound of the whole run in ms (default {@link DEFAULT_MAX_DURATION_MS}). */
  maxDurationMs?: number;
  /** Time the child gets to stop after an interruption, before SIGKILL (default {@link DEFAULT_GRACE_MS}). */
  graceMs?: number;
  /** Aborting interrupts the run (the CLI aborts on SIGINT/SIGTERM): reports are written, marked incomplete. */
  signal?: AbortSignal;
  /** Called with every progress line of the child, as it comes. */
  onProgress?: (line: string) => void;
  /** Called once the configuration is loaded and checked, before the child starts. */
  onStart?: (info: { seed: number; runs: number; targets: Target[]; reportsDir: string }) => void;
  /** The command line that reproduces the run, for the reports. */
  command?: string[];
  /** Conformance level asked (default `profile` with the built-in drivers, `spec` with a driver module). */
  level?: Level;
  /** Any skipped check fails the run. */
  failOnSkip?: boolean;
  /** Path of an expected-failures baseline (schemas/tool/baseline.schema.json). */
  baselineFile?: string;
}

/** What {@link runSuites} produced. */
export interface RunSuitesResult {
  /** Events of the run, in order. */
  events: RunEvent[];
  /** True when the run did not finish (interrupted, wall-clock bound, child crash). */
  incomplete: boolean;
  /** Why it is incomplete. */
  incompleteReason?: string;
  /** Seed of the run. */
  seed: number;
  /** Targets of the run. */
  targets: Target[];
  /** What the reporters wrote. */
  reports: WriteReportsResult;
  /** Level the run was asked for. */
  level: Level;
  /** 0 when the verdict at the level asked is pass (see `reports.verdict`), 1 otherwise. */
  exitCode: 0 | 1;
}

/** Parses an NDJSON event file; a torn last line (the child was killed mid-write) is dropped. */
export function readEvents(file: string): RunEvent[] {
  if (!existsSync(file)) return [];
  const out: RunEvent[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as RunEvent);
    } catch {
      // torn line of an interrupted write
    }
  }
  return out;
}

/**
 * Runs the conformance suites: loads and checks the config (exit-2 errors are `CprcError`s),
 * reaches every target once (preflight), runs mocha in a child process over the compiled suites
 * of the selected targets, forwards interruptions, bounds the run in wall-clock time, then writes
 * the reports from whatever events exist (marked incomplete when the run did not finish).
 * @example
 * ```ts
 * const r = await runSuites({ configPath: 'run.json', reportsDir: 'reports', onProgress: (l) => console.log(l) });
 * process.exitCode = r.exitCode;
 * ```
 */
/** What {@link runSuites} and {@link listSuiteChecks} settle before any child runs. */
function prepareRun(options: RunSuitesOptions) {
  const { config, configPath, configDir } = loadRunConfig(options.configPath);
  const targets = selectTargets(config, options.targets, options.driverModule !== undefined);
  if (targets.length === 0) throw new CprcError('CPRC_USAGE', 'no target to run; name one with --target');
  const driverModule = options.driverModule ? resolve(options.driverModule) : undefined;
  if (driverModule && !existsSync(driverModule)) {
    throw new CprcError(
      'CPRC_USAGE',
      `--driver ${options.driverModule}: no such file; give the path of your driver module`,
    );
  }
  const root = packageRoot();
  const childEntry = join(root, 'dist', 'src', 'cli', 'child.js');
  const suitesRoot = resolve(options.suitesRoot ?? join(root, 'dist', 'suites'));
  if (!existsSync(childEntry) || !existsSync(suitesRoot)) {
    throw new CprcError(
      'CPRC_IO',
      `the compiled suites are missing (${suitesRoot}); run "npm run build" in ${root}`,
    );
  }
  const seed = options.seed ?? randomInt(1, 2 ** 31 - 1);
  const runs = options.runs ?? DEFAULT_RUNS;
  const reportsDir = resolve(options.reportsDir);
  const timeoutMs = options.timeoutMs ?? config.timeouts?.test_ms ?? DEFAULT_TEST_TIMEOUT_MS;
  const maxWaitMs = options.maxWaitMs ?? config.timeouts?.max_wait_ms ?? DEFAULT_MAX_WAIT_MS;
  const level: Level = options.level ?? (driverModule ? 'spec' : 'profile');
  return {
    config,
    configPath,
    configDir,
    targets,
    driverModule,
    childEntry,
    suitesRoot,
    seed,
    runs,
    reportsDir,
    timeoutMs,
    maxWaitMs,
    level,
  };
}

/** The child's options of a run (all but where its events go), from what {@link prepareRun} settled. */
function childOptionsOf(
  p: ReturnType<typeof prepareRun>,
  options: RunSuitesOptions,
): Omit<ChildOptions, 'eventsDir' | 'list'> {
  return {
    configPath: p.configPath,
    suitesRoot: p.suitesRoot,
    targets: p.targets,
    reportsDir: p.reportsDir,
    seed: p.seed,
    runs: p.runs,
    bail: options.bail ?? false,
    ...(options.shard ? { shard: options.shard } : {}),
    ...(options.shard && options.shardTimings ? { shardTimings: options.shardTimings } : {}),
    ...(options.only ? { only: options.only.checks } : {}),
    timeoutMs: p.timeoutMs,
    maxWaitMs: p.maxWaitMs,
    level: p.level,
    ...(options.grep ? { grep: options.grep } : {}),
    ...(p.driverModule ? { driverModule: p.driverModule } : {}),
  };
}

export async function runSuites(options: RunSuitesOptions): Promise<RunSuitesResult> {
  const prepared = prepareRun(options);
  const { config, configDir, targets, childEntry, seed, runs, reportsDir, level } = prepared;
  const baseline = options.baselineFile ? loadBaseline(options.baselineFile) : undefined;

  try {
    await preflight(config, targets, configDir);
  } catch (err) {
    // A CI job whose target is down still gets reports to show: one errored case per address.
    if (err instanceof PreflightError) {
      const written = await writePreflightReports(err, {
        config,
        targets,
        reportsDir,
        seed,
        runs,
        level,
        ...(options.command ? { command: options.command } : {}),
      }).catch(() => undefined);
      if (written) {
        throw new CprcError(
          err.code,
          `${err.message}\nreports with one errored case per unreachable address: ${reportsDir}`,
          {
            cause: err,
          },
        );
      }
    }
    throw err;
  }

  // The event stream is the runner's working state, not a report: a hidden temporary folder of
  // the reports folder (same file system, cleaned with it), removed once the reports are written;
  // kept, and named, only when they could not be, or when the runner itself was killed.
  let rawDir: string;
  try {
    mkdirSync(reportsDir, { recursive: true });
    rawDir = mkdtempSync(join(reportsDir, '.cprc-events-'));
  } catch (err) {
    throw new CprcError(
      'CPRC_IO',
      `cannot write into the reports folder ${reportsDir} (${(err as NodeJS.ErrnoException).code ?? String(err)}); check that it is writable or give another --reports`,
    );
  }
  const eventsFile = join(rawDir, 'events.ndjson');
  const jobs = Math.max(1, options.jobs ?? 1);
  if (jobs > 1 && options.shard)
    throw new CprcError('CPRC_USAGE', '--jobs and --shard do not combine; give one');
  if (jobs > 1 && options.bail) throw new CprcError('CPRC_USAGE', '--bail stops a serial run; drop --jobs');
  // each child of a --jobs run keeps its own event stream and plan in a folder of its own
  const slots = jobs > 1 ? slotsPerProcess(jobs) : [1];
  const dirs = jobs > 1 ? slots.map((_, i) => join(rawDir, `job-${i + 1}`)) : [rawDir];
  const optionsFiles = dirs.map((dir, index) => {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'events.ndjson'), '');
    const childOptions: ChildOptions = {
      ...childOptionsOf(prepared, options),
      eventsDir: dir,
      ...(jobs > 1 ? { jobs: { index, total: dirs.length, slots: slots[index] ?? 1 } } : {}),
    };
    const file = join(dir, 'child-options.json');
    writeFileSync(file, JSON.stringify(childOptions, null, 2));
    return file;
  });
  options.onStart?.({ seed, runs, targets, reportsDir });

  let keepEvents = false;
  try {
    const ran =
      jobs > 1
        ? await runJobChildren(childEntry, optionsFiles, dirs, slots, options)
        : await runChild(childEntry, optionsFiles[0] as string, options).then((r) => ({
            ...r,
            events: readEvents(eventsFile),
            early: undefined as string | undefined,
          }));
    const { code, signal, interruption, stderr, events } = ran;
    if (!events.some((e) => e.type === 'start')) {
      throw new CprcError(
        code === 2 ? 'CPRC_CONFIG_INVALID' : 'CPRC_INTERNAL',
        stderr.trim().replace(/^cprc: /, '') ||
          `the suite process ended (${signal ? `signal ${signal}` : `code ${code}`}) before the run started`,
      );
    }
    let incompleteReason = interruption ?? ran.early;
    if (!incompleteReason && !events.some((e) => e.type === 'end')) {
      incompleteReason = `the suite process ended early (${signal ? `signal ${signal}` : `code ${code}`})${stderr.trim() ? `: ${stderr.trim().slice(-500)}` : ''}`;
    }
    const secrets = secretsOf(config);
    const coverage = coverageOrNone();
    const redactedConfig = redactValue(config, secrets) as Record<string, unknown>;
    const plan = readPlan(join(dirs[0] as string, 'plan.json'));
    const run: NonNullable<Parameters<typeof writeReports>[0]['run']> = {
      config_digest: configDigest(redactedConfig, options.reference === true, events),
      ...(plan.shard ? { shard: plan.shard } : {}),
      ...(options.only
        ? {
            selection: {
              source: options.only.source,
              checks: [...options.only.checks],
              ...(plan.missing && plan.missing.length > 0 ? { missing: plan.missing } : {}),
            },
          }
        : {}),
    };
    const reports = await writeReports({
      reportsDir,
      events,
      run,
      catalog: loadCatalog().requirements,
      ambiguities: loadAmbiguities().ambiguities,
      ...(coverage ? { coverage } : {}),
      incomplete: incompleteReason !== undefined,
      ...(incompleteReason ? { incomplete_reason: incompleteReason } : {}),
      config: redactValue(config, secrets) as Record<string, unknown>,
      ...(options.command ? { command: options.command } : {}),
      secrets,
      failOnSkip: options.failOnSkip === true,
      ...(baseline ? { baseline } : {}),
    }).catch((err: unknown) => {
      keepEvents = true;
      if (err instanceof CprcError) {
        throw new CprcError(err.code, `${err.message} (the run's event stream is kept in ${eventsFile})`, {
          cause: err,
        });
      }
      throw err;
    });
    const exitCode = incompleteReason !== undefined || reports.verdict === 'fail' ? 1 : 0;
    return {
      events,
      incomplete: incompleteReason !== undefined,
      ...(incompleteReason ? { incompleteReason } : {}),
      seed,
      targets,
      reports,
      level,
      exitCode,
    };
  } finally {
    if (!keepEvents) rmSync(rawDir, { recursive: true, force: true });
  }
}

/**
 * The checks a run with these options would run, and their requirement IDs (`cprc run --list`):
 * the suites are loaded in a child exactly as a run would load them (targets, shard, selection,
 * grep), and nothing is sent to a target: no preflight, no check, no report.
 * @example
 * ```ts
 * for (const c of await listSuiteChecks({ configPath: 'run.json', reportsDir: 'reports' })) console.log(c.id);
 * ```
 */
export async function listSuiteChecks(options: RunSuitesOptions): Promise<ListedCheck[]> {
  const prepared = prepareRun(options);
  return listChecks(prepared.childEntry, { ...childOptionsOf(prepared, options), bail: false }, options);
}

/**
 * Loads the suites in a child exactly as a run would (same targets, shard, selection and grep)
 * and returns the checks it would run; nothing is sent to a target.
 */
async function listChecks(
  childEntry: string,
  base: Omit<ChildOptions, 'eventsDir' | 'list'>,
  options: RunSuitesOptions,
): Promise<ListedCheck[]> {
  const dir = mkdtempSync(join(tmpdir(), 'cprc-list-'));
  try {
    const optionsFile = join(dir, 'child-options.json');
    writeFileSync(join(dir, 'events.ndjson'), '');
    writeFileSync(
      optionsFile,
      JSON.stringify({ ...base, eventsDir: dir, list: true } satisfies ChildOptions),
    );
    const { code, signal, stderr } = await runChild(childEntry, optionsFile, {
      ...options,
      onProgress: () => {},
    });
    const file = join(dir, 'list.json');
    if (!existsSync(file)) {
      throw new CprcError(
        'CPRC_INTERNAL',
        stderr.trim().replace(/^cprc: /, '') ||
          `the suite process ended (${signal ? `signal ${signal}` : `code ${code}`}) before listing the checks`,
      );
    }
    return JSON.parse(readFileSync(file, 'utf8')) as ListedCheck[];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The child's plan file (a sharded or selected run), or nothing. */
function readPlan(file: string): ChildPlan {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ChildPlan;
  } catch {
    return {};
  }
}

/**
 * Digest of the run configuration with its secrets removed: sha256 of its RFC 8785 form (the
 * `config` digest of a signed bundle). A `--reference` run names the reference stack and the
 * suite version instead: its ports and temporary paths change every run, the stack does not.
 */
export function configDigest(
  redactedConfig: Record<string, unknown>,
  reference: boolean,
  events: readonly RunEvent[] = [],
): `sha256:${string}` {
  const version = events.find((e) => e.type === 'start')?.suite_version ?? '';
  const text = reference
    ? `cpr-conformance reference stack ${version}`
    : canonicalize(redactConfig(redactedConfig));
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/** Test ids of `doc` whose check failed or errored (`--last-failed`). */
export function failedCheckIds(doc: Pick<ConformanceResults, 'tests'>): string[] {
  return [...new Set(doc.tests.filter((t) => t.state === 'failed' || t.state === 'error').map((t) => t.id))];
}

/** The coverage file, if the package has a readable one (reports use it; a run never fails for it). */
function coverageOrNone(): ReturnType<typeof loadCoverage> {
  try {
    return loadCoverage();
  } catch {
    return undefined;
  }
}

/**
 * Runs the children of a `--jobs` run side by side, the {@link JobScheduler} answering their
 * gates, and joins their event streams into one run's: the start of the first (started at the
 * earliest), every test at the position it has in a serial run, an end when every child ended.
 */
async function runJobChildren(
  childEntry: string,
  optionsFiles: readonly string[],
  dirs: readonly string[],
  slots: readonly number[],
  options: RunSuitesOptions,
): Promise<{
  code: number | null;
  signal: NodeJS.Signals | null;
  interruption?: string;
  stderr: string;
  events: RunEvent[];
  early: string | undefined;
}> {
  // the scheduler deals units to runners, numbered child by child: `processOf[runner]` is its child
  const processOf = slots.flatMap((n, index) => Array.from({ length: n }, () => index));
  const scheduler = new JobScheduler(processOf.length, processOf);
  const runnersOf = (index: number): number[] => processOf.flatMap((p, r) => (p === index ? [r] : []));
  let planError: string | undefined;
  const children: ChildProcess[] = [];
  const results = await Promise.all(
    optionsFiles.map((file, index) =>
      runChild(childEntry, file, options, (child) => {
        children.push(child);
        // The children only wait for answers; a target running in this very process (the
        // reference stack of --reference) answers before they get the cores on a busy machine,
        // as it does in a serial run, where it faces one client.
        lowerPriority(child.pid);
        child.on('message', (raw: unknown) => {
          const m = raw as JobChildMessage;
          const runner = processOf.indexOf(index) + ('slot' in m ? m.slot : 0);
          if (m.type === 'plan') {
            try {
              scheduler.plan(index, m.units);
            } catch (err) {
              planError ??= (err as Error).message;
              for (const c of children) c.kill('SIGTERM');
            }
          } else if (m.type === 'gate') {
            void scheduler.request(runner, m.key).then((run) => {
              if (child.connected)
                child.send({ type: 'gate', slot: m.slot, key: m.key, run } satisfies JobParentMessage);
            });
          } else if (m.type === 'done') scheduler.done(runner, m.key);
          else if (m.type === 'finished') scheduler.exit(runner);
        });
        child.on('exit', () => {
          for (const r of runnersOf(index)) scheduler.exit(r);
        });
      }),
    ),
  );
  const streams = dirs.map((dir) => readEvents(join(dir, 'events.ndjson')));
  const starts = streams.flatMap((events) => events.flatMap((e) => (e.type === 'start' ? [e] : [])));
  const ends = streams.flatMap((events) => events.flatMap((e) => (e.type === 'end' ? [e] : [])));
  const tests = streams
    .flatMap((events) => events.flatMap((e) => (e.type === 'test' ? [e] : [])))
    .sort((a, b) => (a.position ?? 0) - (b.position ?? 0))
    .map(({ position: _position, ...test }) => test);
  const events: RunEvent[] = [];
  const first = starts[0];
  if (first) {
    const startedAt = starts.map((e) => e.started_at).sort()[0] ?? first.started_at;
    events.push({ ...first, started_at: startedAt });
  }
  events.push(...tests);
  if (ends.length === results.length) {
    events.push({
      type: 'end',
      finished_at: ends
        .map((e) => e.finished_at)
        .sort()
        .at(-1) as string,
    });
  }
  const failed = results.findIndex((r) => r.code !== 0 || r.signal !== null);
  const worst = results[failed] ?? results[0];
  const unrun = scheduler.unrun();
  let early: string | undefined;
  if (planError) early = `the --jobs children disagreed on the plan: ${planError}`;
  else if (ends.length !== results.length) {
    const i = streams.findIndex((e) => !e.some((x) => x.type === 'end'));
    const r = results[i];
    early = `suite process ${i + 1} of ${results.length} ended early (${r?.signal ? `signal ${r.signal}` : `code ${r?.code}`})${r?.stderr.trim() ? `: ${r.stderr.trim().slice(-500)}` : ''}`;
  } else if (unrun.length > 0) {
    early = `${unrun.length} units were run by no suite process (${unrun.slice(0, 3).join(', ')}${unrun.length > 3 ? ', ...' : ''})`;
  }
  return {
    code: worst?.code ?? null,
    signal: worst?.signal ?? null,
    ...(results.find((r) => r.interruption)?.interruption
      ? { interruption: results.find((r) => r.interruption)?.interruption as string }
      : {}),
    stderr: results.map((r) => r.stderr).join(''),
    events,
    early,
  };
}

/** Lowers a child's scheduling priority by 5 (never refused for one's own child; ignored if it is). */
function lowerPriority(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    setPriority(pid, Math.min(19, getPriority() + 5));
  } catch {
    // a platform without priorities: the run is the same, only slower on a busy machine
  }
}

/**
 * How a `--jobs N` run spreads its N runners (units at once) over processes: a process a core,
 * at least 2 and at most 4 (and at most N), each running its share of the N side by side. A
 * process costs CPU of its own (it loads the suites, compiles and optimises what it runs), so
 * more processes than cores only add to what the cores must do, and a process a core leaves each
 * one core for its few runners, which mostly wait. `CPRC_JOB_PROCESSES` sets the number of
 * processes (what the README's measurements compared).
 */
export function slotsPerProcess(jobs: number, env: NodeJS.ProcessEnv = process.env): number[] {
  const asked = /^\d+$/.test(env.CPRC_JOB_PROCESSES ?? '') ? Number(env.CPRC_JOB_PROCESSES) : 0;
  const wanted = asked > 0 ? asked : Math.min(4, Math.max(2, availableParallelism()));
  const processes = Math.min(jobs, wanted);
  return Array.from(
    { length: processes },
    (_, i) => Math.floor(jobs / processes) + (i < jobs % processes ? 1 : 0),
  );
}

/** Runs the child; forwards interruption, enforces the wall-clock bound, streams progress. */
function runChild(
  childEntry: string,
  optionsFile: string,
  options: RunSuitesOptions,
  withIpc?: (child: ChildProcess) => void,
): Promise<{ code: number | null; signal: NodeJS.Signals | null; interruption?: string; stderr: string }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [childEntry], {
      env: { ...process.env, [CHILD_OPTIONS_ENV]: optionsFile },
      stdio: withIpc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
    }) as ChildProcessByStdio<null, Readable, Readable>;
    withIpc?.(child);
    let stderr = '';
    let interruption: string | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-8192);
    });
    const lines = createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    // a target's text in a check title or message never reaches the terminal raw
    lines.on('line', (line) => options.onProgress?.(terminalLine(line)));

    const interrupt = (reason: string, sig: NodeJS.Signals): void => {
      if (interruption !== undefined) return;
      interruption = reason;
      child.kill(sig);
      killTimer = setTimeout(() => child.kill('SIGKILL'), options.graceMs ?? DEFAULT_GRACE_MS);
    };
    const maxMs = options.maxDurationMs ?? DEFAULT_MAX_DURATION_MS;
    const wallClock = setTimeout(
      () => interrupt(`the run exceeded its wall-clock bound of ${maxMs} ms and was stopped`, 'SIGTERM'),
      maxMs,
    );
    const onAbort = (): void => {
      const r = options.signal?.reason;
      interrupt(typeof r === 'string' ? r : 'interrupted (SIGINT)', 'SIGINT');
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('close', (code, signal) => {
      clearTimeout(wallClock);
      if (killTimer) clearTimeout(killTimer);
      options.signal?.removeEventListener('abort', onAbort);
      resolvePromise({ code, signal, ...(interruption ? { interruption } : {}), stderr });
    });
  });
}

/**
 * Minimal valid reports of a run whose preflight failed: a start event, one errored case per
 * unreachable address (named by its config member, with the cause), and an end event; the run is
 * marked incomplete (no check ran), so the verdict is FAIL. `cprc run` still exits 2.
 */
async function writePreflightReports(
  err: PreflightError,
  ctx: {
    config: RunConfig;
    targets: Target[];
    reportsDir: string;
    seed: number;
    runs: number;
    level: Level;
    command?: string[];
  },
): Promise<WriteReportsResult> {
  const now = new Date().toISOString();
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  const events: RunEvent[] = [
    {
      type: 'start',
      suite_version: pkg.version,
      seed: ctx.seed,
      runs: ctx.runs,
      targets: ctx.targets,
      level: ctx.level,
      target_urls: targetUrls(ctx.config, ctx.targets),
      started_at: now,
    },
    ...err.problems.map((p): RunEvent => {
      const slug = p.member.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
      const title = `preflight: ${p.member} answers`;
      return {
        type: 'test',
        id: `${p.target}/preflight/${slug}`,
        title,
        full_title: title,
        file: '(preflight)',
        target: p.target,
        requirements: [],
        state: 'error',
        message: `preflight failed, no check was run: ${p.text}`,
        duration_ms: 0,
        exchanges: [],
      };
    }),
    { type: 'end', finished_at: now },
  ];
  const secrets = secretsOf(ctx.config);
  return writeReports({
    reportsDir: ctx.reportsDir,
    events,
    catalog: loadCatalog().requirements,
    ambiguities: loadAmbiguities().ambiguities,
    ...(coverageOrNone() ? { coverage: coverageOrNone() } : {}),
    incomplete: true,
    incomplete_reason: 'the preflight could not reach the target, so no check was run',
    config: redactValue(ctx.config, secrets) as Record<string, unknown>,
    ...(ctx.command ? { command: ctx.command } : {}),
    secrets,
  });
}
