/**
 * The mocha child's work (its process entry is `src/cli/child.ts`, the only place touching the
 * process): reads its options from the JSON file named by `CPRC_CHILD_OPTIONS`, builds the
 * drivers, installs the run context, runs the compiled suites of the selected targets with
 * mocha (only a shard or a selection of it when asked: `plan.ts`), appends one NDJSON event per
 * finished test to `<eventsDir>/events.ndjson` (a temporary folder of the run in the reports folder) and
 * hands progress lines to the caller as tests finish.
 * @packageDocumentation
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Mocha from 'mocha';
import { createDefaultDrivers, loadDriverModule } from '../drivers/index.js';
import { Recorder } from '../drivers/recorder.js';
import type { Drivers } from '../drivers/types.js';
import { CprcError } from '../errors.js';
import { outcomeOfTest, type RunEvent, type Target, type TestResult } from '../model/results.js';
import { packageRoot } from '../paths.js';
import { secretsOf } from '../secrets/index.js';
import { loadRunConfig, targetUrls } from './config.js';
import { OVERLAPPING_RUNS, setRunContext } from './context.js';
import { listSuiteFiles } from './files.js';
import {
  cloneTree,
  inSlot,
  installJobGates,
  type JobChildMessage,
  type JobParentMessage,
  jobPlanDigest,
  jobUnits,
  orderForJobs,
  slotRunner,
} from './jobs.js';
import { applyShard, checkIdOf, eachTest, positions, selectChecks } from './plan.js';
import { CprcReporter, type CprcReporterOptions, progressLine, testId } from './reporter.js';
import { CHILD_OPTIONS_ENV, type ChildOptions, type ChildPlan, type ListedCheck } from './types.js';

/** How long a check still running at an interruption may take to finish (ms). */
const INTERRUPT_GRACE_MS = 1000;

/** What the child's process entry gives {@link runChildProcess}. */
export interface ChildIo {
  /** The environment (to find {@link CHILD_OPTIONS_ENV}). */
  env: Readonly<Record<string, string | undefined>>;
  /** Prints one progress line (stdout of the child). */
  progress(line: string): void;
  /** Prints one diagnostic line (stderr of the child). */
  warn(line: string): void;
  /** Registers what to do on SIGINT/SIGTERM. */
  onInterrupt(handler: () => void): void;
  /** Leaves the process at once with `code` (an interrupted run whose check will not end). */
  exit(code: number): void;
  /** Sends a message to the parent (a `--jobs` child: its IPC channel). */
  send?(message: JobChildMessage): void;
  /** Registers what to do with each message of the parent (a `--jobs` child). */
  onMessage?(handler: (message: JobParentMessage) => void): void;
}

function readOptions(env: ChildIo['env']): ChildOptions {
  const file = env[CHILD_OPTIONS_ENV];
  if (!file)
    throw new CprcError(
      'CPRC_USAGE',
      `${CHILD_OPTIONS_ENV} is not set: this file is started by "cprc run" only`,
    );
  return JSON.parse(readFileSync(file, 'utf8')) as ChildOptions;
}

/**
 * Runs the suites in the mocha child. Resolves 0 when the run went through (the verdict is the
 * parent's); rejects when it could not start (the entry exits 2).
 */
