/**
 * Types of the runner itself: the options the parent hands the mocha child. The results model
 * (targets, states, test results, run events) is `src/model/results.ts`.
 * @packageDocumentation
 */
import type { ConformanceResults, Level, Target } from '../model/results.js';

/**
 * Options handed by the parent to the mocha child, as a JSON file named in the environment
 * variable {@link CHILD_OPTIONS_ENV}.
 */
export interface ChildOptions {
  /** Absolute path of the run configuration file. */
  configPath: string;
  /** Absolute path of the compiled suites root (e.g. `<package>/dist/suites`). */
  suitesRoot: string;
  /** Targets to run (folders under `suitesRoot`). */
  targets: Target[];
  /** Extra folders under `suitesRoot` whose target is given by their own first sub-folder (e.g. `smoke`). */
  suiteFolders?: string[];
  /** Absolute path of the reports folder (suites may put artefacts there). */
  reportsDir: string;
  /**
   * Private temporary folder of the run (`<reportsDir>/.cprc-events-XXXXXX`): the child appends the event stream
   * to `events.ndjson` and writes the plan of a sharded or selected run to `plan.json`; the parent
   * removes it once the reports are written.
   */
  eventsDir: string;
  /** Run only this slice of the plan (`--shard INDEX/TOTAL`). */
  shard?: { index: number; total: number };
  /** Durations (ms) by check id that weigh the shard plan (`--shard-timings`); absent: by number of checks. */
  shardTimings?: Record<string, number>;
  /** Run only the checks with these ids (`--last-failed`, `cprc replay`). */
  only?: string[];
  /**
   * One of the children of a `cprc run --jobs N` run (0-based index of `total`), running `slots`
   * units at once: units are dealt by the parent over IPC (`jobs.ts`).
   */
  jobs?: { index: number; total: number; slots: number };
  /** List the checks the run would run (`<eventsDir>/list.json`) and run none (`cprc run --list`). */
  list?: boolean;
  /** Seed of the run. */
  seed: number;
  /** Runs per property. */
  runs: number;
  /** Mocha `--grep` (a requirement ID or text). */
  grep?: string;
  /** Stop at the first failure. */
  bail: boolean;
  /** Mocha per-test timeout in ms. */
  timeoutMs: number;
  /** Longest real wait an expiry check may make without a test clock (`--max-wait`), ms. */
  maxWaitMs: number;
  /** Absolute path of an implementer's driver module (`--driver`). */
  driverModule?: string;
  /** Conformance level asked (`--level`): decides whether a failed PROFILE MUST is failed or a warning. */
  level: Level;
}

/** What the child tells the parent about its plan (`<eventsDir>/plan.json`), when sharded or selected. */
export interface ChildPlan {
  /** The shard run, with the digest of the whole plan and the units kept. */
  shard?: NonNullable<ConformanceResults['shard']>;
  /** Ids asked for that no check has. */
  missing?: string[];
}

/** Environment variable naming the child's options file. */
export const CHILD_OPTIONS_ENV = 'CPRC_CHILD_OPTIONS';

/** One check a run would run (`cprc run --list`): nothing is sent to a target to list it. */
export interface ListedCheck {
  /** Results id: `<target>/<channel?>/<slug>`. */
  id: string;
  /** Full mocha title, `[ID ...] title` within its describe blocks. */
  title: string;
  /** Requirement IDs the check names. */
  requirements: string[];
}
