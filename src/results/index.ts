/**
 * Working with results.json files (`cpr-conformance/results`): reading them, signed bundles,
 * the difference of two runs, the interoperability matrix and re-rendering the reports.
 *
 * @example
 * ```ts
 * import { diffResults, readResults } from 'cpr-conformance/results';
 * const d = diffResults(readResults('old.json').doc, readResults('new.json').doc);
 * ```
 * @packageDocumentation
 */
export {
  BUNDLE_JWS_TYP,
  BUNDLE_TYPE,
  BUNDLE_VERSION,
  type BundleStatement,
  type BundleVerification,
  type CreateBundleOptions,
  createBundle,
  type Digest,
  generateSigningKeyPair,
  keyThumbprint,
  loadPrivateKey,
  loadPublicKey,
  type SuiteDigests,
  suiteDigests,
  verifyBundle,
} from './bundle.js';
export {
  type CheckChange,
  type CheckState,
  diffResults,
  formatDiff,
  type RequirementChange,
  type RequirementState,
  type ResultsDiff,
  type SeedChange,
} from './diff.js';
export {
  buildMatrix,
  type Matrix,
  type MatrixColumn,
  type MatrixInput,
  type MatrixRow,
  type MatrixVerdict,
  renderMatrixHtml,
  renderMatrixMarkdown,
} from './matrix.js';
export { mergeShards } from './merge.js';
export { asResults, type LoadedResults, parseResults, readResults } from './read.js';
export { catalogOfRun, eventsFromResults, rerenderReports } from './rerender.js';
