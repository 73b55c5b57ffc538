/**
 * Types shared by the runner (parent and mocha child), the suite library and the reporters.
 * The NDJSON event stream `<reportsDir>/.raw/events.ndjson` is made of {@link RunEvent}s.
 * @packageDocumentation
 */

import type {
  ConformanceResults,
  Exchange as GeneratedExchange,
  Target as GeneratedTarget,
  TestResult as GeneratedTestResult,
  Property,
  State,
} from '../generated/tool/results.js';

/** A target the suite can test (`Target` of `schemas/tool/results.schema.json`). */
export type Target = GeneratedTarget;

/** All targets, in the default run order. */
export const TARGETS: readonly Target[] = ['payee', 'wallet', 'operator'];

/** The channel a wallet check went through (profile section 3); `channel` of a {@link TestResult}. */
export type WalletChannel = NonNullable<GeneratedTestResult['channel']>;

/** Final state of one check (docs/conventions.md "Result states"); `State` of the results schema. */
export type ResultState = State;

/**
 * One recorded exchange with a target (`Exchange` of the results schema), secrets already
 * redacted (Authorization headers, private keys, credentials and identity tokens replaced by
 * `[redacted]`); headers as lower-case names to string values (repeated fields joined by `, `);
 * bodies truncated to 8 KiB with a `…[truncated N bytes]` marker. For a stdio exchange `url` is
 * the wallet command's name.
 */
export type Exchange = GeneratedExchange;

/**
 * Fast-check details of a property check, recorded so any failure can be reproduced (`Property`
 * of the results schema).
 */
export type PropertyInfo = Property;

/**
 * One finished test, as written to the NDJSON stream and read by the reporters (`TestResult` of
 * the results schema). `file` is relative to the suites root, e.g. `payee/5-authentication.js`;
 * `id` is the first 16 hex digits of sha256(target + "\n" + full title).
 */
export type TestResult = GeneratedTestResult;

/** The first event of a run. */
export interface StartEvent {
  type: 'start';
  /** Version of cpr-conformance (package.json). */
  suite_version: string;
  /** Seed of the run: `cprc run --seed N` reproduces it. */
  seed: number;
  /** Number of runs per property. */
  runs: number;
  /** Targets selected for the run. */
  targets: Target[];
  /** URLs of each target from the run configuration (no secrets); results.json's `target_urls`. */
  target_urls: ConformanceResults['target_urls'];
  /** RFC 3339 time the run started. */
  started_at: string;
}

/** One finished test. */
export interface TestEvent extends TestResult {
  type: 'test';
}

/** The last event of a run that was not interrupted. */
export interface EndEvent {
  type: 'end';
  /** RFC 3339 time the run finished. */
  finished_at: string;
}

/** One line of `<reportsDir>/.raw/events.ndjson`. */
export type RunEvent = StartEvent | TestEvent | EndEvent;

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
  /** Absolute path of the reports folder; events go to `<reportsDir>/.raw/events.ndjson`. */
  reportsDir: string;
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
  /** Absolute path of an implementer's driver module (`--driver`). */
  driverModule?: string;
}

/** Environment variable naming the child's options file. */
export const CHILD_OPTIONS_ENV = 'CPRC_CHILD_OPTIONS';
