/**
 * Run context of the mocha child: set by `child.ts` before any suite file is loaded, read by the
 * suite library (`suites/_lib`) and by the runner's mocha reporter. One run per process.
 * @packageDocumentation
 */
import type { Recorder } from '../drivers/recorder.js';
import type { Drivers, RunConfig } from '../drivers/types.js';
import { CprcError } from '../errors.js';
import type { PropertyInfo, ResultState, Target, WalletChannel } from './types.js';

/** Everything a suite can know about the run. */
export interface RunContext {
  /** The loaded run configuration (paths resolved). Contains secrets: never print it. */
  config: RunConfig;
  /** Drivers of the configured targets. */
  drivers: Drivers;
  /** Seed of the run (`--seed`). */
  seed: number;
  /** Runs per property (`--runs`). */
  runs: number;
  /** `--grep` of the run, if any. */
  grep?: string;
  /** Targets of the run. */
  targets: Target[];
  /** Wallet channels configured (in order), e.g. `['http', 'stdio']`. */
  channels: WalletChannel[];
  /** Records exchanges as evidence (redacting). */
  recorder: Recorder;
  /** Reports folder of the run (suites may put artefacts such as QR images there). */
  reportsDir: string;
  /** Per-test timeout in ms. */
  timeoutMs: number;
}

/**
 * What a check decided about its test, read by the reporter when the test ends. Set by the suite
 * library; a test without an outcome is classified from mocha's own state.
 */
export interface CheckOutcome {
  /** Decided state; `undefined` means "whatever mocha says" (passed or failed). */
  state?: ResultState;
  /** Message for failed/warning/error. */
  message?: string;
  /** Reason of a skip. */
  skip_reason?: string;
  /** Requirement IDs of the check. */
  requirements?: string[];
  /** Stable slug of the check (`<channel>/<slug>` for wallet checks); the test id is `<target>/<slug>`. */
  slug?: string;
  /** Wallet channel the check ran through. */
  channel?: WalletChannel;
  /** Property details. */
  property?: PropertyInfo;
}

let current: RunContext | undefined;
const outcomes = new WeakMap<object, CheckOutcome>();

/** Installs the run context (child only, once, before suites are loaded). */
export function setRunContext(ctx: RunContext): void {
  current = ctx;
}

/**
 * The run context. Throws a clear error when called outside `cprc run` (e.g. a suite file
 * loaded by a plain mocha command).
 */
export function getRunContext(): RunContext {
  if (!current) {
    throw new CprcError(
      'CPRC_USAGE',
      'no run context: conformance suites run only under "cprc run" (they are not plain mocha files)',
    );
  }
  return current;
}

/** True when a run context is installed. */
export function hasRunContext(): boolean {
  return current !== undefined;
}

/** Returns the outcome record of a mocha test, creating it. */
export function outcomeOf(test: object): CheckOutcome {
  let o = outcomes.get(test);
  if (!o) {
    o = {};
    outcomes.set(test, o);
  }
  return o;
}

/** Returns the outcome record of a mocha test if a check made one. */
export function peekOutcome(test: object): CheckOutcome | undefined {
  return outcomes.get(test);
}
