/**
 * The reports of a run: junit.xml, results.json, summary.md and report.html, all written from
 * the same recorded events (`<reportsDir>/.raw/events.ndjson`), each atomically.
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
import { renderSummary } from './summary.js';
import type { Counts } from './types.js';

export { writeFileAtomic } from './atomic.js';
export { escapeHtml, renderHtml } from './html.js';
export { renderJunit } from './junit.js';
export {
  buildModel,
  countStates,
  type ReportInput,
  type ReportModel,
  requirementVerdict,
  runVerdict,
} from './model.js';
export { REDACTED, redactConfig, redactHeaders, scrubSecrets } from './redact.js';
export { commandLine, curlCommand, shellQuote, stdioCommand } from './reproduce.js';
export { renderResults } from './results.js';
export { mdText, renderSummary, SUMMARY_MAX_BYTES, type SummaryOptions } from './summary.js';
export type * from './types.js';

/** What {@link writeReports} wrote. */
export interface WriteReportsResult {
  /** Number of tests in each state. */
  counts: Counts;
  /** `fail` when any test failed or errored, or the run is incomplete; `pass` otherwise. */
  verdict: 'pass' | 'fail';
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
  await writeFileAtomic(files.junit, renderJunit(model));
  await writeFileAtomic(files.summary, renderSummary(model));
  await writeFileAtomic(files.html, renderHtml(model));
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
  await writeFileAtomic(files.results, results);
  return { counts: model.doc.counts, verdict: model.doc.verdict, files };
}
