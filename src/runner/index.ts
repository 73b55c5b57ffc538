/**
 * The runner: `runSuites` (parent side of `cprc run`), config loading, preflight, the baseline, and
 * the mocha child's work (`child.ts`; its process entry is `src/cli/child.ts`).
 * @packageDocumentation
 */
export { loadBaseline } from './baseline.js';
export { type ChildIo, runChildProcess } from './child.js';
export {
  describeConfigError,
  type LoadedConfig,
  loadRunConfig,
  selectTargets,
  targetUrls,
} from './config.js';
export { getRunContext, hasRunContext, type RunContext } from './context.js';
export { listSuiteFiles } from './files.js';
export {
  applyShard,
  assignShards,
  checkIdOf,
  type PlanUnit,
  planDigest,
  planUnits,
  type ShardPlan,
  type ShardSpec,
  selectChecks,
  timingWeight,
} from './plan.js';
export { type PreflightProbe, preflight, preflightProbes } from './preflight.js';
export { idsFromTitle, progressLine, testId } from './reporter.js';
export {
  configDigest,
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_MAX_WAIT_MS,
  DEFAULT_RUNS,
  DEFAULT_TEST_TIMEOUT_MS,
  failedCheckIds,
  listSuiteChecks,
  type RunSuitesOptions,
  type RunSuitesResult,
  readEvents,
  runSuites,
} from './run.js';
export * from './types.js';