export async function runChildProcess(io: ChildIo): Promise<number> {
  const opts = readOptions(io.env);
  const { config, configDir } = loadRunConfig(opts.configPath);
  const recorder = new Recorder(secretsOf(config));
  const defaults = createDefaultDrivers(config, { recorder, configDir });
  let drivers: Drivers = defaults.drivers;
  let customClose: (() => Promise<void>) | undefined;
  if (opts.driverModule) {
    const custom = await loadDriverModule(opts.driverModule, config, { recorder });
    drivers = {
      ...drivers,
      ...(custom.payee ? { payee: custom.payee } : {}),
      ...(custom.wallets ? { wallets: custom.wallets } : {}),
      ...(custom.operator ? { operator: custom.operator } : {}),
    };
    customClose = async () => {
      await Promise.allSettled([
        custom.payee?.close?.(),
        custom.operator?.close?.(),
        ...(custom.wallets ?? []).map((w) => w.close?.()),
      ]);
    };
  }
  setRunContext({
    config,
    drivers,
    seed: opts.seed,
    runs: opts.runs,
    ...(opts.grep ? { grep: opts.grep } : {}),
    targets: opts.targets,
    channels: (drivers.wallets ?? []).map((w) => w.channel),
    recorder,
    reportsDir: opts.reportsDir,
    timeoutMs: opts.timeoutMs,
    maxWaitMs: opts.maxWaitMs,
    level: opts.level ?? 'profile',
    propertyLanes: opts.jobs ? OVERLAPPING_RUNS : 1,
    // a --jobs child's event folder is one of the run's private folder
    ...(opts.jobs ? { sharedDir: dirname(opts.eventsDir), checksAtOnce: opts.jobs.slots } : {}),
  });

  const eventsFd = openSync(join(opts.eventsDir, 'events.ndjson'), 'a');
  const write = (event: RunEvent): void => {
    writeSync(eventsFd, `${JSON.stringify(event)}\n`);
  };
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string };
  write({
    type: 'start',
    suite_version: pkg.version,
    seed: opts.seed,
    runs: opts.runs,
    targets: opts.targets,
    level: opts.level ?? 'profile',
    target_urls: targetUrls(config, opts.targets),
    started_at: new Date().toISOString(),
  });

  let interrupted = false;
  const onResult = (result: TestResult): void => {
    // A check that ends after an interruption was cut short by it: its failure says nothing of the
    // target (aborted requests, a half-run property), so it carries no verdict.
    const r: TestResult =
      interrupted && (result.state === 'failed' || result.state === 'error' || result.state === 'warning')
        ? {
            ...result,
            state: 'error',
            message: `interrupted: the run was stopped while this check ran; no verdict (it said: ${result.message ?? 'nothing'})`,
          }
        : result;
    write({ type: 'test', ...r });
    io.progress(progressLine(r));
  };
  // Position of each test in the whole run, recorded by a shard so `cprc merge` restores one run's order.
  let positionOf: WeakMap<object, number> | undefined;
  const mochaOptions = (reporterOptions: CprcReporterOptions): Mocha.MochaOptions => ({
    reporter: CprcReporter as unknown as typeof Mocha.reporters.Base,
    reporterOptions,
    timeout: opts.timeoutMs,
    bail: opts.bail,
    ...(opts.grep ? { grep: opts.grep } : {}),
  });
  const reporterOptions: CprcReporterOptions = {
    suitesRoot: opts.suitesRoot,
    recorder,
    onResult,
    timeoutMs: opts.timeoutMs,
    positionOf: (test) => positionOf?.get(test),
  };
  const mocha = new Mocha(mochaOptions(reporterOptions));
  const runners: Mocha.Runner[] = [];
  // runs a loaded tree (the one loaded, or a copy of it: a --jobs child runs several at once,
  // `slot` telling them apart)
  const runTree = (suite: Mocha.Suite, options: Partial<CprcReporterOptions>, slot?: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const m = new Mocha(mochaOptions({ ...reporterOptions, ...options }));
      m.suite = suite;
      if (slot !== undefined) (m as unknown as { _runnerClass: unknown })._runnerClass = slotRunner(slot);
      const start = (): void => {
        runners.push(m.run(() => resolve()));
      };
      if (slot === undefined) start();
      else inSlot(slot, start);
    });
  let fileCount = 0;
  for (const target of opts.targets) {
    const files = listSuiteFiles(join(opts.suitesRoot, target));
    fileCount += files.length;
    for (const f of files) mocha.addFile(f);
  }
  const closeDrivers = (): Promise<unknown> => Promise.allSettled([defaults.close(), customClose?.()]);
  const stop = (): void => {
    if (interrupted) return;
    interrupted = true;
    // Let the running checks finish if they can (mocha stops after them); a check stuck on a
    // target gets a short grace, then the child leaves: every finished test is already on disk.
    for (const r of runners) r.abort();
    setTimeout(() => {
      void Promise.race([closeDrivers(), new Promise((r) => setTimeout(r, 500))]).then(() => io.exit(130));
    }, INTERRUPT_GRACE_MS).unref();
  };
  io.onInterrupt(stop);

  try {
    if (fileCount === 0) {
      io.warn(`cprc: no compiled suites under ${opts.suitesRoot} for ${opts.targets.join(', ')}`);
    }
    try {
      await mocha.loadFilesAsync();
    } catch (err) {
      // a suite file that cannot load is a suite failure: one error result, the run goes no further
      const target = (opts.targets[0] ?? 'payee') as Target;
      onResult({
        id: testId(target, 'load the suites'),
        title: 'load the suites',
        full_title: 'load the suites',
        file: '(suites)',
        target,
        requirements: [],
        state: 'error',
        message: `suite error: a suite file failed to load: ${recorder.redact((err as Error).message)}`,
        duration_ms: 0,
        exchanges: recorder.take(),
      });
      write({ type: 'end', finished_at: new Date().toISOString() });
      return 0;
    }
    if (interrupted) return 0;
    // Keep only this run's slice of the loaded tree: a shard, a selection of check ids, or both.
    const plan: ChildPlan = {};
    if (opts.shard) {
      positionOf = positions(mocha.suite);
      const shard = applyShard(mocha.suite, opts.suitesRoot, opts.shard, opts.shardTimings);
      plan.shard = {
        ...opts.shard,
        plan_digest: shard.planDigest,
        units: shard.kept,
        checks: shard.checks,
        balanced_by: opts.shardTimings ? 'timings' : 'checks',
      };
    }
    if (opts.only) plan.missing = selectChecks(mocha.suite, opts.suitesRoot, opts.only).missing;
    if (opts.shard || opts.only) writeFileSync(join(opts.eventsDir, 'plan.json'), JSON.stringify(plan));
    if (opts.list) {
      const listed: ListedCheck[] = [];
      eachTest(mocha.suite, (test) => {
        // mocha applies --grep when it runs; a listing applies it the same way (a substring of the full title)
        if (opts.grep && !test.fullTitle().includes(opts.grep)) return;
        listed.push({
          id: checkIdOf(test, opts.suitesRoot),
          title: test.fullTitle(),
          requirements: outcomeOfTest(test)?.requirements ?? [],
        });
      });
      writeFileSync(join(opts.eventsDir, 'list.json'), JSON.stringify(listed));
      return 0;
    }
    if (opts.jobs) {
      if (!io.send || !io.onMessage)
        throw new CprcError('CPRC_INTERNAL', 'a --jobs child needs its IPC channel');
      await runJobSlots(mocha.suite, opts, io.send, io.onMessage, {
        positionOf: positionOf ?? positions(mocha.suite),
        interrupted: () => interrupted,
        recorder,
        runTree,
      });
    } else {
      await runTree(mocha.suite, {});
    }
    if (!interrupted) write({ type: 'end', finished_at: new Date().toISOString() });
  } finally {
    closeSync(eventsFd);
    await closeDrivers();
  }
  return 0;
}

