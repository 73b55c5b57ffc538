// StrykerJS test-runner plugin `cpr` (stryker.config.mjs): judges each mutant by what can observe
// its scope (scripts/mutation-scopes.mjs), with the verdict a full `cprc run` would give.
//
// StrykerJS instruments the TypeScript sources of the sandbox with every mutant at once (mutant
// switching); the build command compiles the sandbox once; a mutant is switched on by the
// __STRYKER_ACTIVE_MUTANT__ environment variable, which every process of a run inherits (the cprc
// parent that hosts the reference stack, its mocha child that runs the suites and the validator,
// the stdio wallet). Per mutant the runner starts, for each observer of the mutant's scope in turn:
//   suite:<target>  `cprc run --reference --target <target>` of the sandbox, fixed seed, fewer
//                   property runs, --bail, its own reports folder per worker;
//   vitest:<folder> `vitest run <folder> --bail 1` (vitest runs the instrumented TS sources).
// Detected (killed) when a check fails, errors or warns (the reference runs with none), or a vitest
// test fails. A run that gives no verdict (cprc exits 2, no results.json, the run is incomplete
// without a failing check, vitest writes no report) is a harness crash: reported as a runtime
// error with its reason, never as a kill. A run past StrykerJS's time limit is a timeout.
//
// The dry run runs every observer once on the unmutated code with mutant coverage collected from
// every process (scripts/mutation-coverage.mjs); a mutant that none of its scope's observers
// reaches is reported "no coverage" without a run.
import { spawn } from 'node:child_process';
import {
  appendFileSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { commonTokens, declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';
import { DryRunStatus, MutantRunStatus, TestStatus } from '@stryker-mutator/api/test-runner';
import { strykerPlugins as vitestPlugins } from '@stryker-mutator/vitest-runner';
import { scopeOf } from './mutation-scopes.mjs';
import { AFTER_FAILURE_MS, closeForced, watchRun } from './mutation-vitest-run.mjs';

// the environment this worker started with: the in-process vitest sets NODE_ENV and VITEST, which
// the cprc runs must not inherit
const BASE_ENV = { ...process.env };
const COVERAGE_HOOK = new URL('./mutation-coverage.mjs', import.meta.url);
/** The checks of the dry run (id -> full title, target), shared by the workers of one sandbox. */
const CHECKS_FILE = '.cpr-mutation-checks.json';
/**
 * What the dry run learnt of the vitest observers, for every worker: `loadTime`, the mutants vitest
 * reached while a test file loaded; `testedBy`, per source file, the test files whose tests reach
 * its mutants (they run first for its mutants); `fileMs`, what each test file took (a run's own limit).
 */
const VITEST_PLAN_FILE = '.cpr-mutation-vitest.json';
/**
 * Slack of a vitest run's own limit (runVitest): a test file of the observed folders takes 0.2 to
 * 3 s on the unmutated, instrumented code; a mutant that hangs a test asynchronously fails it at
 * the 6 s test timeout (scripts/mutation-vitest.config.mjs) before this limit.
 */
const VITEST_SLACK_MS = 8000;

/** Defaults of the `cprMutation` options block of the StrykerJS configuration. */
const DEFAULTS = {
  /** Property seed of every suite run (fixed: a mutant's verdict must be reproducible). */
  seed: 20260601,
  /** Runs per property check (the default of `cprc run` is 100). */
  runs: 10,
  /** Per-check timeout of the suite runs, ms: a hung check is an error (detected). */
  checkTimeoutMs: 4000,
  /** Stop a suite run at its first failure (the verdict needs only one). */
  bail: true,
  /** Run only the checks that reach a mutant (--grep) when they are fewer than this share of the suite. */
  grepBelow: 0.6,
  /** A mutant that survives the checks reaching it is judged again by the whole suite of its target. */
  confirmSurvivors: true,
  /**
   * Judge the mutants of a scope that allows it (`judge` in scripts/mutation-scopes.mjs) with the
   * judge process of the target (scripts/mutation-judge.mjs): the suite loaded once, the stack
   * started afresh per mutant; the same verdict as a cprc run, without starting two processes.
   */
  judge: true,
};

/** Options schema of this plugin (StrykerJS validates the configuration against it). */
export const strykerValidationSchema = {
  $schema: 'http://json-schema.org/draft-07/schema',
  type: 'object',
  properties: {
    cprMutation: {
      type: 'object',
      additionalProperties: false,
      properties: {
        seed: { type: 'integer', minimum: 1 },
        runs: { type: 'integer', minimum: 1 },
        checkTimeoutMs: { type: 'integer', minimum: 1 },
        bail: { type: 'boolean' },
        grepBelow: { type: 'number', minimum: 0, maximum: 1 },
        confirmSurvivors: { type: 'boolean' },
        judge: { type: 'boolean' },
      },
    },
  },
};

/** States of a check that are no detection: the reference itself gives only these. */
const QUIET_STATES = new Set(['passed', 'skipped']);

class CprTestRunner {
  static inject = [commonTokens.logger, commonTokens.options, commonTokens.injector];

  constructor(logger, options, injector) {
    this.log = logger;
    this.options = options;
    this.injector = injector;
    this.vitest = new Map();
    this.settings = { ...DEFAULTS, ...(options.cprMutation ?? {}) };
    this.root = process.cwd(); // the sandbox
    this.work = mkdtempSync(join(tmpdir(), 'cprc-mutation-'));
    this.runCount = 0;
    /** The judge process of each target (scripts/mutation-judge.mjs), started on first use. */
    this.judges = new Map();
    /** Observer runs of this worker by kind (judge, judge of one mutant, cprc run, vitest): how many, how long. */
    this.tally = new Map();
    /** Called when a vitest worker thread dies during a run (set by runVitest while it waits). */
    this.onVitestWorkerDied = undefined;
    /** Vitest runners being closed (after a run past its limit): their threads may die on the way. */
    this.vitestClosing = 0;
    // A vitest worker thread that dies under a mutant (a stack or heap it exhausts) makes vitest
    // emit "Worker exited unexpectedly" with nobody listening: thrown, it would end this whole
    // StrykerJS worker, judges included. It fails that vitest run instead (`vitest run` fails
    // for it too); any other uncaught error ends the process as it would have.
    const onUncaught = (err) => {
      if (err?.message === 'Worker exited unexpectedly') {
        if (this.onVitestWorkerDied !== undefined) {
          this.onVitestWorkerDied(err);
          return;
        }
        if (this.vitestClosing > 0) return;
      }
      process.off('uncaughtException', onUncaught);
      process.nextTick(() => {
        throw err;
      });
    };
    process.on('uncaughtException', onUncaught);
  }

  /**
   * Starts, before any mutant, the judges and the vitest runners this sandbox's mutants need: a
   * worker StrykerJS starts again (after a timeout) must not spend a mutant's time limit on
   * starting them, or its next mutant would time out for it.
   */
  async init() {
    const scopes = new Set(this.instrumentedFiles().map((f) => f.scope));
    const starts = [];
    for (const scope of scopes) {
      for (const observer of scope.observers) {
        const [kind, arg] = observer.split(':');
        if (kind === 'vitest') starts.push(this.vitestFor(arg));
        else if (kind === 'suite' && scope.judge === true && this.settings.judge && !this.judges.has(arg)) {
          starts.push(this.judgeFor(arg));
        }
      }
    }
    await Promise.all(starts);
  }

  capabilities() {
    // every mutant runs in fresh processes, so static mutants need no reload of this runner
    return { reloadEnvironment: true };
  }

  async dispose() {
    if (this.tally.size > 0) {
      const kinds = [...this.tally].map(
        ([kind, t]) => `${t.runs} by ${kind} (mean ${Math.round(t.ms / t.runs)} ms)`,
      );
      this.log.info(`observer runs of this worker: ${kinds.join(', ')}`);
    }
    for (const j of this.judges.values()) (await j)?.stop();
    this.judges.clear();
    for (const v of this.vitest.values()) await (await v).dispose?.();
    rmSync(this.work, { recursive: true, force: true });
  }

  /** Counts one observer run of `kind` that started at `started` (ms) in the tally of this worker. */
  count(kind, started) {
    const t = this.tally.get(kind) ?? { runs: 0, ms: 0 };
    t.runs++;
    t.ms += Date.now() - started;
    this.tally.set(kind, t);
    this.runsOfMutant?.push(`${kind} ${Date.now() - started} ms`);
  }

  /** `file` relative to the sandbox root, with `/` separators (the form of the report's names). */
  pathOf(file) {
    return relative(this.root, file).split(sep).join('/');
  }

  /**
   * The vitest runner of StrykerJS for one test folder, in this process: vitest starts once per
   * worker, keeps its per-test coverage and re-runs only the tests that reach a mutant.
   */
  vitestFor(folder) {
    if (!this.vitest.has(folder)) {
      const child = this.injector.provideValue(commonTokens.options, {
        ...this.options,
        vitest: { related: false, configFile: 'scripts/mutation-vitest.config.mjs' },
      });
      const runner = child.injectFunction(vitestPlugins[0].factory);
      this.vitest.set(
        folder,
        runner.init().then(() => {
          // StrykerJS's runner passes vitest one file filter per test to run (a file's name
          // hundreds of times), and vitest compares every filter with every test file of the
          // project: a third of a one-file run. One filter per file selects the same files.
          const start = runner.ctx.start.bind(runner.ctx);
          runner.ctx.start = (filters) => start(filters === undefined ? undefined : [...new Set(filters)]);
          return runner;
        }),
      );
    }
    return this.vitest.get(folder);
  }

  async dryRun(options) {
    try {
      return await this.observeAll(options);
    } catch (err) {
      // StrykerJS retries a dry run that throws without saying why: this says it
      this.log.error(
        `the dry run failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
      );
      throw err;
    }
  }

  /** The dry run: every observer once on the unmutated code, with the mutants each test reaches. */
  async observeAll(options) {
    const files = this.instrumentedFiles();
    const observers = [...new Set(files.flatMap((f) => f.scope.observers))];
    const tests = [];
    const perTest = {};
    const checks = {};
    let staticHits = new Map();
    /** Mutants a vitest observer reached while a test file loaded (switched on before it loads). */
    const loadTime = new Set();
    /** Per source file, the test files whose tests reach one of its mutants. */
    const testedBy = {};
    /** Per vitest test file, what it took on the unmutated code: setup, loading, tests (ms). */
    const fileMs = {};
    const sourceOf = new Map(files.flatMap((f) => f.ids.map((id) => [id, f.file])));
    for (const observer of observers) {
      const coverageDir = join(this.work, `coverage-${observer.replace(/[^a-z0-9]+/gi, '-')}`);
      rmSync(coverageDir, { recursive: true, force: true });
      mkdirSync(coverageDir, { recursive: true });
      const env = {
        CPR_MUTATION_COVERAGE_DIR: coverageDir,
        NODE_OPTIONS: `${BASE_ENV.NODE_OPTIONS ?? ''} --import=${COVERAGE_HOOK.href}`.trim(),
      };
      const started = Date.now();
      if (observer.startsWith('vitest:')) {
        const folder = observer.slice('vitest:'.length);
        const vitest = await this.vitestFor(folder);
        const testFiles = readdirSync(join(this.root, folder), { recursive: true })
          .filter((f) => String(f).endsWith('.test.ts'))
          .map((f) => join(this.root, folder, String(f)));
        const r = await vitest.dryRun({ ...options, coverageAnalysis: 'perTest', testFiles });
        if (r.status !== DryRunStatus.Complete) {
          return r.status === DryRunStatus.Timeout
            ? r
            : { ...r, errorMessage: `${observer}: ${r.errorMessage}` };
        }
        const failed = r.tests.filter((t) => t.status === TestStatus.Failed);
        if (failed.length > 0) {
          return {
            status: DryRunStatus.Error,
            errorMessage: `${observer} fails on the unmutated code: ${failed.map((t) => t.name).join('; ')}`,
          };
        }
        const mine = new Set(files.filter((f) => f.scope.observers.includes(observer)).flatMap((f) => f.ids));
        const keep = (counts) =>
          Object.fromEntries(Object.entries(counts ?? {}).filter(([id]) => mine.has(id)));
        let reached = 0;
        for (const t of r.tests) {
          checks[t.id] = { observer };
          tests.push(t);
          const covered = keep(r.mutantCoverage?.perTest?.[t.id]);
          if (Object.keys(covered).length > 0) perTest[t.id] = covered;
          const testFile = testFileOf(t.id);
          for (const source of new Set(Object.keys(covered).map((id) => sourceOf.get(id)))) {
            testedBy[source] = [...new Set([...(testedBy[source] ?? []), testFile])];
          }
        }
        // What ran outside any test (a test file's modules loading, code at the level of a file
        // or a describe block, hooks around all tests) is counted per test file: vitest loads
        // every test file afresh (isolated), so each test of a file that reached such a mutant
        // reaches it, provided the mutant is on while the file loads (the static activation,
        // which runVitest asks for). StrykerJS would otherwise run every test of every observer.
        const statics = {};
        const idsByFile = new Map();
        for (const t of r.tests) {
          const file = testFileOf(t.id);
          idsByFile.set(file, [...(idsByFile.get(file) ?? []), t.id]);
        }
        for (const f of vitest.ctx?.state?.getFiles() ?? []) {
          const path = this.pathOf(f.filepath);
          fileMs[path] = Math.round(
            (f.setupDuration ?? 0) + (f.collectDuration ?? 0) + (f.result?.duration ?? 0),
          );
          const hits = keep(f.meta?.mutantCoverage?.static);
          const ids = idsByFile.get(path) ?? [];
          for (const [m, n] of Object.entries(hits)) {
            if (ids.length === 0) statics[m] = (statics[m] ?? 0) + n;
            else loadTime.add(m);
          }
          if (ids.length > 0) for (const id of ids) perTest[id] = { ...(perTest[id] ?? {}), ...hits };
        }
        staticHits = new Map([...staticHits, ...Object.entries(statics)]);
        const union = new Set([
          ...Object.keys(statics),
          ...Object.values(perTest).flatMap((c) => Object.keys(c)),
        ]);
        for (const id of union) if (mine.has(id)) reached++;
        this.log.info(
          `${observer}: ${r.tests.length} tests on the unmutated code in ${Date.now() - started} ms, none failed; reaches ${reached} mutants of its scopes`,
        );
        continue;
      }
      const outcome = await this.observe(observer, env, options.timeout, { keepResults: true });
      const timeSpentMs = Date.now() - started;
      if (outcome.kind === 'timeout') {
        return { status: DryRunStatus.Timeout, reason: `${observer}: ${outcome.reason}` };
      }
      if (outcome.kind !== 'survived') {
        const why =
          outcome.kind === 'killed' ? `fails on the unmutated code: ${outcome.message}` : outcome.message;
        return { status: DryRunStatus.Error, errorMessage: `${observer} ${why}` };
      }
      // only the mutants of the scopes this observer judges count as reached by it
      const mine = new Set(files.filter((f) => f.scope.observers.includes(observer)).flatMap((f) => f.ids));
      const keep = (counts) => Object.fromEntries(Object.entries(counts).filter(([id]) => mine.has(id)));
      const { statics, byTest } = this.readCoverage(coverageDir);
      let reached = new Set(Object.keys(keep(Object.fromEntries(statics))));
      if (outcome.checks) {
        // a suite: one StrykerJS test per check, with what it reached while it was current
        const byTitle = new Map();
        for (const c of outcome.checks) {
          checks[c.id] = { title: c.full_title, target: observer.slice('suite:'.length) };
          byTitle.set(c.full_title, [...(byTitle.get(c.full_title) ?? []), c.id]);
          tests.push({
            id: c.id,
            name: `${c.id}: ${c.full_title}`,
            status: c.state === 'skipped' ? TestStatus.Skipped : TestStatus.Success,
            timeSpentMs: c.duration_ms ?? 0,
          });
        }
        for (const [title, counts] of byTest) {
          const ids = byTitle.get(title);
          if (!ids) {
            // hits under a title no check reported: count them as static (every check)
            for (const [id, n] of counts) statics.set(id, (statics.get(id) ?? 0) + n);
            continue;
          }
          const kept = keep(Object.fromEntries(counts));
          for (const id of ids) perTest[id] = { ...(perTest[id] ?? {}), ...kept };
          for (const m of Object.keys(kept)) reached.add(m);
        }
        reached = new Set([...reached, ...Object.keys(keep(Object.fromEntries(statics)))]);
        // What a suite reached outside any check (the reference stack's start, the modules of the
        // suite side loading) is no static mutant to StrykerJS: every check of the suite runs after
        // it on a stack started afresh for the mutant (the judge), or in fresh processes (a cprc
        // run, and the judge's fallback for code that runs while its own modules load). So each
        // check of the suite reaches it: StrykerJS then asks for this suite's checks and the
        // vitest tests that reach the mutant, with a time limit from theirs, rather than every
        // test of every observer with a limit from all of them.
        const outside = keep(Object.fromEntries(statics));
        for (const c of outcome.checks) perTest[c.id] = { ...(perTest[c.id] ?? {}), ...outside };
        this.log.info(
          `${observer}: ${outcome.tests} checks on the unmutated code in ${timeSpentMs} ms, none failed; reaches ${reached.size} mutants of its scopes (${Object.keys(outside).length} outside any check, judged by the whole suite)`,
        );
        continue;
      }
      staticHits = new Map([...staticHits, ...Object.entries(keep(Object.fromEntries(statics)))]);
      this.log.info(
        `${observer}: ${outcome.tests} checks on the unmutated code in ${timeSpentMs} ms, none failed; reaches ${reached.size} mutants of its scopes (${Object.keys(keep(Object.fromEntries(statics))).length} outside any check)`,
      );
    }
    writeFileSync(join(this.root, CHECKS_FILE), JSON.stringify(checks));
    writeFileSync(
      join(this.root, VITEST_PLAN_FILE),
      JSON.stringify({ loadTime: [...loadTime], testedBy, fileMs }),
    );
    if (staticHits.size > 0) {
      this.log.info(
        `${staticHits.size} mutants run outside any test of a test file (static to StrykerJS: each runs every test of its scope)`,
      );
    }
    if (BASE_ENV.CPR_MUTATION_DUMP_COVERAGE) {
      writeFileSync(
        BASE_ENV.CPR_MUTATION_DUMP_COVERAGE,
        JSON.stringify({ static: Object.fromEntries(staticHits), perTest, checks }),
      );
    }
    return {
      status: DryRunStatus.Complete,
      tests,
      mutantCoverage: { static: Object.fromEntries(staticHits), perTest },
    };
  }

  async mutantRun(options) {
    const started = Date.now();
    this.runsOfMutant = [];
    const result = await this.judgeMutant(options);
    // CPR_MUTATION_TIMES=<file>: a line per mutant (id, file, ms, status, why, its observer runs)
    // to see where a run's time goes
    if (BASE_ENV.CPR_MUTATION_TIMES) {
      const why = oneLine(result.reason ?? result.failureMessage ?? result.errorMessage ?? '').slice(0, 120);
      appendFileSync(
        BASE_ENV.CPR_MUTATION_TIMES,
        `${options.activeMutant.id}\t${this.pathOf(options.sandboxFileName)}\t${Date.now() - started}\t${result.status}\t${why}\t${this.runsOfMutant.join(', ')}\n`,
      );
    }
    return result;
  }

  /** The verdict of one mutant (StrykerJS's mutantRun). */
  async judgeMutant(options) {
    const file = this.pathOf(options.sandboxFileName);
    const scope = scopeOf(file);
    if (!scope) {
      return {
        status: MutantRunStatus.Error,
        errorMessage: `${file} is in no mutation scope (scripts/mutation-scopes.mjs)`,
      };
    }
    this.checks ??= existsSync(join(this.root, CHECKS_FILE))
      ? JSON.parse(readFileSync(join(this.root, CHECKS_FILE), 'utf8'))
      : {};
    const env = { __STRYKER_ACTIVE_MUTANT__: options.activeMutant.id };
    // a little before StrykerJS's own limit, so this runner stops its process groups itself (a
    // worker StrykerJS kills at its limit would leave them running)
    const deadline = Date.now() + Math.max(1000, options.timeout - 3000);
    let nrOfTests = 0;
    // an observer that gives no verdict (the mutated reference stack did not start, the harness
    // crashed) does not end the judging: a later observer may still detect the mutant
    let noVerdict;
    /** Runs of observers put off until the others had their say (a cprc run for the judge). */
    const deferred = [];
    /** The result when `outcome` of `observer` decides the mutant (killed, timeout), else undefined. */
    const decide = async (observer, outcome, opts) => {
      const verdict = await this.settle(observer, outcome, env, deadline, opts);
      nrOfTests += verdict.tests ?? 0;
      if (verdict.kind === 'timeout') return { status: MutantRunStatus.Timeout, reason: verdict.reason };
      if (verdict.kind === 'killed') {
        return {
          status: MutantRunStatus.Killed,
          killedBy: verdict.killedBy ?? [observer],
          failureMessage: verdict.message,
          nrOfTests,
        };
      }
      if (verdict.kind === 'harness') noVerdict ??= `no verdict (${observer}): ${verdict.message}`;
      return undefined;
    };
    // A static mutant (code that runs while modules load: StrykerJS runs every test for it) goes to
    // the suites first: a cprc run switches it on in fresh processes, and the suite is a few
    // seconds, where every vitest test of a folder is many. The order changes who detects a
    // mutant first, never whether it is detected.
    const observers = options.reloadEnvironment
      ? [
          ...scope.observers.filter((o) => o.startsWith('suite:')),
          ...scope.observers.filter((o) => !o.startsWith('suite:')),
        ]
      : scope.observers;
    for (const observer of observers) {
      // the checks of this observer that reach the mutant (all of them when StrykerJS gives no filter)
      let only;
      if (options.testFilter) {
        if (observer.startsWith('suite:')) {
          const target = observer.slice('suite:'.length);
          only = options.testFilter.filter((id) => this.checks[id]?.target === target);
        } else {
          only = options.testFilter.filter((id) => this.checks[id]?.observer === observer);
        }
        if (only.length === 0) continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) return { status: MutantRunStatus.Timeout, reason: `${observer} not started in time` };
      const opts = { only, mutantRun: options, judge: scope.judge === true && this.settings.judge };
      const outcome = await this.observe(observer, env, left, opts);
      if (outcome.kind === 'deferred') deferred.push({ observer, later: outcome.later, opts });
      else if (this.toConfirm(outcome)) {
        // survived the checks that reach it: the whole suite's confirmation waits until the
        // other observers had their say (it takes seconds, and a kill by another makes it moot)
        nrOfTests += outcome.tests ?? 0;
        deferred.push({
          observer,
          later: () => this.confirmSurvivor(observer, env, deadline, opts),
          // the checks that execute the mutant passed: no time left is no detection
          noTime: `no verdict (${observer}): survived the checks that reach it; no time was left for the whole-suite confirmation`,
          opts,
        });
      } else {
        const done = await decide(observer, outcome, opts);
        if (done) return done;
      }
    }
    for (const { observer, later, noTime, opts } of deferred) {
      const left = deadline - Date.now();
      if (left <= 0 && noTime !== undefined) {
        noVerdict ??= noTime;
        continue;
      }
      if (left <= 0) return { status: MutantRunStatus.Timeout, reason: `${observer} not started in time` };
      const done = await decide(observer, await later(left), opts);
      if (done) return done;
    }
    if (noVerdict !== undefined) return { status: MutantRunStatus.Error, errorMessage: noVerdict };
    return { status: MutantRunStatus.Survived, nrOfTests };
  }

  /**
   * An observer's final outcome: a mutant that survived only the checks that reach it is judged
   * again by the whole suite, as a full cprc run would judge it.
   */
  async settle(observer, first, env, deadline, opts) {
    if (!this.toConfirm(first)) return first;
    const whole = await this.confirmSurvivor(observer, env, deadline, opts);
    return { ...whole, tests: (first.tests ?? 0) + (whole.tests ?? 0) };
  }

  /** Whether `outcome` survived only the checks that reach the mutant, and the whole suite is to decide. */
  toConfirm(outcome) {
    return outcome.kind === 'survived' && outcome.partial && this.settings.confirmSurvivors;
  }

  /** The whole suite's verdict on a mutant that survived the checks that reach it, as a full cprc run's. */
  async confirmSurvivor(observer, env, deadline, opts) {
    let whole = await this.observe(observer, env, deadline - Date.now(), { ...opts, only: undefined });
    if (whole.kind === 'deferred') whole = await whole.later(deadline - Date.now());
    if (whole.kind === 'timeout') {
      // the checks that execute the mutant finished: a slow whole-suite run is no detection
      return {
        kind: 'harness',
        message: `survived the checks that reach it; the whole-suite confirmation did not finish in time (${whole.reason})`,
      };
    }
    return whole;
  }

  /** Runs one observer; `{ kind: 'survived' | 'killed' | 'harness' | 'timeout', tests, message }`. */
  observe(observer, env, timeoutMs, opts) {
    const [kind, arg] = observer.split(':');
    if (kind === 'suite') {
      return opts.judge && opts.mutantRun
        ? this.judgeSuite(arg, env, timeoutMs, opts)
        : this.runSuite(arg, env, timeoutMs, opts);
    }
    if (kind === 'vitest') return this.runVitest(arg, timeoutMs, opts);
    return Promise.resolve({ kind: 'harness', message: `unknown observer ${observer}` });
  }

  /** The --grep of a run of `only` (check ids), unless they are most of the suite anyway. */
  grepOf(target, only) {
    const ofTarget = Object.values(this.checks ?? {}).filter((c) => c.target === target).length;
    const titles = only?.map((id) => this.checks[id]?.title).filter((t) => t !== undefined) ?? [];
    return only && titles.length === only.length && titles.length < ofTarget * this.settings.grepBelow
      ? titles.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')
      : undefined;
  }

  /**
   * Judges a mutant with the judge process of `target` (scripts/mutation-judge.mjs). A mutant the
   * judge cannot switch on (in code that runs while its suite modules load) and anything the judge
   * gives no verdict on is judged by a real cprc run ({@link runSuite}) instead.
   */
  async judgeSuite(target, env, timeoutMs, opts) {
    const started = Date.now();
    const judge = await this.judgeFor(target);
    const mutant = opts.mutantRun.activeMutant.id;
    if (!judge) return this.runSuite(target, env, timeoutMs, opts);
    const grep = this.grepOf(target, opts.only);
    // a mutant in code that runs while the judge's suite side loads: a judge of its own, with the
    // mutant on from the start (a process, as a cprc run, but one rather than two, and no CA)
    const ownJudge = judge.loadTime.has(mutant);
    const answer = ownJudge
      ? await judgeOnce(this.root, target, this.settings, this.work, { mutant, grep }, timeoutMs)
      : await judge.run({ mutant, grep }, timeoutMs);
    this.count(ownJudge ? 'the judge of one mutant' : 'the judge', started);
    // a judge that is gone (stopped at the limit, or leaving after a run that left anything
    // behind): its successor starts now, not in the next mutant's time
    if (judge.gone) void this.judgeFor(target);
    if (answer.timeout) {
      return { kind: 'timeout', reason: `judge of ${target}: ${answer.timeout}` };
    }
    if (answer.final) {
      return { kind: 'harness', message: `judge of ${target}: ${oneLine(answer.noVerdict)}` };
    }
    if (!answer.tests) {
      // no verdict from the judge (the mutated stack listens elsewhere, or the judge failed): a
      // real cprc run decides, after the other observers (a process is the dearest run; if one
      // of them detects the mutant, its verdict is the same)
      this.log.debug(`judge of ${target}, mutant ${mutant}: ${answer.noVerdict}; judged by cprc run`);
      return { kind: 'deferred', later: (left) => this.runSuite(target, env, left, opts) };
    }
    return verdictOf(target, answer.tests, { complete: true, partial: grep !== undefined });
  }

  /** The judge process of `target`, started once per worker (undefined when it cannot start). */
  judgeFor(target) {
    // every judge the sandbox needs is started by init() and kept (one per target): only a judge
    // that left is started here again
    if (!this.judges.has(target)) {
      this.judges.set(
        target,
        startJudge(this.root, target, this.settings, this.work).catch((err) => {
          this.log.warn(`the judge of ${target} did not start (${err.message}); its mutants get cprc runs`);
          return undefined;
        }),
      );
    }
    return this.judges.get(target).then((j) => {
      // a judge that left (it does after a run that leaves anything behind) is started again
      if (j?.gone) {
        this.judges.delete(target);
        return this.judgeFor(target);
      }
      return j;
    });
  }

  async runSuite(target, env, timeoutMs, { only, keepResults } = {}) {
    const reports = join(this.work, `reports-${target}-${this.runCount++}`);
    // run only the checks that reach the mutant, unless they are most of the suite anyway
    const grep = this.grepOf(target, only);
    const args = [
      join(this.root, 'bin', 'cprc.js'),
      'run',
      '--reference',
      '--target',
      target,
      '--seed',
      String(this.settings.seed),
      '--runs',
      String(this.settings.runs),
      '--timeout',
      String(this.settings.checkTimeoutMs),
      '--reports',
      reports,
      // a backstop: the run stops itself even if this worker is gone
      '--max-duration',
      String(Math.ceil(timeoutMs) + 2000),
      ...(this.settings.bail ? ['--bail'] : []),
      ...(grep ? ['--grep', grep] : []),
    ];
    // a private temporary folder per run: a run killed at its timeout (SIGKILL) cannot remove its
    // reference stack's folder (CA key, run config) itself, so it goes with this one
    const tmp = join(this.work, `tmp-${this.runCount}`);
    mkdirSync(tmp, { recursive: true });
    const runStarted = Date.now();
    const run = await runProcess(process.execPath, args, { ...env, TMPDIR: tmp }, this.root, timeoutMs);
    if (!keepResults) this.count('cprc run', runStarted);
    rmSync(tmp, { recursive: true, force: true });
    try {
      if (run.timedOut)
        return { kind: 'timeout', reason: `cprc run --target ${target} exceeded ${timeoutMs} ms` };
      const file = join(reports, 'results.json');
      if (run.code === 2 || !existsSync(file)) {
        // no check ran: the mutated reference stack did not start (a real run would stop at its
        // preflight with exit 2), or the harness itself crashed; either way there is no verdict
        const what = run.output.includes('reference stack started')
          ? 'the harness crashed'
          : 'the mutated reference stack did not start';
        return {
          kind: 'harness',
          message: `${what}: cprc run --target ${target} exited ${run.code ?? run.signal} without results: ${tail(run.output)}`,
        };
      }
      let results;
      try {
        results = JSON.parse(readFileSync(file, 'utf8'));
      } catch (err) {
        return { kind: 'harness', message: `results.json unreadable: ${err.message}` };
      }
      const tests = results.tests ?? [];
      const outcome = verdictOf(target, tests, {
        complete: !results.incomplete && run.code === 0,
        partial: grep !== undefined,
        why: `cprc run --target ${target} exited ${run.code ?? run.signal}`,
        output: run.output,
      });
      return outcome.kind === 'survived' && keepResults ? { ...outcome, checks: tests } : outcome;
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  }

  async runVitest(folder, timeoutMs, { only, mutantRun }) {
    const vitest = await this.vitestFor(folder);
    ensureVitestSetup();
    if (!this.vitestPlan) {
      const plan = existsSync(join(this.root, VITEST_PLAN_FILE))
        ? JSON.parse(readFileSync(join(this.root, VITEST_PLAN_FILE), 'utf8'))
        : {};
      this.vitestPlan = {
        loadTime: new Set(plan.loadTime ?? []),
        testedBy: plan.testedBy ?? {},
        fileMs: plan.fileMs ?? {},
      };
    }
    // A mutant that loops without end in code that is not its own (so StrykerJS's hit limit never
    // trips) holds the thread, and no test timeout can fire: the run stops at twice what its test
    // files took on the unmutated code, plus VITEST_SLACK_MS, when that is sooner than the
    // mutant's limit (a run is one worker thread per file, one file after the other), or as soon
    // as no test starts or ends for STALL_MS (watchRun)
    const files = only ? [...new Set(only.map(testFileOf))] : undefined;
    const expectedMs = files?.reduce((sum, f) => sum + (this.vitestPlan.fileMs[f] ?? VITEST_SLACK_MS), 0);
    const limitMs =
      expectedMs === undefined ? timeoutMs : Math.min(timeoutMs, 2 * expectedMs + VITEST_SLACK_MS);
    // the test files that test the mutated source file run first (the sequencer of
    // scripts/mutation-vitest.config.mjs, in this process, reads them): a mutant reached while
    // every test file loads is killed by its own module's tests, not after all the others
    const source = this.pathOf(mutantRun.sandboxFileName);
    globalThis.__cprMutationFirstFiles = new Set(this.vitestPlan.testedBy[source] ?? []);
    // `src/validator/rules/iban-valid.ts` -> `/iban-valid.test.ts`
    globalThis.__cprMutationOwnTestFile = `/${basename(source, '.ts')}.test.ts`;
    // per test file, how many of this source file's mutants it killed in this worker so far
    this.killsBySource ??= new Map();
    if (!this.killsBySource.has(source)) this.killsBySource.set(source, new Map());
    const kills = this.killsBySource.get(source);
    globalThis.__cprMutationKills = kills;
    const run = vitest.mutantRun({
      ...mutantRun,
      // a mutant reached while a test file loads is on from before the file loads (each test file
      // loads afresh): otherwise what the file computes as it loads would be unmutated
      ...(this.vitestPlan.loadTime.has(mutantRun.activeMutant.id) ? { mutantActivation: 'static' } : {}),
      timeout: limitMs,
      ...(only ? { testFilter: only } : { testFilter: undefined }),
    });
    // at the limit this runner answers "timeout" itself and replaces only this vitest (its pool
    // is closed, a new one starts now): StrykerJS would restart the whole worker, judges included
    let timer;
    const expired = new Promise((resolvePromise) => {
      timer = setTimeout(
        () => resolvePromise({ expired: `exceeded ${Math.round(limitMs)} ms` }),
        Math.max(1, limitMs),
      );
    });
    const watch = watchRun(vitest.ctx);
    const died = new Promise((resolvePromise) => {
      this.onVitestWorkerDied = () => resolvePromise({ died: true });
    });
    const started = Date.now();
    const r = await Promise.race([run, expired, watch.promise, died]);
    clearTimeout(timer);
    watch.stop();
    this.onVitestWorkerDied = undefined;
    this.count(`vitest ${folder}`, started);
    if (r.expired !== undefined || r.died || r.failed) {
      // This vitest is closed (closeForced: not StrykerJS's dispose, which waits for ever for a
      // thread in a loop that never yields, and removes the setup file that every vitest runner of
      // this worker shares); its successor starts once it is (or after 10 s), so that no thread of
      // this one dies while the successor runs
      run.catch(() => undefined);
      this.vitestClosing++;
      const closed = closeForced(vitest.ctx)
        .catch(() => undefined)
        .finally(() => {
          this.vitestClosing--;
        });
      const settled = new Promise((resolvePromise) => setTimeout(resolvePromise, 10_000).unref());
      this.vitest.set(
        folder,
        Promise.race([closed, settled]).then(() => {
          this.vitest.delete(folder);
          return this.vitestFor(folder);
        }),
      );
      if (r.died) {
        return { kind: 'killed', tests: 0, message: `vitest ${folder}: a test worker exited unexpectedly` };
      }
      if (r.failed) {
        // the id StrykerJS's vitest runner gives the test (its file, then its suites' names and its own)
        const names = [];
        for (let t = r.failed; t !== undefined; t = t.suite) names.unshift(t.name);
        const file = this.pathOf(r.failed.file.filepath);
        kills.set(file, (kills.get(file) ?? 0) + 1);
        const id = `${file}#${names.join(' ').trim()}`;
        return {
          kind: 'killed',
          tests: 1,
          killedBy: [id],
          message: `failed ${oneLine(r.failed.result?.errors?.[0]?.message ?? '')} (the run went on ${AFTER_FAILURE_MS} ms after)`,
        };
      }
      return { kind: 'timeout', reason: `vitest ${folder} ${r.expired}` };
    }
    if (r.status === MutantRunStatus.Killed) {
      for (const file of new Set((r.killedBy ?? []).map(testFileOf)))
        kills.set(file, (kills.get(file) ?? 0) + 1);
      return {
        kind: 'killed',
        tests: r.nrOfTests,
        killedBy: r.killedBy,
        message: `failed ${oneLine(r.failureMessage ?? '')}`,
      };
    }
    if (r.status === MutantRunStatus.Timeout)
      return { kind: 'timeout', reason: r.reason ?? `vitest ${folder}` };
    // A test file that no longer loads, or a hook that throws (its tests then have no result), or
    // an error outside any test: `vitest run` fails for each, and none happens on the unmutated
    // code (the dry run would have stopped). StrykerJS's vitest runner answers the first as a
    // survivor and the last as an error.
    const outside =
      r.status === MutantRunStatus.Error
        ? oneLine(r.errorMessage ?? 'an error outside any test')
        : failedOutsideTests(vitest.ctx?.state?.getFiles() ?? []);
    if (outside !== undefined) {
      return { kind: 'killed', tests: r.nrOfTests ?? 0, message: `vitest ${folder}: ${outside}` };
    }
    if (r.status === MutantRunStatus.Survived) return { kind: 'survived', tests: r.nrOfTests };
    return { kind: 'harness', message: `vitest ${folder}: ${oneLine(r.errorMessage ?? 'error')}` };
  }

  /** Files of the sandbox StrykerJS instrumented, with the ids of their mutants and their scope. */
  instrumentedFiles() {
    const files = [];
    const walk = (dir) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (name.endsWith('.ts')) {
          const rel = this.pathOf(full);
          const scope = scopeOf(rel);
          if (!scope) continue;
          const text = readFileSync(full, 'utf8');
          const ids = new Set();
          for (const m of text.matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)) ids.add(m[1]);
          if (ids.size > 0) files.push({ file: rel, scope, ids: [...ids] });
        }
      }
    };
    walk(join(this.root, 'src'));
    return files;
  }

  /** Adds up the mutant coverage every process of a run wrote: hits outside any test, and per test. */
  readCoverage(dir) {
    const statics = new Map();
    const byTest = new Map();
    const add = (into, counts) => {
      for (const [id, n] of Object.entries(counts ?? {})) into.set(id, (into.get(id) ?? 0) + n);
    };
    for (const name of readdirSync(dir)) {
      if (!name.endsWith('.json')) continue;
      try {
        const c = JSON.parse(readFileSync(join(dir, name), 'utf8'));
        add(statics, c.static);
        for (const [test, counts] of Object.entries(c.perTest ?? {})) {
          if (!byTest.has(test)) byTest.set(test, new Map());
          add(byTest.get(test), counts);
        }
      } catch {
        // a torn file: its process was killed mid-write; its hits are lost (fewer mutants reached)
      }
    }
    return { statics, byTest };
  }
}

