/**
 * What changed between two runs (`cprc diff old.json new.json`): checks whose state changed,
 * matched by their stable check ID (`<target>/<channel?>/<slug>`); requirements newly failing
 * or fixed; property checks run with another seed. A regression is a check or requirement that
 * fails (failed or error) in the new run and did not in the old one.
 */
import type { ConformanceResults, State, TestResult } from '../model/results.js';
import { terminalLine } from '../reporters/safe-text.js';

/** A check state, or `absent` when the run has no check of that ID. */
export type CheckState = State | 'absent';
/** A requirement verdict, or `absent` when the run's catalog has no such requirement. */
export type RequirementState = ConformanceResults['requirements'][number]['verdict'] | 'absent';

/** One check whose state differs. */
export interface CheckChange {
  /** Stable check ID. */
  id: string;
  /** Title in the new run (the old one when the check is gone). */
  title: string;
  before: CheckState;
  after: CheckState;
  /** Requirement IDs the check names (new run, else old). */
  requirements: string[];
  /** The check fails now (failed or error, not an expected failure of the baseline) and did not before. */
  regression: boolean;
  /** The new run's message (failed, warning, error) or skip reason. */
  message?: string;
}

/** One requirement whose verdict differs. */
export interface RequirementChange {
  id: string;
  before: RequirementState;
  after: RequirementState;
}

/** A property check run with different seeds. */
export interface SeedChange {
  id: string;
  before: number;
  after: number;
}

/** Everything {@link diffResults} finds. */
export interface ResultsDiff {
  /** Suite versions, run seeds and levels of both runs. */
  runs: {
    before: { suite_version: string; seed: number; level?: string; started_at: string };
    after: { suite_version: string; seed: number; level?: string; started_at: string };
  };
  /** Checks whose state changed (added and removed checks included), by ID. */
  checks: CheckChange[];
  /** Requirements failing (failed or error) now that were not. */
  newlyFailing: RequirementChange[];
  /** Requirements failing before that pass now (passed or warning). */
  fixed: RequirementChange[];
  /** Other requirement verdict changes (e.g. passed -> skipped, failed -> untested). */
  otherRequirementChanges: RequirementChange[];
  /** Property checks present in both runs whose seeds differ. */
  seeds: SeedChange[];
  /** Notes for a reader (different suite versions or levels: states may not compare). */
  notes: string[];
  /** True when something newly fails: a check or a requirement. */
  regression: boolean;
}

const FAILING = new Set<string>(['failed', 'error']);

function failing(test: TestResult | undefined): boolean {
  return test !== undefined && FAILING.has(test.state) && !test.expected_failure;
}

function byId<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  return new Map(items.map((item) => [item.id, item]));
}

/**
 * Tests by check ID; should a run hold one ID twice (a test that is not a check, recorded
 * twice), the later ones are told apart by their rank (`<id>#2`), so none is lost.
 */
function testsById(tests: readonly TestResult[]): Map<string, TestResult> {
  const out = new Map<string, TestResult>();
  const seen = new Map<string, number>();
  for (const test of tests) {
    const n = (seen.get(test.id) ?? 0) + 1;
    seen.set(test.id, n);
    out.set(n === 1 ? test.id : `${test.id}#${n}`, test);
  }
  return out;
}

/**
 * Compares two results documents.
 *
 * @example
 * ```ts
 * const d = diffResults(readResults('old.json').doc, readResults('new.json').doc);
 * if (d.regression) process.exitCode = 1;
 * ```
 */
