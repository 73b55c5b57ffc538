/**
 * The plan of a run in the mocha child, once the suite files are loaded: which checks run, in
 * which shard (`cprc run --shard INDEX/TOTAL`) and in which order. Works on the loaded mocha
 * tree, so a shard or a selection (`--last-failed`, `cprc replay`) drops whole tests before
 * mocha runs: no check outside it is registered with mocha's runner, no hook of an emptied
 * describe block runs.
 *
 * Sharding keeps each unit whole: a top-level `describe` block of a file with everything inside
 * it (nested blocks, hooks, races, properties), or the checks a file registers outside any
 * `describe`. Units are weighed by their number of checks (or, given the durations an earlier run
 * recorded, by their time: `--shard-timings`) and dealt, heaviest first, to the
 * lightest shard (ties: the lower shard index; equal weights: the unit key), so every shard of
 * the same suites and configuration computes the same plan, whatever the file order.
 * @packageDocumentation
 */
import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import type Mocha from 'mocha';
import { outcomeOfTest } from '../model/results.js';
import { testId } from './reporter.js';

/** `--shard INDEX/TOTAL`, 1-based. */
export interface ShardSpec {
  index: number;
  total: number;
}

/** One indivisible piece of the plan. */
export interface PlanUnit {
  /** `<file>::<describe title>` (`<file>::` for a file's loose checks), with `#N` for a repeated title. */
  key: string;
  /** Number of checks (tests) in it. */
  weight: number;
  /** 1-based shard it goes to. */
  shard: number;
  /** The mocha suite (a top-level describe), or the loose tests of the file. */
  suite?: Mocha.Suite;
  tests?: Mocha.Test[];
}

/** What {@link applyShard} kept. */
export interface ShardPlan {
  /** Every unit of the whole run, with its shard. */
  units: PlanUnit[];
  /** sha256 of the plan (keys, weights, shards): the same for every part of one run. */
  planDigest: `sha256:${string}`;
  /** Keys of the units of this shard, in run order. */
  kept: string[];
  /** Checks of this shard. */
  checks: number;
}

function fileOf(runnable: { file?: string; parent?: Mocha.Suite }, suitesRoot: string): string {
  const abs = runnable.file ?? runnable.parent?.file ?? '';
  return abs ? relative(suitesRoot, abs).split(sep).join('/') : '(unknown file)';
}

/**
 * The units of the loaded tree in run order (mocha runs a suite's own tests before its child
 * suites): each file's loose checks, then each top-level describe block.
 */
export function planUnits(
  root: Mocha.Suite,
  suitesRoot: string,
  weightOf: (test: Mocha.Test) => number = () => 1,
): Omit<PlanUnit, 'shard'>[] {
  const units: Omit<PlanUnit, 'shard'>[] = [];
  const seen = new Map<string, number>();
  const keyOf = (base: string): string => {
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}#${n + 1}`;
  };
  const loose = new Map<string, Mocha.Test[]>();
  for (const test of root.tests) {
    const file = fileOf(test, suitesRoot);
    loose.set(file, [...(loose.get(file) ?? []), test]);
  }
  const weigh = (tests: Iterable<Mocha.Test>): number => {
    let w = 0;
    for (const t of tests) w += weightOf(t);
    return w;
  };
  for (const [file, tests] of loose) units.push({ key: keyOf(`${file}::`), weight: weigh(tests), tests });
  for (const suite of root.suites) {
    const tests: Mocha.Test[] = [];
    eachTest(suite, (t) => tests.push(t));
    units.push({ key: keyOf(`${fileOf(suite, suitesRoot)}::${suite.title}`), weight: weigh(tests), suite });
  }
  return units;
}

/**
 * Deals units to `total` shards: heaviest first (equal weights by key), each to the shard with
 * the fewest checks so far (ties: the lowest index). Pure and deterministic.
 * @example
 * ```ts
 * assignShards([{ key: 'a', weight: 3 }, { key: 'b', weight: 2 }, { key: 'c', weight: 1 }], 2).map((u) => u.shard);
 * // [1, 2, 2]
 * ```
 */
export function assignShards<U extends { key: string; weight: number }>(
  units: readonly U[],
  total: number,
): Array<U & { shard: number }> {
  const load = new Array<number>(total).fill(0);
  const shardOf = new Map<string, number>();
  const order = [...units].sort(
    (a, b) => b.weight - a.weight || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0),
  );
  for (const unit of order) {
    let best = 0;
    for (let i = 1; i < total; i++) if ((load[i] ?? 0) < (load[best] ?? 0)) best = i;
    load[best] = (load[best] ?? 0) + unit.weight;
    shardOf.set(unit.key, best + 1);
  }
  return units.map((unit) => ({ ...unit, shard: shardOf.get(unit.key) ?? 1 }));
}