/** The test file of a vitest test id (`<file>#<test name>`). */
function testFileOf(id) {
  return id.slice(0, id.indexOf('#'));
}

/**
 * The verdict of a run's check results: killed when a check failed, errored or warned (the
 * reference gives none of these), survived when checks passed and the run went through, no
 * verdict (`harness`) otherwise.
 */
function verdictOf(target, tests, { complete, partial, why = '', output = '' }) {
  // failed, error, warning (and any other state the reference never shows) is a detection
  const detecting = tests.filter((t) => !QUIET_STATES.has(t.state));
  if (detecting.length > 0) {
    const first = detecting[0];
    return {
      kind: 'killed',
      tests: tests.length,
      killedBy: detecting.map((t) => t.id),
      message: detecting
        .slice(0, 3)
        .map((t) => `${t.state} ${t.id}${t === first ? `: ${oneLine(messageOf(t))}` : ''}`)
        .join('; '),
    };
  }
  if (!complete) {
    return { kind: 'harness', message: `${why}, run incomplete without a failing check: ${tail(output)}` };
  }
  if (!tests.some((t) => t.state === 'passed')) {
    return { kind: 'harness', message: `the ${target} suite passed no check` };
  }
  return { kind: 'survived', tests: tests.length, partial };
}

/**
 * Starts the judge process of `target` (scripts/mutation-judge.mjs) in its own process group and
 * a private temporary folder; resolves once it has loaded its suite.
 */
