/**
 * The runner: `runSuites` (parent side of `cprc run`), config loading, preflight, and the types of
 * the NDJSON event stream shared with the reporters. The mocha child entry is `child.ts`.
 * @packageDocumentation
 */
export { failureState } from './classify.js';
export {
  describeConfigError,
  type LoadedConfig,
  loadRunConfig,
  selectTargets,
  targetUrls,
} from './config.js';
export { type CheckOutcome, getRunContext, hasRunContext, type RunContext } from './context.js';
export { listSuiteFiles } from './files.js';
export { type PreflightProbe, preflight, preflightProbes } from './preflight.js';
export { idsFromTitle, progressLine, testId } from './reporter.js';
export {
  DEFAULT_GRACE_MS,
  DEFAULT_MAX_DURATION_MS,
  DEFAULT_RUNS,
  DEFAULT_TEST_TIMEOUT_MS,
  type RunSuitesOptions,
  type RunSuitesResult,
  readEvents,
  runSuites,
} from './run.js';
export * from './types.js';