/** Digest of a plan: every unit's key, weight and shard, one per line, sorted. */
export function planDigest(
  units: readonly Pick<PlanUnit, 'key' | 'weight' | 'shard'>[],
  total: number,
): `sha256:${string}` {
  const text = [`total ${total}`, ...units.map((u) => `${u.key}\t${u.weight}\t${u.shard}`).sort()].join('\n');
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * Keeps in `root` only the units of shard `spec.index` (mutates the loaded tree before mocha runs).
 */
export function applyShard(
  root: Mocha.Suite,
  suitesRoot: string,
  spec: ShardSpec,
  timings?: Readonly<Record<string, number>>,
): ShardPlan {
  const units = assignShards(planUnits(root, suitesRoot, timingWeight(timings, suitesRoot)), spec.total);
  const mine = units.filter((u) => u.shard === spec.index);
  const keptSuites = new Set(mine.flatMap((u) => (u.suite ? [u.suite] : [])));
  const keptTests = new Set(mine.flatMap((u) => u.tests ?? []));
  root.suites = root.suites.filter((s) => keptSuites.has(s));
  root.tests = root.tests.filter((t) => keptTests.has(t));
  return {
    units,
    planDigest: planDigest(units, spec.total),
    kept: mine.map((u) => u.key),
    checks: mine.reduce((n, u) => n + (u.suite ? u.suite.total() : (u.tests?.length ?? 0)), 0),
  };
}

/**
 * The weight of a test: 1 without timings; with recorded durations (ms, by check id, from an
 * earlier run's results.json: `--shard-timings`), its duration rounded up to 10 ms, at least 10;
 * a check the timings do not name weighs the median of those they do.
 */
export function timingWeight(
  timings: Readonly<Record<string, number>> | undefined,
  suitesRoot: string,
): (test: Mocha.Test) => number {
  if (!timings) return () => 1;
  const values = Object.values(timings)
    .filter((v) => Number.isFinite(v) && v >= 0)
    .sort((a, b) => a - b);
  const median = values[Math.floor(values.length / 2)] ?? 0;
  const round = (ms: number): number => Math.max(10, Math.ceil(ms / 10) * 10);
  return (test) => round(timings[checkIdOf(test, suitesRoot)] ?? median);
}

/** Visits every test of `suite` in run order (its own tests, then its child suites). */
export function eachTest(suite: Mocha.Suite, visit: (test: Mocha.Test) => void): void {
  for (const test of suite.tests) visit(test);
  for (const child of suite.suites) eachTest(child, visit);
}

/**
 * The results id a test of the loaded tree will have: `<target>/<slug>` for a check (the
 * target is the first folder of its file under the suites root), the hash id of the runner's
 * reporter for anything else.
 */
export function checkIdOf(test: Mocha.Test, suitesRoot: string): string {
  const file = fileOf(test, suitesRoot);
  const target = file.split('/')[0] ?? 'payee';
  const outcome = outcomeOfTest(test);
  return outcome ? `${target}/${outcome.slug}` : testId(target, test.fullTitle());
}

/**
 * Keeps in `root` only the tests whose check id is in `ids` (and the describe blocks holding
 * them). Returns the ids found and those asked for that no test has.
 */
export function selectChecks(
  root: Mocha.Suite,
  suitesRoot: string,
  ids: readonly string[],
): { found: string[]; missing: string[] } {
  const wanted = new Set(ids);
  const found = new Set<string>();
  const prune = (suite: Mocha.Suite): boolean => {
    suite.tests = suite.tests.filter((test) => {
      const id = checkIdOf(test, suitesRoot);
      if (!wanted.has(id)) return false;
      found.add(id);
      return true;
    });
    suite.suites = suite.suites.filter(prune);
    return suite.tests.length > 0 || suite.suites.length > 0;
  };
  prune(root);
  return { found: [...found], missing: ids.filter((id) => !found.has(id)) };
}

/** Position of every test of the whole tree in run order (before any shard or selection). */
export function positions(root: Mocha.Suite): WeakMap<object, number> {
  const out = new WeakMap<object, number>();
  let n = 0;
  eachTest(root, (test) => {
    out.set(test, n++);
  });
  return out;
}