function startJudge(root, target, settings, work) {
  const { child, output, tmp } = spawnJudge(root, target, settings, work, {});
  const judge = {
    gone: false,
    loadTime: new Set(),
    waiting: undefined,
    stop() {
      judge.gone = true;
      killGroup(child);
      rmSync(tmp, { recursive: true, force: true });
    },
    /** One mutant: `{ tests }`, `{ noVerdict }` or `{ timeout }`. */
    run(request, timeoutMs) {
      return new Promise((resolvePromise) => {
        const timer = setTimeout(
          () => {
            judge.waiting = undefined;
            judge.stop();
            resolvePromise({ timeout: `exceeded ${Math.round(timeoutMs)} ms` });
          },
          Math.max(1, timeoutMs),
        );
        judge.waiting = (answer) => {
          clearTimeout(timer);
          judge.waiting = undefined;
          resolvePromise(answer);
        };
        child.send({ type: 'run', ...request });
      });
    },
  };
  return new Promise((resolvePromise, reject) => {
    const timer = setTimeout(() => {
      judge.stop();
      reject(new Error(`not ready in 120 s: ${tail(output())}`));
    }, 120_000);
    child.on('message', (msg) => {
      if (msg?.type === 'ready') {
        clearTimeout(timer);
        judge.loadTime = new Set(msg.loadTime);
        resolvePromise(judge);
      } else if (msg?.type === 'result') {
        // a judge that leaves after this answer takes no further mutant
        if (msg.leaving) judge.gone = true;
        judge.waiting?.(msg);
      }
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      // what it started and left behind (a stdio wallet of its last run) goes with it
      killGroup(child);
      const gone = !judge.gone;
      judge.gone = true;
      rmSync(tmp, { recursive: true, force: true });
      if (gone) {
        // left on its own: after answering (a run that left anything behind), or crashed
        judge.waiting?.({ noVerdict: `the judge exited ${code ?? signal}: ${tail(output())}` });
      }
      reject(new Error(`exited ${code ?? signal}: ${tail(output())}`));
    });
  });
}

