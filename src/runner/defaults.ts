// Defaults of a run, in a module of their own so the CLI can show them without loading the runner.

/** Default per-test timeout of mocha (ms). */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;

/**
 * Default longest real wait (ms) an expiry check makes when the target has no test clock
 * (`--max-wait`, `timeouts.max_wait_ms`); a check needing longer is skipped naming the wait.
 */
export const DEFAULT_MAX_WAIT_MS = 30_000;
/** Default wall-clock bound of a whole run (ms): 30 minutes. */
export const DEFAULT_MAX_DURATION_MS = 30 * 60_000;
/** Default time the child gets to stop after an interruption before it is killed (ms). */
export const DEFAULT_GRACE_MS = 5_000;
/** Default number of runs per property. */
export const DEFAULT_RUNS = 100;

/**
 * Checks at once of a bare `cprc run --jobs` (no number), in a process a core: sized for a
 * target across a network, where a check spends most of its time waiting for answers, not on the
 * runner's CPU. See the README (Performance) for the measurements behind it.
 */
export const DEFAULT_JOBS = 16;
