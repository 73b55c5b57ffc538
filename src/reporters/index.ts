/**
 * The reports of a run: junit.xml, results.json, summary.md and report.html, all written from
 * the same recorded events (the runner's event stream), each atomically.
 *
 * @packageDocumentation
 */
import { join } from 'node:path';
import { CprcError } from '../errors.js';
import { writeFileAtomic } from './atomic.js';
import { renderHtml } from './html.js';
import { renderJunit } from './junit.js';
import { buildModel, type ReportInput } from './model.js';
import { renderResults } from './results.js';
import { jsonSafe, visibleText, xmlSafe } from './safe-text.js';
import { renderSummary } from './summary.js';
import type { ConformanceResults, Counts } from './types.js';

export { REDACTED, redactConfig, redactHeaders, scrubSecrets } from '../secrets/index.js';
export { writeFileAtomic } from './atomic.js';
export { checkAnchors, escapeHtml, renderHtml, reqAnchor } from './html.js';
export { junitClassname, junitName, renderJunit } from './junit.js';
export {
  applyBaseline,
  buildModel,
  countStates,
  failsAt,
  levelVerdict,
  type ReportInput,
  type ReportModel,
  requirementVerdict,
} from './model.js';
export { commandLine, curlCommand, shellQuote, stdioCommand } from './reproduce.js';
export { renderResults } from './results.js';
export { jsonSafe, terminalLine, visibleDeep, visibleEscape, visibleText, xmlSafe } from './safe-text.js';
export { mdText, partOfRun, renderSummary, SUMMARY_MAX_BYTES, type SummaryOptions } from './summary.js';
export type * from './types.js';

/** What {@link writeReports} wrote. */
export interface WriteReportsResult {
  /** Number of tests in each state. */
  counts: Counts;
  /** Verdict at the level asked: `fail` when a check failed at that level or errored, the run is incomplete, a baseline entry is stale or (`--fail-on-skip`) a check was skipped. */
  verdict: 'pass' | 'fail';
  /** Both verdicts (spec and profile), each with how much ran. */
  verdicts: ConformanceResults['verdicts'];
  /** Level asked. */
  level: ConformanceResults['level'];
  /** Absolute or reportsDir-relative paths of the files written, by report. */
  files: { junit: string; results: string; summary: string; html: string };
}

/**
 * Writes the four reports into `input.reportsDir` (created when missing), each through a
 * temporary file and a rename, so a reader never sees a half-written report. The CLI exits 1
 * when `verdict` is `fail`.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when the event stream has no start event or a malformed
 * event; `CPRC_INTERNAL` when results.json does not match its schema (the other three reports are
 * written first, so the run is still readable); `CPRC_IO` when a file cannot be written.
 * @example
 * ```ts
 * const { verdict, files } = await writeReports({
 *   reportsDir: 'reports', events, catalog: loadCatalog(), ambiguities: loadAmbiguities(),
 *   incomplete: false, config: redactedConfig,
 * });
 * ```
 */
export async function writeReports(input: ReportInput): Promise<WriteReportsResult> {
  const model = buildModel(input);
  const files = {
    junit: join(input.reportsDir, 'junit.xml'),
    results: join(input.reportsDir, 'results.json'),
    summary: join(input.reportsDir, 'summary.md'),
    html: join(input.reportsDir, 'report.html'),
  };
  let results: string | undefined;
  let schemaError: unknown;
  try {
    results = renderResults(model);
  } catch (err) {
    schemaError = err;
  }
  // Whatever a target sent, each artefact stays valid and shows unsafe characters as escapes.
  await writeFileAtomic(files.junit, xmlSafe(renderJunit(model)));
  await writeFileAtomic(files.summary, visibleText(renderSummary(model)));
  await writeFileAtomic(files.html, visibleText(renderHtml(model)));
  if (results === undefined) {
    if (schemaError instanceof CprcError) {
      throw new CprcError(
        schemaError.code,
        `${schemaError.message} (junit.xml, summary.md and report.html were written to ${input.reportsDir})`,
        { cause: schemaError },
      );
    }
    throw schemaError;
  }
  await writeFileAtomic(files.results, jsonSafe(results));
  return {
    counts: model.doc.counts,
    verdict: model.doc.verdict,
    verdicts: model.doc.verdicts,
    level: model.doc.level,
    files,
  };
}