/** StrykerJS's vitest setup file, which switches the mutant on in each test file. */
const VITEST_SETUP_SOURCE = fileURLToPath(
  new URL('./stryker-setup.js', import.meta.resolve('@stryker-mutator/vitest-runner')),
);

/**
 * Puts StrykerJS's vitest setup file back if it is gone. Every vitest runner of a worker uses the
 * same copy (`stryker-setup-<worker>.js` in the sandbox), and closing one runner removes it: the
 * others would then run their tests with no mutant switched on, and every mutant would survive them.
 */
function ensureVitestSetup() {
  const copy = resolve(`./stryker-setup-${process.env.STRYKER_MUTATOR_WORKER ?? 0}.js`);
  if (!existsSync(copy)) copyFileSync(VITEST_SETUP_SOURCE, copy);
}

/** A judge process of `target` (scripts/mutation-judge.mjs) in its own group and temporary folder. */
function spawnJudge(root, target, settings, work, env) {
  const tmp = mkdtempSync(join(work, `judge-${target}-`));
  const script = join(root, 'scripts', 'mutation-judge.mjs');
  const spawned = spawnGroup(
    process.execPath,
    [script, target, JSON.stringify(settings)],
    { ...env, TMPDIR: tmp },
    root,
    {
      ipc: true,
    },
  );
  return { ...spawned, tmp };
}

