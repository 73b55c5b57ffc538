/**
 * Mocha trees built in a test as a suite file builds them (`check` registers its test with
 * mocha's globals), run with a runner of their own, under a run context of the test's choosing.
 */
import Mocha from 'mocha';
import { Recorder } from '../../src/drivers/recorder.js';
import type { RunContext } from '../../src/runner/context.js';

/** Runs `suite` with a runner of its own; resolves when it has ended. */
export function runTree(suite: Mocha.Suite): Promise<void> {
  return new Promise((resolve) => {
    new Mocha.Runner(suite, { delay: false }).run(() => resolve());
  });
}

/** Every test of a tree, in order. */
export function testsOf(suite: Mocha.Suite): Mocha.Test[] {
  return [...suite.tests, ...suite.suites.flatMap(testsOf)];
}

/** Mocha's interface, as a suite file sees it. */
export interface Bdd {
  describe: Mocha.SuiteFunction;
  it: Mocha.TestFunction;
  before: Mocha.HookFunction;
}

/**
 * Registers what `define` declares with mocha's globals (as loading a suite file does, which is
 * how `check` registers its test) in a new root.
 */
export function loadTree(define: (bdd: Bdd) => void): Mocha.Suite {
  const mocha = new Mocha();
  const g = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(['describe', 'it', 'before'].map((k) => [k, g[k]]));
  mocha.suite.emit('pre-require', globalThis, 'suite.js', mocha);
  try {
    define(globalThis as unknown as Bdd);
  } finally {
    Object.assign(g, saved);
  }
  return mocha.suite;
}

/** A run context for checks that reach no target (`checksAtOnce` of them at once in the process). */
export function checkContext(checksAtOnce: number, recorder = new Recorder()): RunContext {
  return {
    config: {},
    drivers: {},
    seed: 1,
    runs: 10,
    targets: ['payee'],
    channels: [],
    recorder,
    reportsDir: '/nonexistent',
    timeoutMs: 5_000,
    maxWaitMs: 1_000,
    level: 'profile',
    checksAtOnce,
  } as unknown as RunContext;
}
