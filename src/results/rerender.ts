/**
 * Re-rendering the four reports of a past run from its results.json (`cprc report`): the
 * document is turned back into the run's event stream and handed to the reporters' own entry
 * point (`writeReports`), so the reports are the ones `cprc run` would have written.
 */
import { loadCoverage } from '../catalog/coverage.js';
import { loadAmbiguities, loadCatalog, type Requirement } from '../catalog/index.js';
import type { ConformanceResults, RunEvent } from '../model/results.js';
import { type WriteReportsResult, writeReports } from '../reporters/index.js';

/**
 * The event stream a run that produced `doc` recorded: a start event, one event per test in the
 * order they finished, and an end event when the run finished.
 *
 * @example
 * ```ts
 * eventsFromResults(doc)[0]; // { type: 'start', suite_version: '0.1.0', seed: 42, ... }
 * ```
 */
export function eventsFromResults(doc: ConformanceResults): RunEvent[] {
  const events: RunEvent[] = [
    {
      type: 'start',
      suite_version: doc.suite_version,
      seed: doc.seed,
      runs: doc.runs,
      targets: [...doc.targets],
      ...(doc.level ? { level: doc.level } : {}),
      target_urls: doc.target_urls ?? {},
      started_at: doc.started_at,
    },
  ];
  for (const test of doc.tests) events.push({ ...test, type: 'test' });
  if (doc.finished_at) events.push({ type: 'end', finished_at: doc.finished_at });
  return events;
}

/**
 * The catalog as the run saw it: the requirements results.json lists (its `requirements`, with
 * the level and kind they had then), texts from this installation's catalog; a requirement this
 * installation no longer knows keeps its ID, level and kind with a note for its text. So the
 * verdicts re-rendered are the run's even when the catalog has moved on.
 */
export function catalogOfRun(doc: ConformanceResults, current: readonly Requirement[]): Requirement[] {
  const byId = new Map(current.map((requirement) => [requirement.id, requirement]));
  return doc.requirements.map((verdict) => {
    const known = byId.get(verdict.id);
    const base: Requirement = known ?? {
      id: verdict.id,
      source:
        verdict.kind === 'PROFILE' ? 'PROFILE' : verdict.id.startsWith('CP-') ? 'CASHPACK-1.0' : 'CPR-1.0',
      section: '?',
      text: `(not in the catalog of cpr-conformance ${doc.suite_version} installed here)`,
      level: verdict.level,
      kind: verdict.kind,
      actor: 'document',
    };
    const { untestable: _untestable, ...rest } = base;
    return {
      ...rest,
      level: verdict.level,
      kind: verdict.kind,
      ...(verdict.untestable ? { untestable: verdict.untestable } : {}),
    } as Requirement;
  });
}

function coverageOrNone(): ReturnType<typeof loadCoverage> {
  try {
    return loadCoverage();
  } catch {
    return undefined;
  }
}

/**
 * Writes junit.xml, results.json, summary.md and report.html for `doc` into `reportsDir`, with
 * the run's requirements ({@link catalogOfRun}) and this installation's ambiguity register. The
 * run's baseline outcomes and recorded command line are kept; results of a version that did not
 * record the command get reports that say so (with suite version, start time and targets) and a
 * `cprc run` line with the run's seed, runs, level and targets instead.
 *
 * @throws CprcError from the reporters (`CPRC_IO` when a report cannot be written).
 */
export async function rerenderReports(
  doc: ConformanceResults,
  reportsDir: string,
): Promise<WriteReportsResult> {
  const coverage = coverageOrNone();
  const baselineEntries = (doc.baseline?.entries ?? []).map((entry) => ({
    ...(entry.check ? { check: entry.check } : {}),
    ...(entry.requirement ? { requirement: entry.requirement } : {}),
    reason: entry.reason,
  }));
  return writeReports({
    reportsDir,
    events: eventsFromResults(doc),
    catalog: catalogOfRun(doc, loadCatalog().requirements),
    ambiguities: loadAmbiguities().ambiguities,
    ...(coverage ? { coverage } : {}),
    incomplete: doc.incomplete,
    ...(doc.incomplete_reason ? { incomplete_reason: doc.incomplete_reason } : {}),
    config: (doc.config_summary ?? {}) as Record<string, unknown>,
    ...(doc.command && doc.command.length > 0 ? { command: doc.command } : {}),
    failOnSkip: doc.fail_on_skip === true,
    run: {
      ...(doc.config_digest ? { config_digest: doc.config_digest } : {}),
      ...(doc.shard ? { shard: doc.shard } : {}),
      ...(doc.selection ? { selection: doc.selection } : {}),
    },
    ...(doc.baseline
      ? { baseline: { file: doc.baseline.file, document: { entries: baselineEntries } } }
      : {}),
  });
}
