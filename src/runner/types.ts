/**
 * Types shared by the runner (parent and mocha child), the suite library and the reporters.
 * The NDJSON event stream `<reportsDir>/.raw/events.ndjson` is made of {@link RunEvent}s.
 * @packageDocumentation
 */

/** A target the suite can test. */
export type Target = 'payee' | 'wallet' | 'operator';

/** All targets, in the default run order. */
export const TARGETS: readonly Target[] = ['payee', 'wallet', 'operator'];

/** The channel a wallet check went through (profile section 3). */
export type WalletChannel = 'http' | 'stdio';

/** Final state of one check (docs/conventions.md "Result states"). */
export type ResultState = 'passed' | 'failed' | 'warning' | 'skipped' | 'error';

/**
 * One recorded exchange with a target, secrets already redacted (Authorization headers, private
 * keys, credentials and identity tokens replaced by `[redacted]`); bodies truncated to 8 KiB
 * with a `…[truncated N bytes]` marker.
 */
export interface Exchange {
  /** `http` for an HTTP(S) exchange, `stdio` for one JSON line to a wallet command. */
  kind: 'http' | 'stdio';
  /** HTTP method (http only). */
  method?: string;
  /** Request URL (http) or the command name (stdio). */
  url?: string;
  /** Request headers, lower-case names. */
  request_headers?: Record<string, string>;
  /** Request body as sent. */
  request_body?: string;
  /** HTTP status of the response. */
  status?: number;
  /** Response headers, lower-case names. */
  response_headers?: Record<string, string>;
  /** Response body as received (truncated to 8 KiB, marked). */
  response_body?: string;
  /** Wall time of the exchange in milliseconds. */
  duration_ms: number;
  /** Transport error, when the exchange did not complete (refused, timeout, oversize, TLS). */
  error?: string;
}

/** Fast-check details of a property check, recorded so any failure can be reproduced. */
export interface PropertyInfo {
  /** Seed given to fast-check. */
  seed: number;
  /** fast-check replay path of the failing run (with the seed, replays the counterexample). */
  path?: string;
  /** Number of runs asked for. */
  num_runs: number;
  /** The shrunk counterexample, printed by fast-check. */
  counterexample?: string;
}

/** One finished test, as written to the NDJSON stream and read by the reporters. */
export interface TestResult {
  /** Stable id: first 16 hex digits of sha256(target + "\n" + full title). */
  id: string;
  /** The test's own title, including its `[ID ...]` prefix. */
  title: string;
  /** Titles of the enclosing describe blocks and the test, joined by spaces. */
  full_title: string;
  /** Suite file relative to the suites root, e.g. `payee/5-authentication.js`. */
  file: string;
  /** Target the test belongs to (the first folder under the suites root). */
  target: Target;
  /** Wallet channel, for wallet checks run through {@link WalletChannel}s. */
  channel?: WalletChannel;
  /** Requirement IDs the test checks (from its title). */
  requirements: string[];
  /** Final state. */
  state: ResultState;
  /** What went wrong (failed, warning, error), or a note on a passed check. */
  message?: string;
  /** Why the test was skipped (skipped only). */
  skip_reason?: string;
  /** Duration in milliseconds. */
  duration_ms: number;
  /** Exchanges recorded while the test (and its hooks) ran. */
  exchanges: Exchange[];
  /** Property details, for checks that ran a fast-check property. */
  property?: PropertyInfo;
}

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
  /** URLs of each target from the run configuration (no secrets). */
  target_urls: Partial<Record<Target, Record<string, string | string[]>>>;
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
