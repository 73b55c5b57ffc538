/**
 * Merging the parts of a sharded run (`cprc run --shard INDEX/TOTAL` in several CI jobs) back
 * into the results of one run (`cprc merge`): the parts must come from the same suite version,
 * seed, runs, level, targets, configuration (by digest, secrets removed), selection, baseline
 * and plan, and together hold every shard exactly once with no check twice.
 */
import { CprcError } from '../errors.js';
import type { ConformanceResults, TestResult } from '../model/results.js';
import type { LoadedResults } from './read.js';

/** What must be equal in every part, by name, and how to read it. */
const SAME: ReadonlyArray<[string, (doc: ConformanceResults) => unknown]> = [
  ['suite version', (d) => d.suite_version],
  ['seed', (d) => d.seed],
  ['runs per property', (d) => d.runs],
  ['level', (d) => d.level],
  ['targets', (d) => [...d.targets].sort().join(',')],
  ['configuration digest (secrets removed)', (d) => d.config_digest],
  ['--fail-on-skip', (d) => d.fail_on_skip === true],
  ['selection', (d) => JSON.stringify(d.selection ?? null)],
  [
    'baseline',
    (d) =>
      JSON.stringify(
        (d.baseline?.entries ?? []).map((e) => [e.check ?? null, e.requirement ?? null, e.reason]),
      ),
  ],
  ['number of shards', (d) => d.shard?.total],
  ['plan digest', (d) => d.shard?.plan_digest],
];

/** Options of a part's command line that name the part, not the run: `--opt value` or `--opt=value`. */
const PART_OPTIONS = ['--shard', '--shard-timings', '--reports'];

/**
 * The command line of the whole run from a part's: without `--shard`, `--shard-timings` and
 * `--reports` (the seed, runs, level, targets and configuration are those of every part).
 *
 * @example
 * ```ts
 * wholeRunCommand(['cprc', 'run', '--reference', '--shard', '1/2', '--reports', 's1', '--seed', '7']);
 * // ['cprc', 'run', '--reference', '--seed', '7']
 * ```
 */
export function wholeRunCommand(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (PART_OPTIONS.includes(arg)) {
      i += 1; // and its value
      continue;
    }
    if (PART_OPTIONS.some((option) => arg.startsWith(`${option}=`))) continue;
    out.push(arg);
  }
  return out;
}

function usage(message: string): never {
  throw new CprcError('CPRC_INPUT_INVALID', message);
}

/**
 * Merges the parts of one sharded run into the results.json document of one run: tests in the
 * order of the whole run (`position`), earliest start, latest finish, incomplete when any part
 * is; no `shard` member and no `position`; the command line of the first part without its
 * `--shard`, `--shard-timings` and `--reports` ({@link wholeRunCommand}). Counts, verdicts and requirement verdicts are left to
 * the reporters (`rerenderReports`), which recompute them from the tests.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` naming the files when a part is not a shard, parts
 * differ in what must be equal, a shard is missing or given twice, or a check is in two parts.
 * @example
 * ```ts
 * const doc = mergeShards([readResults('a/results.json'), readResults('b/results.json')]);
 * await rerenderReports(doc, 'reports');
 * ```
 */
export function mergeShards(parts: readonly LoadedResults[]): ConformanceResults {
  if (parts.length === 0) usage('give the results.json of every shard of the run');
  for (const part of parts) {
    if (!part.doc.shard) {
      usage(
        `${part.path} is not a shard of a run (it has no "shard" member): merge the results.json written by "cprc run --shard INDEX/TOTAL"`,
      );
    }
    if (!part.doc.config_digest) {
      usage(`${part.path} has no "config_digest": it was written by an older cprc; run the shards again`);
    }
  }
  const first = parts[0] as LoadedResults;
  for (const [what, read] of SAME) {
    const expected = read(first.doc);
    const other = parts.find((part) => read(part.doc) !== expected);
    if (other) {
      usage(
        `${other.path} and ${first.path} differ in ${what} (${JSON.stringify(read(other.doc))} vs ${JSON.stringify(expected)}): ` +
          'they are not parts of the same run; run every shard with the same cprc version, --seed, --runs, --level, targets and configuration',
      );
    }
  }
  const total = first.doc.shard?.total ?? 0;
  const byIndex = new Map<number, string>();
  for (const part of parts) {
    const index = part.doc.shard?.index ?? 0;
    const seen = byIndex.get(index);
    if (seen) usage(`shard ${index}/${total} is given twice (${seen} and ${part.path}): the parts overlap`);
    byIndex.set(index, part.path);
  }
  const missing = Array.from({ length: total }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0) {
    usage(
      `shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${total}`).join(', ')} missing: give the results.json of every shard`,
    );
  }
  const owner = new Map<string, string>();
  const tests: Array<{ test: TestResult; part: number; at: number }> = [];
  parts.forEach((part, partIndex) => {
    const ids = new Set<string>();
    part.doc.tests.forEach((test, at) => {
      const before = owner.get(test.id);
      if (before && !ids.has(test.id)) {
        usage(`check ${test.id} is in two parts (${before} and ${part.path}): the shards overlap`);
      }
      ids.add(test.id);
      owner.set(test.id, part.path);
      tests.push({ test, part: partIndex, at });
    });
  });
  // The whole run's order; a test without a position (a failing hook) stays after its part's previous one.
  const key = (t: (typeof tests)[number]): number => {
    if (t.test.position !== undefined) return t.test.position;
    const list = parts[t.part]?.doc.tests ?? [];
    for (let i = t.at - 1; i >= 0; i--) {
      const p = list[i]?.position;
      if (p !== undefined) return p + 0.5;
    }
    return -0.5;
  };
  tests.sort((a, b) => key(a) - key(b) || a.part - b.part || a.at - b.at);
  const started = parts.map((p) => p.doc.started_at).sort()[0] ?? first.doc.started_at;
  const finished = parts.map((p) => p.doc.finished_at);
  const incomplete = parts.filter((p) => p.doc.incomplete);
  const {
    shard: _shard,
    finished_at: _finished,
    incomplete_reason: _reason,
    command: _command,
    ...rest
  } = first.doc;
  // the whole run's command, when the parts recorded theirs (older parts did not)
  const command = first.doc.command ? wholeRunCommand(first.doc.command) : undefined;
  return {
    ...rest,
    ...(command && command.length > 0 ? { command } : {}),
    started_at: started,
    ...(finished.every((f) => f !== undefined)
      ? { finished_at: (finished as string[]).sort().at(-1) as string }
      : {}),
    incomplete: incomplete.length > 0,
    ...(incomplete.length > 0
      ? {
          incomplete_reason: incomplete
            .map((p) => `shard ${p.doc.shard?.index}/${total}: ${p.doc.incomplete_reason ?? 'incomplete'}`)
            .join('; '),
        }
      : {}),
    tests: tests.map(({ test }) => {
      const { position: _position, ...plain } = test;
      return plain;
    }),
  };
}