/**
 * Judges one mutant with a judge of its own (scripts/mutation-judge.mjs, one-shot): the mutant is
 * on from before any module of the judge loads. `{ tests }`, `{ noVerdict }` or `{ timeout }`.
 */
function judgeOnce(root, target, settings, work, { mutant, grep }, timeoutMs) {
  const { child, output, tmp } = spawnJudge(root, target, settings, work, {
    CPR_JUDGE_ONCE: '1',
    __STRYKER_ACTIVE_MUTANT__: mutant,
    CPR_JUDGE_GREP: grep ?? '',
  });
  return new Promise((resolvePromise) => {
    let answer;
    const timer = setTimeout(
      () => {
        answer ??= { timeout: `the judge of this mutant exceeded ${Math.round(timeoutMs)} ms` };
        killGroup(child);
      },
      Math.max(1, timeoutMs),
    );
    child.on('message', (msg) => {
      if (msg?.type === 'result') answer ??= msg;
    });
    // leftovers of its group go with it; 'close' comes after its last message
    child.on('exit', () => killGroup(child));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(tmp, { recursive: true, force: true });
      resolvePromise(
        answer ?? { noVerdict: `the judge of this mutant exited ${code ?? signal}: ${tail(output())}` },
      );
    });
  });
}

/**
 * The first failure of a vitest run outside its tests (a test file that did not load, a hook of
 * a file or a describe block that threw), as `<file>: <message>`, or undefined.
 */
