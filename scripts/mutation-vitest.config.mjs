// Vitest configuration of the vitest observers while StrykerJS judges mutants with them: the
// project's configuration plus scripts/mutation-vitest-setup.mjs (bounded, seeded properties) and
// the fastest test files first.
import { relative } from 'node:path';
import { defineConfig, mergeConfig } from 'vitest/config';
import { BaseSequencer } from 'vitest/node';
import base from '../vitest.config.ts';

/**
 * The test files that reach a mutant: the one named after the mutated source file, then those that
 * test the mutated source file, then the others; within a group, the files that killed most of the
 * source file's mutants first, then the fastest (by their last duration; files not run yet first).
 * A mutant's run ends at its first failing test (bail), and the quick focused tests kill most mutants:
 * vitest's own order (the slowest first) would run the long property files first for every
 * mutant. The order changes no verdict, only how soon it comes.
 */
class FastestFirst extends BaseSequencer {
  async sort(files) {
    const cache = this.ctx.cache;
    const rel = (spec) => relative(this.ctx.config.root, spec.moduleId).split('\\').join('/');
    const cost = (spec) => cache.getFileTestResults(`${spec.project.name}:${rel(spec)}`)?.duration ?? -1;
    // the test files of the mutated source file first (set by scripts/mutation-runner.mjs, which
    // drives this vitest in the same process)
    const first = globalThis.__cprMutationFirstFiles ?? new Set();
    // before them, the test file named after the mutated source file (`iban-valid.test.ts` for
    // `rules/iban-valid.ts`): it kills most of the mutants it reaches
    const own = globalThis.__cprMutationOwnTestFile;
    const rank = (spec) => (own !== undefined && rel(spec).endsWith(own) ? 0 : first.has(rel(spec)) ? 1 : 2);
    // within a group, the files that killed more of this source file's mutants so far first
    const kills = globalThis.__cprMutationKills ?? new Map();
    const killed = (spec) => kills.get(rel(spec)) ?? 0;
    return [...files].sort((a, b) => rank(a) - rank(b) || killed(b) - killed(a) || cost(a) - cost(b));
  }
}

// biome-ignore lint/style/noDefaultExport: vitest reads the default export of its configuration file
export default mergeConfig(
  base,
  defineConfig({
    test: {
      setupFiles: [new URL('./mutation-vitest-setup.mjs', import.meta.url).pathname],
      // A mutant that makes a test wait for ever fails that test here (a detection), rather than
      // hold its worker to StrykerJS's limit. The slowest test or hook of the observed folders
      // takes under 2 s (properties at 10 runs; the wallet's retrieval give-up tests wait 1 s):
      // 6 s leaves room for instrumented code on busy cores. (At 15 s for the validator's tests,
      // the 23 mutants of the full run that hung one cost about 6 of its 84 worker-minutes.)
      testTimeout: 6_000,
      hookTimeout: 6_000,
      sequence: { sequencer: FastestFirst },
    },
  }),
);
