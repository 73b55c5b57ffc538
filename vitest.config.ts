import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most of the time of the slow files (self-test, hostile targets, package) is spent waiting on
    // child processes: one worker more than the cores keeps both cores busy (vitest's default on
    // a 2-core machine is a single worker).
    maxWorkers: availableParallelism() + 1,
    // The run gets a private TMPDIR and fails naming any temporary entry it leaves (issue 10).
    globalSetup: ['test/_support/tmp-guard.ts'],
  },
});
