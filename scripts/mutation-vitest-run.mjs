// How the `cpr` test runner (scripts/mutation-runner.mjs) watches and ends the vitest runs that
// judge a mutant: StrykerJS's vitest runner waits for a run to end, and a mutant can keep one from
// ending (a loop that never yields, a hook waiting for a server the mutant never lets close).

/**
 * A vitest run in which no test or suite starts or ends for this long is held by code that never
 * returns: twice the 6 s test timeout (scripts/mutation-vitest.config.mjs), as a test and a hook
 * around it may each take almost all of theirs; the slowest test or hook of the observed folders
 * takes under 2 s on the unmutated code.
 */
export const STALL_MS = 12_000;
/** How long a vitest run may go on after a test failed before its verdict is taken as given. */
export const AFTER_FAILURE_MS = 1000;

/**
 * Watches the current run of `ctx` (a Vitest). Resolves `{ expired }` when no test or suite starts
 * or ends for `stallMs`: the run's thread is held by code that never returns (no test timeout
 * fires in a loop that never yields). Resolves `{ failed }` (the failed test's task) when the run
 * goes on `afterFailureMs` after a test failed: a test that fails is a detection, and what keeps
 * the run (a hook waiting for what the mutant broke) adds only its own timeout. `stop()` ends the
 * watch.
 */
export function watchRun(ctx, { stallMs = STALL_MS, afterFailureMs = AFTER_FAILURE_MS } = {}) {
  let timer;
  const promise = new Promise((resolvePromise) => {
    let seen = -1;
    let since = Date.now();
    let failedAt;
    timer = setInterval(() => {
      const files = ctx?.state?.getFiles() ?? [];
      const failed = failedTest(files);
      if (failed !== undefined) {
        failedAt ??= Date.now();
        if (Date.now() - failedAt >= afterFailureMs) resolvePromise({ failed });
      }
      const now = progressOf(files);
      if (now !== seen) {
        seen = now;
        since = Date.now();
      } else if (Date.now() - since >= stallMs) {
        resolvePromise({ expired: `started or ended no test for ${stallMs} ms` });
      }
    }, 250);
  });
  return { promise, stop: () => clearInterval(timer) };
}

/**
 * Closes `ctx` (a Vitest) during a run that may never end: a first cancel asks the run to stop,
 * which makes the close that follows a forced one, terminating the worker threads at once even in
 * a loop that never yields. A plain close waits for such a thread for ever while it spins on.
 */
export function closeForced(ctx) {
  ctx.cancelCurrentRun('keyboard-input').catch(() => undefined);
  return ctx.close();
}

/** How far a run has got: its files, plus its tasks that started, plus those that ended. */
function progressOf(files) {
  let n = files.length;
  const walk = (task) => {
    if (task.result !== undefined) n++;
    if (task.result?.state !== undefined && task.result.state !== 'run' && task.result.state !== 'queued')
      n++;
    for (const child of task.tasks ?? []) walk(child);
  };
  for (const file of files) walk(file);
  return n;
}

/** The first failed test of vitest's file tasks, or undefined. */
function failedTest(files) {
  const walk = (task) => {
    if (task.type === 'test') return task.result?.state === 'fail' ? task : undefined;
    for (const child of task.tasks ?? []) {
      const found = walk(child);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  for (const file of files) {
    const found = walk(file);
    if (found !== undefined) return found;
  }
  return undefined;
}