/**
 * A `--jobs` child's run: it cuts the loaded tree into units as every child does, sends the
 * plan, and runs `opts.jobs.slots` copies of the tree at once (one mocha runner each, each with
 * its own buffer of exchanges), every unit gated by the parent, which gives each unit to one
 * runner of one child.
 */
async function runJobSlots(
  root: Mocha.Suite,
  opts: ChildOptions,
  send: (message: JobChildMessage) => void,
  onMessage: (handler: (message: JobParentMessage) => void) => void,
  run: {
    positionOf: WeakMap<object, number>;
    interrupted: () => boolean;
    recorder: Recorder;
    runTree: (suite: Mocha.Suite, options: Partial<CprcReporterOptions>, slot: number) => Promise<void>;
  },
): Promise<void> {
  // mocha applies --grep when it runs; the units are cut from what it will run
  const keep = (test: Mocha.Test): boolean => !opts.grep || test.fullTitle().includes(opts.grep);
  orderForJobs(root, jobUnits(root, opts.suitesRoot, keep));
  const trees: Array<{ root: Mocha.Suite; positionOf: (test: object) => number | undefined }> = [
    { root, positionOf: (test) => run.positionOf.get(test) },
  ];
  for (let slot = 1; slot < (opts.jobs?.slots ?? 1); slot++) {
    const copy = cloneTree(root);
    trees.push({
      root: copy.root,
      positionOf: (test) => {
        const original = copy.original.get(test);
        return original === undefined ? undefined : run.positionOf.get(original);
      },
    });
  }
  const answers = new Map<string, (go: boolean) => void>();
  onMessage((m) => {
    if (m.type !== 'gate') return;
    const id = `${m.slot}\t${m.key}`;
    answers.get(id)?.(m.run);
    answers.delete(id);
  });
  const slots = trees.map((tree, slot) => {
    const units = jobUnits(tree.root, opts.suitesRoot, keep);
    if (slot === 0)
      send({
        type: 'plan',
        digest: jobPlanDigest(units),
        // what the parent schedules: the unit without the mocha objects it gates here
        units: units.map(({ suite: _suite, test: _test, ...unit }) => unit),
      });
    const gates = installJobGates(tree.root, units, (key) => {
      if (run.interrupted()) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        answers.set(`${slot}\t${key}`, resolve);
        send({ type: 'gate', slot, key });
      });
    });
    return { tree, gates };
  });
  await Promise.all(
    slots.map(async ({ tree, gates }, slot) => {
      // each runner's exchanges go to its own buffer, taken by its reporter as each test ends
      await run.recorder.collect(() =>
        run.runTree(
          tree.root,
          {
            positionOf: tree.positionOf,
            ignore: (test) => gates.passedOver(test),
            onEnd: (runnable) => {
              const key = gates.unitEnded(runnable);
              if (key !== undefined) send({ type: 'done', slot, key });
            },
          },
          slot,
        ),
      );
      send({ type: 'finished', slot });
    }),
  );
}
