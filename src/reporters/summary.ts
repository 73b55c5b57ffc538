/**
 * summary.md: a short Markdown report fit for `$GITHUB_STEP_SUMMARY` and a GitLab job log:
 * verdict, counts, failed MUST requirements with one-line reasons, errors, warnings, skips with
 * reasons, the seed and the command that reproduces the run.
 */

import type { TestResult } from '../model/results.js';
import type { ReportModel } from './model.js';
import { commandLine, commandNotRecorded } from './reproduce.js';
import { waitSummary } from './waits.js';

/** GitHub's limit for one step summary (1 MiB). */
export const SUMMARY_MAX_BYTES = 1024 * 1024;

/** Options of {@link renderSummary}. */
export interface SummaryOptions {
  /** Size limit in bytes (default {@link SUMMARY_MAX_BYTES}); the text is cut at a line, with a note. */
  maxBytes?: number;
}

/**
 * Escapes text from a target (hostile) for one Markdown line: HTML special characters become
 * entities, Markdown punctuation is backslash-escaped, line breaks become spaces, and the result
 * is cut at `max` characters.
 */
export function mdText(text: string, max = 300): string {
  const oneLine = text.replace(/[\r\n\t]+/g, ' ').replace(/\p{Cc}/gu, '');
  const cut = oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
  return cut
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/([\\`*_[\]|~])/g, '\\$1');
}

function testLabel(test: TestResult): string {
  return `${test.target}${test.channel ? `/${test.channel}` : ''}: ${mdText(test.title, 200)}`;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes at a line boundary, with a note saying so. */
function truncate(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text, 'utf8') <= maxBytes) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  const note = (dropped: number): string =>
    `\n> **Truncated**: this summary reached the ${maxBytes}-byte limit; ${dropped} more lines are in results.json and report.html.\n`;
  let size = Buffer.byteLength(note(lines.length), 'utf8');
  for (const line of lines) {
    const lineSize = Buffer.byteLength(line, 'utf8') + 1;
    if (size + lineSize > maxBytes) break;
    kept.push(line);
    size += lineSize;
  }
  return `${kept.join('\n')}\n${note(lines.length - kept.length)}`;
}

/**
 * What part of a run these results are, for a reader: one shard (`--shard`), or a selection of
 * checks (`--last-failed`, `cprc replay`); `undefined` for a whole run.
 * @example
 * ```ts
 * partOfRun({ shard: { index: 1, total: 4, ... } }); // 'Shard 1/4 of a run: ...'
 * ```
 */
export function partOfRun(doc: Pick<ReportModel['doc'], 'shard' | 'selection'>): string | undefined {
  const parts: string[] = [];
  if (doc.shard) {
    parts.push(
      `Shard ${doc.shard.index}/${doc.shard.total} of a run (${doc.shard.checks} checks, balanced by ${doc.shard.balanced_by}): ` +
        'its verdicts cover this slice only; join every shard with "cprc merge".',
    );
  }
  if (doc.selection) {
    parts.push(
      `Only ${doc.selection.checks.length} selected checks ran (${doc.selection.source})` +
        `${doc.selection.missing && doc.selection.missing.length > 0 ? `; not in this suite: ${doc.selection.missing.join(', ')}` : ''}.`,
    );
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/**
 * Renders summary.md. Sections: an "incomplete" banner when the run was interrupted, the verdict
 * line, the counts table, failed MUST requirements (with the first failing test's reason),
 * other failed requirements, errors, warnings, skipped tests grouped by reason, requirements
 * named by tests but missing from the catalog, and the seed with the command to reproduce.
 *
 * @example
 * ```ts
 * const md = renderSummary(buildModel(input));
 * ```
 */
export function renderSummary(model: ReportModel, options: SummaryOptions = {}): string {
  const { doc } = model;
  const byId = new Map(doc.tests.map((test) => [test.id, test]));
  const catalog = new Map(model.catalog.map((requirement) => [requirement.id, requirement]));
  const out: string[] = [];

  out.push(
    `# CPR conformance: ${doc.verdict === 'pass' ? 'PASS' : 'FAIL'} (${doc.level}): ${doc.verdicts[doc.level].must_exercised} of ${doc.verdicts[doc.level].must_applicable} applicable MUST requirements exercised`,
    '',
  );
  if (doc.incomplete) {
    out.push(
      `> [!WARNING]`,
      `> **Incomplete run**: ${mdText(doc.incomplete_reason ?? 'the run was interrupted')}. ` +
        `These results cover only the ${doc.counts.total} tests that finished; the verdict is FAIL until a full run completes.`,
      '',
    );
  }
  const part = partOfRun(doc);
  if (part) out.push(`> [!NOTE]`, `> ${mdText(part)}`, '');
  out.push(
    `cpr-conformance ${mdText(doc.suite_version)} · targets: ${doc.targets.join(', ') || '(none)'} · ` +
      `started ${mdText(doc.started_at)}${doc.finished_at ? ` · finished ${mdText(doc.finished_at)}` : ''}`,
    '',
    `Level asked: **${doc.level}** (the verdict above and the exit status follow it)${doc.fail_on_skip ? '; --fail-on-skip' : ''}.`,
    '',
    `- SPEC conformance: ${mdText(doc.verdicts.spec.summary)}`,
    `- PROFILE conformance: ${mdText(doc.verdicts.profile.summary)}`,
    '',
    '| passed | failed | warning | skipped | error | expected failure | total |',
    '|---:|---:|---:|---:|---:|---:|---:|',
    `| ${doc.counts.passed} | ${doc.counts.failed} | ${doc.counts.warning} | ${doc.counts.skipped} | ${doc.counts.error} | ${doc.counts.expected_failure} | ${doc.counts.total} |`,
    '',
  );

  const failedReqs = doc.requirements.filter((requirement) => requirement.verdict === 'failed');
  const reason = (testIds: string[], state: TestResult['state']): string => {
    const test = testIds.map((id) => byId.get(id)).find((t) => t?.state === state);
    return test ? `${mdText(test.message ?? '(no message)')} (${testLabel(test)})` : '';
  };
  const requirementLine = (requirement: (typeof failedReqs)[number], state: TestResult['state']): string => {
    const entry = catalog.get(requirement.id);
    const where = entry ? ` (${mdText(entry.source)} §${mdText(entry.section)}, ${requirement.kind})` : '';
    return `- \`${requirement.id}\`${where}: ${reason(requirement.tests, state)}`;
  };
  const failedMust = failedReqs.filter((requirement) => requirement.level === 'MUST');
  if (failedMust.length > 0) {
    out.push(`## Failed MUST requirements (${failedMust.length})`, '');
    for (const requirement of failedMust) out.push(requirementLine(requirement, 'failed'));
    out.push('');
  }
  const failedOther = failedReqs.filter((requirement) => requirement.level !== 'MUST');
  if (failedOther.length > 0) {
    out.push(`## Other failed requirements (${failedOther.length})`, '');
    for (const requirement of failedOther) out.push(requirementLine(requirement, 'failed'));
    out.push('');
  }
  const listTests = (
    heading: string,
    state: TestResult['state'],
    text: (test: TestResult) => string,
  ): void => {
    const tests = doc.tests.filter((test) => test.state === state && test.expected_failure === undefined);
    if (tests.length === 0) return;
    out.push(`## ${heading} (${tests.length})`, '');
    for (const test of tests) out.push(`- ${testLabel(test)}: ${text(test)}`);
    out.push('');
  };
  const failedWithoutRequirement = doc.tests.filter(
    (test) => test.state === 'failed' && !test.requirements.some((id) => catalog.has(id)),
  );
  if (failedWithoutRequirement.length > 0) {
    out.push(`## Failed tests naming no catalog requirement (${failedWithoutRequirement.length})`, '');
    for (const test of failedWithoutRequirement)
      out.push(`- ${testLabel(test)}: ${mdText(test.message ?? '(no message)')}`);
    out.push('');
  }
  const expected = doc.tests.filter((test) => test.expected_failure !== undefined);
  if (expected.length > 0) {
    out.push(`## Expected failures, listed in the baseline (${expected.length})`, '');
    for (const test of expected)
      out.push(
        `- ${testLabel(test)}: ${mdText(test.message ?? '(no message)')} (baseline: ${mdText(test.expected_failure ?? '')})`,
      );
    out.push('');
  }
  const stale = doc.baseline?.entries.filter((entry) => entry.status === 'stale') ?? [];
  if (stale.length > 0) {
    out.push(`## Stale baseline entries: their checks now pass; remove them (${stale.length})`, '');
    for (const entry of stale)
      out.push(
        `- ${mdText([entry.check, entry.requirement].filter(Boolean).join(' '))}: ${mdText(entry.reason)}`,
      );
    out.push('');
  }
  listTests('Errors (the check could not run)', 'error', (test) => mdText(test.message ?? '(no message)'));
  listTests(
    'Warnings',
    'warning',
    (test) =>
      `${mdText(test.message ?? '(no message)')}${test.failure_level ? ` (${test.failure_level})` : ''}`,
  );

  const skipped = doc.tests.filter((test) => test.state === 'skipped');
  if (skipped.length > 0) {
    const byReason = new Map<string, TestResult[]>();
    for (const test of skipped) {
      const key = test.skip_reason ?? '(no reason given)';
      byReason.set(key, [...(byReason.get(key) ?? []), test]);
    }
    out.push(`## Skipped (${skipped.length}; skipped never counts as passed)`, '');
    for (const [why, tests] of byReason) {
      out.push(`- ${mdText(why)}: ${tests.length} test${tests.length === 1 ? '' : 's'}`);
      for (const test of tests.slice(0, 10)) out.push(`  - ${testLabel(test)}`);
      if (tests.length > 10) out.push(`  - … and ${tests.length - 10} more`);
    }
    out.push('');
  }
  if (doc.unknown_requirements.length > 0) {
    out.push(
      `## Requirement IDs missing from the catalog (${doc.unknown_requirements.length})`,
      '',
      doc.unknown_requirements.map((id) => `\`${id.replace(/`/g, '')}\``).join(', '),
      '',
    );
  }
  out.push(
    '## Reproduce',
    '',
    model.commandRecorded
      ? `Seed ${doc.seed}, ${doc.runs} runs per property; ${waitSummary(doc.tests)}. To run again with the same inputs:`
      : `Seed ${doc.seed}, ${doc.runs} runs per property; ${waitSummary(doc.tests)}. ${mdText(commandNotRecorded(doc))} ` +
          'A run with the same seed, runs, level and targets (give your configuration):',
    '',
    '```sh',
    commandLine(model.command).replace(/```/g, '` ` `'),
    '```',
    '',
    'Details of every failure (requests, responses, curl lines, counterexamples): report.html; all data: results.json.',
    '',
  );
  return truncate(out.join('\n'), options.maxBytes ?? SUMMARY_MAX_BYTES);
}