function failedOutsideTests(files) {
  const walk = (task, file) => {
    if (task.type === 'test') return undefined;
    if (task.result?.state === 'fail') {
      const error = task.result.errors?.[0];
      return `${relative(process.cwd(), file)}: ${oneLine(error?.message ?? 'failed outside its tests')}`;
    }
    for (const child of task.tasks ?? []) {
      const found = walk(child, file);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const file of files) {
    const found = walk(file, file.filepath);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Kills the process group of `child` (its stack threads, stdio wallets), if any is left. */
function killGroup(child) {
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * Starts a process in its own group (so that the whole group can be killed: cprc, its mocha
 * child, stdio wallets) with this worker's environment plus `env`; `output()` is the tail of what
 * it wrote to stdout and stderr.
 */
function spawnGroup(command, args, env, cwd, { ipc = false } = {}) {
  const child = spawn(command, args, {
    cwd,
    env: { ...BASE_ENV, ...env },
    stdio: ['ignore', 'pipe', 'pipe', ...(ipc ? ['ipc'] : [])],
    detached: true,
  });
  let output = '';
  const keep = (d) => {
    output = (output + d).slice(-4000);
  };
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  return { child, output: () => output };
}

/** Runs a process in its own group; kills the whole group (cprc, mocha child, stdio wallet) at the timeout. */
function runProcess(command, args, env, cwd, timeoutMs) {
  return new Promise((resolvePromise) => {
    const { child, output } = spawnGroup(command, args, env, cwd);
    let timedOut = false;
    let errorText = '';
    const timer = setTimeout(
      () => {
        timedOut = true;
        killGroup(child);
      },
      Math.max(1, timeoutMs),
    );
    child.on('error', (err) => {
      errorText = `spawn failed: ${err.message}`;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      killGroup(child); // leftovers of the group (a stdio wallet the run did not stop)
      resolvePromise({ code, signal, output: `${output()}${errorText}`, timedOut });
    });
  });
}

function messageOf(test) {
  const e = test.error ?? test.message ?? '';
  return typeof e === 'string' ? e : (e.message ?? JSON.stringify(e));
}

function oneLine(text) {
  return String(text).replace(/\s+/g, ' ').slice(0, 300);
}

function tail(text) {
  return oneLine(text.trim().split('\n').slice(-3).join(' '));
}

export const strykerPlugins = [declareClassPlugin(PluginKind.TestRunner, 'cpr', CprTestRunner)];
