/**
 * Run context of the mocha child: set by `child.ts` before any suite file is loaded, read by the
 * suite library (`suites/_lib`). One run per process.
 * @packageDocumentation
 */
import type { Recorder } from '../drivers/recorder.js';
import type { Drivers } from '../drivers/types.js';
import { CprcError } from '../errors.js';
import type { RunConfig } from '../generated/tool/run-config.js';
import type { Level, Target, WalletChannel } from '../model/results.js';

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
  /** Longest real wait an expiry check may make when the target has no test clock (`--max-wait`), ms. */
  maxWaitMs: number;
  /** Conformance level asked (`--level`): a failed PROFILE MUST is `failed` at `profile`, a warning at `spec`. */
  level: Level;
  /**
   * Runs of one property kept in flight at once when the property declares its runs independent
   * (`assertProperty(..., { overlap: true })`): 1 in a serial run, {@link OVERLAPPING_RUNS} in a
   * child of `cprc run --jobs`.
   */
  propertyLanes?: number;
  /**
   * A private folder of the run that its processes share (`cprc run --jobs`), for what one
   * process makes once and the others read (the mock payee's certificates); none in a serial run.
   */
  sharedDir?: string;
  /**
   * Checks this process runs at once (`cprc run --jobs`: one mocha runner each); 1 (or absent)
   * in a serial run, whose checks the suites then follow without async-local storage.
   */
  checksAtOnce?: number;
}

/**
 * Runs of a property with independent runs that a child of a `--jobs` run keeps in flight at once
 * (at a 50 ms round trip a property of 100 derivations then takes under a second instead of 5 s); a
 * target sees at most this many times `--jobs` exchanges at once.
 */
export const OVERLAPPING_RUNS = 8;

let current: RunContext | undefined;

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