export function diffResults(before: ConformanceResults, after: ConformanceResults): ResultsDiff {
  const oldTests = testsById(before.tests);
  const newTests = testsById(after.tests);
  const checks: CheckChange[] = [];
  const seeds: SeedChange[] = [];
  for (const id of new Set([...oldTests.keys(), ...newTests.keys()])) {
    const a = oldTests.get(id);
    const b = newTests.get(id);
    const was: CheckState = a?.state ?? 'absent';
    const now: CheckState = b?.state ?? 'absent';
    const aSeed = a?.property?.seed;
    const bSeed = b?.property?.seed;
    if (aSeed !== undefined && bSeed !== undefined && aSeed !== bSeed)
      seeds.push({ id, before: aSeed, after: bSeed });
    if (was === now && Boolean(a?.expected_failure) === Boolean(b?.expected_failure)) continue;
    const shown = (b ?? a) as TestResult;
    const message = b?.message ?? b?.skip_reason;
    checks.push({
      id,
      title: shown.title,
      before: was,
      after: now,
      requirements: [...(shown.requirements ?? [])],
      regression: failing(b) && !failing(a),
      ...(message !== undefined ? { message } : {}),
    });
  }
  checks.sort((x, y) => x.id.localeCompare(y.id));
  seeds.sort((x, y) => x.id.localeCompare(y.id));

  const oldReqs = byId(before.requirements);
  const newReqs = byId(after.requirements);
  const newlyFailing: RequirementChange[] = [];
  const fixed: RequirementChange[] = [];
  const otherRequirementChanges: RequirementChange[] = [];
  for (const id of [...new Set([...oldReqs.keys(), ...newReqs.keys()])].sort()) {
    const was: RequirementState = oldReqs.get(id)?.verdict ?? 'absent';
    const now: RequirementState = newReqs.get(id)?.verdict ?? 'absent';
    if (was === now) continue;
    const change = { id, before: was, after: now };
    if (FAILING.has(now) && !FAILING.has(was)) newlyFailing.push(change);
    else if (FAILING.has(was) && (now === 'passed' || now === 'warning')) fixed.push(change);
    else otherRequirementChanges.push(change);
  }

  const notes: string[] = [];
  if (before.suite_version !== after.suite_version) {
    notes.push(
      `the runs used different suite versions (${before.suite_version}, ${after.suite_version}): checks may have been added, removed or changed`,
    );
  }
  if ((before.level ?? 'profile') !== (after.level ?? 'profile')) {
    notes.push(
      `the runs were graded at different levels (${before.level ?? 'profile'}, ${after.level ?? 'profile'}): a PROFILE failure is a warning at level spec`,
    );
  }
  for (const [doc, which] of [
    [before, 'old'],
    [after, 'new'],
  ] as const) {
    if (doc.incomplete) notes.push(`the ${which} run is incomplete: checks it never ran show as absent`);
  }
  const run = (doc: ConformanceResults) => ({
    suite_version: doc.suite_version,
    seed: doc.seed,
    ...(doc.level ? { level: doc.level } : {}),
    started_at: doc.started_at,
  });
  return {
    runs: { before: run(before), after: run(after) },
    checks,
    newlyFailing,
    fixed,
    otherRequirementChanges,
    seeds,
    notes,
    regression: checks.some((c) => c.regression) || newlyFailing.length > 0,
  };
}

/** The first line of a target's text, shown inert (no escape sequence, bidi control or line break). */
function firstLine(text: string, max = 160): string {
  const line = text.split('\n')[0] ?? '';
  return terminalLine(line.length > max ? `${line.slice(0, max - 1)}…` : line);
}

/** The diff for a person (plain text, one item a line; IDs and messages made inert for a terminal). */
export function formatDiff(d: ResultsDiff, oldLabel: string, newLabel: string): string {
  const out: string[] = [`cprc diff ${oldLabel} -> ${newLabel}`];
  const { before: b, after: a } = d.runs;
  out.push(
    `  suite ${b.suite_version} -> ${a.suite_version}; seed ${b.seed} -> ${a.seed}; level ${b.level ?? 'profile'} -> ${a.level ?? 'profile'}`,
  );
  for (const note of d.notes) out.push(`  note: ${note}`);
  const width = Math.min(60, Math.max(0, ...d.checks.map((c) => c.id.length)));
  out.push('', `checks whose state changed (${d.checks.length}):`);
  for (const c of d.checks) {
    out.push(
      `  ${c.regression ? '!' : ' '} ${terminalLine(c.id).padEnd(width)}  ${c.before} -> ${c.after}  [${terminalLine(c.requirements.join(' '))}]` +
        (c.message && c.after !== 'passed' ? `\n      ${firstLine(c.message)}` : ''),
    );
  }
  const reqs = (title: string, list: RequirementChange[]): void => {
    out.push('', `${title} (${list.length})${list.length ? ':' : ''}`);
    for (const r of list) out.push(`    ${terminalLine(r.id)}  ${r.before} -> ${r.after}`);
  };
  reqs('requirements newly failing', d.newlyFailing);
  reqs('requirements fixed', d.fixed);
  reqs('other requirement changes', d.otherRequirementChanges);
  out.push('', `property seeds that differ (${d.seeds.length})${d.seeds.length ? ':' : ''}`);
  for (const s of d.seeds) out.push(`    ${terminalLine(s.id)}  ${s.before} -> ${s.after}`);
  const regressions = d.checks.filter((c) => c.regression).length;
  out.push(
    '',
    d.regression
      ? `REGRESSION: ${regressions} check(s) and ${d.newlyFailing.length} requirement(s) newly failing`
      : 'no regression: nothing fails that did not fail before',
  );
  return `${out.join('\n')}\n`;
}
