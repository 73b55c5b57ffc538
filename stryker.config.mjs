// StrykerJS 9.6 configuration of `npm run mutation` (docs/mutation.md). Mutants are judged by the
// `cpr` test runner (scripts/mutation-runner.mjs): the conformance suite of the mutated target run
// against the reference stack built from the mutated sources, and the validator's vitest tests.
import { SCOPES } from './scripts/mutation-scopes.mjs';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
// biome-ignore lint/style/noDefaultExport: StrykerJS reads the default export of its configuration file
export default {
  testRunner: 'cpr',
  plugins: ['./scripts/mutation-runner.mjs'],
  mutate: SCOPES.flatMap((s) => s.mutate),
  // The dry run measures which mutants each observer reaches; the others are "no coverage".
  coverageAnalysis: 'perTest',
  // One build of the instrumented sandbox (mutant switching): tsc, then the schema validators.
  buildCommand: 'node scripts/mutation-build.mjs',
  // The sandbox gets the sources only: dist/ is built there, reports/ is ours.
  ignorePatterns: ['/dist', '/reports', '/.cprc-tmp', '/.stryker-tmp'],
  // No type checker (TypeScript 7 has no compiler API) and no tsconfig rewriting: the preprocessor
  // parses tsconfig files with the TypeScript 5 API, which TypeScript 7 lacks. No file has this
  // name, so the preprocessor leaves the tsconfig files alone.
  checkers: [],
  tsconfigFile: 'stryker-no-tsconfig-rewrite.json',
  reporters: ['html', 'json', 'progress', 'clear-text'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, reportTests: false, reportMutants: true, reportScoreTable: true },
  incrementalFile: 'reports/stryker-incremental.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
  concurrency: 2,
  // A mutant's limit: the time of the checks that reach it on the unmutated code x 1.5 + 20 s
  // (a survivor's confirmation by the whole suite, about 3 to 7 s; busy cores); past it the
  // mutant is a timeout (detected: a run against it would not finish).
  timeoutFactor: 1.5,
  timeoutMS: 20_000,
  dryRunTimeoutMinutes: 15,
  cprMutation: {
    seed: 20260601,
    runs: 10,
    // the slowest check takes about 1 s against the unmutated reference
    checkTimeoutMs: 4000,
    bail: true,
    grepBelow: 0.6,
    confirmSurvivors: true,
  },
};
