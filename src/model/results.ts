/**
 * The results model: what a run produces, shared by the runner (parent and mocha child), the
 * suite library, the drivers (exchanges) and the reporters. Every type is the one generated from
 * `schemas/tool/results.schema.json`; the NDJSON event stream `events.ndjson` (in a temporary
 * folder `<reportsDir>/.cprc-events-*`, removed once the reports are written)
 * is made of {@link RunEvent}s.
 *
 * @packageDocumentation
 */
import type {
  ConformanceResults,
  FailureLevel,
  Exchange as GeneratedExchange,
  Level,
  Property,
  State,
  Target,
  TestResult,
} from '../generated/tool/results.js';

export type { ConformanceResults, FailureLevel, Level, State, Target, TestResult };

/** All targets, in the default run order. */
export const TARGETS: readonly Target[] = ['payee', 'wallet', 'operator'];

/** The channel a wallet check went through (profile section 3); `channel` of a {@link TestResult}. */
export type WalletChannel = NonNullable<TestResult['channel']>;

/**
 * One recorded exchange with a target, secrets already redacted (Authorization headers, private
 * keys, credentials and identity tokens replaced by `[redacted]`); headers as lower-case names to
 * string values; bodies truncated to 8 KiB with a `…[truncated N bytes]` marker. For a stdio
 * exchange `url` is the wallet command's name.
 */
export type Exchange = GeneratedExchange;

/** Fast-check details of a property check, recorded so any failure can be reproduced. */
export type PropertyInfo = Property;

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
  /** Conformance level asked (`--level`); absent in streams of older versions (read as `profile`). */
  level?: Level;
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

/** One line of the run's event stream (`events.ndjson`). */
export type RunEvent = StartEvent | TestEvent | EndEvent;

/**
 * The state of a failed assertion at the level asked (profile introduction, conformance levels):
 * a SPEC MUST fails at both levels; a PROFILE MUST fails at level `profile` and is a warning at
 * level `spec`; SHOULD/MAY (and a doubtful MUST graded by `warn()`) are warnings at both.
 *
 * @example
 * ```ts
 * stateAtLevel('profile', 'spec'); // 'warning'
 * stateAtLevel('profile', 'profile'); // 'failed'
 * ```
 */
export function stateAtLevel(failure: FailureLevel, level: Level): Extract<State, 'failed' | 'warning'> {
  if (failure === 'spec') return 'failed';
  if (failure === 'profile' && level === 'profile') return 'failed';
  return 'warning';
}

/**
 * What a check decided about its test: the whole outcome, produced by `check()` of the suite
 * library and attached to the mocha test it registered (under {@link CHECK_OUTCOME}); the
 * runner's mocha reporter serialises it, adding only what mocha alone knows (a timeout).
 */
export interface CheckOutcome {
  /** Decided state; `undefined` while the check has not ended (a timeout leaves it so). */
  state?: State;
  /** Level of what failed, for failed/warning. */
  failure_level?: FailureLevel;
  /** Message for failed/warning/error. */
  message?: string;
  /** Reason of a skip. */
  skip_reason?: string;
  /** Requirement IDs of the check. */
  requirements: string[];
  /** Stable slug of the check (`<channel>/<slug>` for wallet checks); the test id is `<target>/<slug>`. */
  slug: string;
  /** Wallet channel the check ran through. */
  channel?: WalletChannel;
  /** Property details. */
  property?: PropertyInfo;
  /** Real time the check slept for an instant to pass (`waitRealTime`), ms. */
  waited_ms?: number;
  /**
   * Evidence chosen by the check itself (e.g. a property's counterexample replay); when absent the
   * reporter attaches every exchange recorded while the test ran.
   */
  exchanges?: Exchange[];
  /**
   * State on the target the check shares with other checks (a principal's balance, a test clock:
   * `<target>:clock`), declared by the suite (`check(..., { shares })`): `cprc run --jobs` runs the
   * checks naming one name in one process, one after another, and a test clock's after every other
   * check of its target. A scheduling declaration, never reported.
   */
  shares?: readonly string[];
  /** The check runs with no other check of its target running, and beside no other race (`check(..., { alone: true })`); never reported. */
  alone?: boolean;
  /** The check is far longer than the others (`check(..., { long: true })`): `--jobs` starts it first; never reported. */
  long?: boolean;
}

/** Key under which `check()` attaches its {@link CheckOutcome} to the mocha test it registered. */
export const CHECK_OUTCOME: unique symbol = Symbol.for('cprc.check-outcome');

/** The outcome a check attached to a mocha test object, if any. */
export function outcomeOfTest(test: object): CheckOutcome | undefined {
  return (test as { [CHECK_OUTCOME]?: CheckOutcome })[CHECK_OUTCOME];
}
