/**
 * `cprc run --jobs N`: N mocha runners run the checks of one run side by side against the
 * target, a few in each of a few child processes (`slotsPerProcess`, `run.ts`: a process a core),
 * and the parent joins their events into the reports of one run (in the order one serial run
 * takes, each check with the outcome it would have there).
 *
 * Every child loads the whole tree once, and runs it in as many runners as it has slots, each on
 * a copy of the tree ({@link cloneTree}) with its own mocha contexts and its own buffer of
 * exchanges (the suites keep what belongs to the running check async-local, `suites/_lib`). Each
 * copy is cut the same way into units ({@link jobUnits}): a describe block with hooks of its own
 * is one unit with everything inside it (its hooks set up what its checks share); every other
 * check is a unit by itself. Before a unit runs, its runner asks the parent ({@link JobScheduler})
 * whether to run it: the first runner to reach a unit gets it, the others pass it over silently.
 * The parent keeps apart what the suites declared (`check(..., { shares, alone })`, `suites/_lib`):
 *
 * - units naming one shared state run in the runner that took the first of them, one after
 *   another (what a suite learned of that state in memory, a balance spent, a clock offset,
 *   stays true in that process); names that meet on one unit join one group;
 * - a `<target>:clock` state (a test clock) waits until every other unit of that target has
 *   ended: moving the clock changes what every check of that target sees, and the other
 *   processes would not know the new offset (nor would the other runners of its own process
 *   expect it);
 * - an `alone` unit (a race) runs with no other unit of its target running but a long one
 *   (`check(..., { long: true })`: a model-based run of hundreds of exchanges, a few at a time),
 *   and never beside another race: while it waits for its target's units to end, none of them
 *   starts, and none while it runs. The other targets' units go on beside it, in its own
 *   process too (its spread is the time its own synchronous loop takes to release the last
 *   bytes, which nothing else in the process interleaves: 0.7 to 4.4 ms at a 50 ms round trip
 *   with 16 runners busy). Waiting for a long unit too would
 *   leave every process idle for as long as it lasts (10 s at a 50 ms round trip), and each
 *   process holding a race would wait that long. The races come first in the run order
 *   ({@link orderForJobs}), so they go while little else runs;
 * - a unit using what its process has one of and which takes one request at a time (`local`:
 *   the wallet command of the stdio channel) runs with no other such unit of its process
 *   running, so it has the command to itself as in a serial run.
 * @packageDocumentation
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { relative, sep } from 'node:path';
import Mocha from 'mocha';
import { outcomeOfTest } from '../model/results.js';
import { checkIdOf } from './plan.js';

/** One unit of a `--jobs` run, as every child computes it. */
export interface JobUnit {
  /** Check id of a one-check unit; `<file>::<full title>` of a describe block with hooks. */
  key: string;
  /** Target (first folder of the suite file). */
  target: string;
  /** Number of checks. */
  weight: number;
  /** Shared state its checks declared (sorted, unique). */
  shares: string[];
  /** A check of it asked to run alone. */
  alone: boolean;
  /** A check of it is far longer than the others (`check(..., { long: true })`): started first. */
  long: boolean;
  /**
   * What it uses that its process has one of and that takes one request at a time: `wallet:stdio`
   * for a check through the wallet command (profile section 3). One unit of a process at a time.
   */
  local: string[];
}

/** What a child sends its parent. */
export type JobChildMessage =
  | { type: 'plan'; digest: string; units: JobUnit[] }
  | { type: 'gate'; slot: number; key: string }
  | { type: 'done'; slot: number; key: string }
  | { type: 'finished'; slot: number };

/** What the parent answers a `gate` (`slot`: which of the child's runners asked). */
export interface JobParentMessage {
  type: 'gate';
  slot: number;
  key: string;
  run: boolean;
}

/** A unit of the loaded tree with the mocha object it gates. */
export interface LoadedJobUnit extends JobUnit {
  suite?: Mocha.Suite;
  test?: Mocha.Test;
}

function hasOwnHooks(suite: Mocha.Suite): boolean {
  const s = suite as unknown as Record<string, unknown[]>;
  return ['_beforeAll', '_afterAll', '_beforeEach', '_afterEach'].some((k) => (s[k]?.length ?? 0) > 0);
}

function targetOf(runnable: { file?: string; parent?: Mocha.Suite }, suitesRoot: string): string {
  const abs = runnable.file ?? runnable.parent?.file ?? '';
  return abs ? (relative(suitesRoot, abs).split(sep)[0] ?? 'payee') : 'payee';
}

/**
 * The units of the loaded tree in mocha's run order: a describe block with hooks of its own (all
 * of it), or one check. Tests filtered out by `keep` are not units (a `--grep`).
 */
export function jobUnits(
  root: Mocha.Suite,
  suitesRoot: string,
  keep: (test: Mocha.Test) => boolean = () => true,
): LoadedJobUnit[] {
  const out: LoadedJobUnit[] = [];
  const seen = new Map<string, number>();
  const keyOf = (base: string): string => {
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n === 0 ? base : `${base}#${n + 1}`;
  };
  const declared = (tests: Mocha.Test[]) => {
    const shares = new Set<string>();
    let alone = false;
    let long = false;
    let stdio = false;
    for (const t of tests) {
      const o = outcomeOfTest(t);
      for (const s of o?.shares ?? []) shares.add(s);
      if (o?.alone) alone = true;
      if (o?.long) long = true;
      if (o?.channel === 'stdio') stdio = true;
    }
    return { shares: [...shares].sort(), alone, long, local: stdio ? [STDIO_WALLET] : [] };
  };
  const allTests = (suite: Mocha.Suite, into: Mocha.Test[]): Mocha.Test[] => {
    for (const t of suite.tests) if (keep(t)) into.push(t);
    for (const c of suite.suites) allTests(c, into);
    return into;
  };
  const visit = (suite: Mocha.Suite): void => {
    if (!suite.root && hasOwnHooks(suite)) {
      const tests = allTests(suite, []);
      if (tests.length === 0) return;
      const file = relative(suitesRoot, suite.file ?? '')
        .split(sep)
        .join('/');
      out.push({
        key: keyOf(`${file}::${suite.fullTitle()}`),
        target: targetOf(suite, suitesRoot),
        weight: tests.length,
        ...declared(tests),
        suite,
      });
      return;
    }
    for (const test of suite.tests) {
      if (!keep(test)) continue;
      out.push({
        key: keyOf(checkIdOf(test, suitesRoot)),
        target: targetOf(test, suitesRoot),
        weight: 1,
        ...declared([test]),
        test,
      });
    }
    for (const child of suite.suites) visit(child);
  };
  visit(root);
  return out;
}

/** Own fields of a mocha suite that {@link cloneTree} copies (the types of `mocha` leave them out). */
interface SuiteFields {
  _beforeAll: Mocha.Hook[];
  _beforeEach: Mocha.Hook[];
  _afterEach: Mocha.Hook[];
  _afterAll: Mocha.Hook[];
  _onlyTests: Mocha.Test[];
  _onlySuites: Mocha.Suite[];
}

/**
 * A copy of a loaded suite tree for another runner in the same process (`cprc run --jobs`: each
 * process runs several units at once, one mocha runner each): new suites, hooks and tests with
 * contexts of their own (mocha keeps the running test and the hooks' `this` in them), carrying
 * the same functions and what the suites attached to each test (the check's declared outcome).
 * The suite files ran once, so their closures are shared: one unit runs in one runner only, and
 * what units share in memory they declare (`shares`), which keeps them in one runner, one after
 * another. `original` maps each copied test to the test it copies.
 */
export function cloneTree(root: Mocha.Suite): { root: Mocha.Suite; original: WeakMap<object, Mocha.Test> } {
  const original = new WeakMap<object, Mocha.Test>();
  const SuiteClass = root.constructor as typeof Mocha.Suite;
  const copied = new Map<object, object>();
  const settings = <T extends Mocha.Runnable | Mocha.Suite>(to: T, from: T): T => {
    to.timeout(from.timeout());
    to.slow(from.slow());
    to.retries(from.retries());
    return to;
  };
  const copyRunnable = <T extends Mocha.Hook | Mocha.Test>(from: T, parent: Mocha.Suite): T => {
    const Ctor = from.constructor as new (title: string, fn?: Mocha.Func | Mocha.AsyncFunc) => T;
    const to = settings(new Ctor(from.title, from.fn), from);
    to.parent = parent;
    to.ctx = parent.ctx;
    to.file = from.file;
    to.pending = from.pending;
    for (const k of Object.getOwnPropertySymbols(from))
      (to as unknown as Record<symbol, unknown>)[k] = (from as unknown as Record<symbol, unknown>)[k];
    copied.set(from, to);
    return to;
  };
  const copySuite = (from: Mocha.Suite, parent: Mocha.Suite | undefined): Mocha.Suite => {
    const to = settings(
      new (SuiteClass as unknown as new (title: string, ctx: Mocha.Context, root: boolean) => Mocha.Suite)(
        from.title,
        parent?.ctx ?? new Mocha.Context(),
        from.root,
      ),
      from,
    );
    copied.set(from, to);
    if (parent) to.parent = parent;
    to.file = from.file;
    to.pending = from.pending;
    to.bail(from.bail());
    const f = from as unknown as SuiteFields;
    const t = to as unknown as SuiteFields;
    for (const k of ['_beforeAll', '_beforeEach', '_afterEach', '_afterAll'] as const)
      t[k] = f[k].map((h) => copyRunnable(h, to));
    to.tests = from.tests.map((test) => {
      const c = copyRunnable(test, to);
      original.set(c, test);
      return c;
    });
    to.suites = from.suites.map((s) => copySuite(s, to));
    return to;
  };
  const out = copySuite(root, undefined);
  // `.only` lists name the copies
  const relink = (from: Mocha.Suite): void => {
    const f = from as unknown as SuiteFields;
    const t = copied.get(from) as unknown as SuiteFields;
    t._onlyTests = f._onlyTests.map((x) => copied.get(x) as Mocha.Test);
    t._onlySuites = f._onlySuites.map((x) => copied.get(x) as Mocha.Suite);
    for (const c of from.suites) relink(c);
  };
  relink(root);
  return { root: out, original };
}

/** The runner (slot) of a `--jobs` child whose work the calling code is part of. */
const runnerSlots = new AsyncLocalStorage<number>();

/** Runs `start` (which starts slot `slot`'s runner) so that all the runner's work is known as the slot's. */
export function inSlot(slot: number, start: () => void): void {
  runnerSlots.run(slot, start);
}

/**
 * A mocha runner for one slot of a `--jobs` child. Every mocha runner listens for the process's
 * uncaught exceptions and fails the runnable it is running with one; with several runners in a
 * process, each would fail its own, a gate waiting for the parent included. This one takes an
 * exception only when it was thrown in its own work, or in work of no runner.
 */
export function slotRunner(slot: number): typeof Mocha.Runner {
  return class extends Mocha.Runner {
    constructor(suite: Mocha.Suite, options?: Mocha.RunnerOptions) {
      super(suite, options);
      const self = this as unknown as { uncaught: (err: unknown) => void };
      const own = self.uncaught;
      self.uncaught = (err: unknown): void => {
        const from = runnerSlots.getStore();
        if (from === undefined || from === slot) own(err);
      };
    }
  };
}

/** Digest of a unit list: every child of one run must compute the same. */
export function jobPlanDigest(units: readonly JobUnit[]): string {
  const text = units
    .map((u) =>
      [
        u.key,
        u.target,
        u.weight,
        u.shares.join(','),
        u.alone ? 'alone' : '',
        u.long ? 'long' : '',
        u.local.join(','),
      ].join('\t'),
    )
    .join('\n');
  return `sha256:${createHash('sha256').update(text, 'utf8').digest('hex')}`;
}

/**
 * Orders the top-level describe blocks of the loaded tree for a `--jobs` run (each child the
 * same way; results keep their serial positions), so that what must follow one another starts
 * early and the rest fills in around it:
 *
 * 1. blocks holding a long check (`check(..., { long: true })`): one started late would hold the
 *    run's end (at a 50 ms round trip the Operator's random sequences last some 10 s with their
 *    runs overlapping);
 * 2. blocks holding a race (a unit that runs alone), the races first within them: a race waits
 *    for every running check of its target to end and none of them starts meanwhile, so the
 *    races go while little runs, one after another at the start (some 3 s in all at 50 ms),
 *    instead of each idling its target's processes for as long as the longest check running
 *    when it comes up;
 * 3. the targets with a test clock, one after the other, each target's blocks holding a clock's
 *    checks after its other blocks: those checks wait until every other check of their target
 *    has ended and then run one after another in one process, so the sooner a target's other
 *    checks are done, the sooner that chain runs, beside the checks of the other targets;
 * 4. the targets without a test clock.
 *
 * Within each, the heaviest blocks first.
 */
export function orderForJobs(root: Mocha.Suite, units: readonly LoadedJobUnit[]): void {
  const clockOf = new Set<Mocha.Suite>();
  const longOf = new Set<Mocha.Suite>();
  const raceOf = new Set<Mocha.Suite>();
  const weightOf = new Map<Mocha.Suite, number>();
  const targetOf = new Map<Mocha.Suite, string>();
  const topOf = (r: { parent?: Mocha.Suite }): Mocha.Suite | undefined => {
    let s = r.parent;
    if (!s || s.root) return undefined;
    while (s.parent && !s.parent.root) s = s.parent;
    return s;
  };
  for (const u of units) {
    const top = u.suite
      ? u.suite.parent?.root
        ? u.suite
        : topOf(u.suite)
      : u.test
        ? topOf(u.test)
        : undefined;
    if (!top) continue;
    weightOf.set(top, (weightOf.get(top) ?? 0) + u.weight);
    targetOf.set(top, u.target);
    if (u.shares.some(isClock)) clockOf.add(top);
    if (u.long) longOf.add(top);
    if (u.alone) {
      raceOf.add(top);
      raceFirst(u);
    }
  }
  const index = new Map(root.suites.map((s, i) => [s, i]));
  const clockTargets = new Set([...clockOf].map((s) => targetOf.get(s)));
  // a target's place: those with a clock first, in the order the tree names them
  const targets = [...new Set(root.suites.map((s) => targetOf.get(s)))];
  const rank = (s: Mocha.Suite): number => {
    const t = targetOf.get(s);
    return (clockTargets.has(t) ? 0 : targets.length) + targets.indexOf(t);
  };
  const first = (s: Mocha.Suite): number => (clockOf.has(s) ? 0 : longOf.has(s) ? 2 : raceOf.has(s) ? 1 : 0);
  root.suites = [...root.suites].sort(
    (a, b) =>
      first(b) - first(a) ||
      rank(a) - rank(b) ||
      Number(clockOf.has(a)) - Number(clockOf.has(b)) ||
      (weightOf.get(b) ?? 0) - (weightOf.get(a) ?? 0) ||
      (index.get(a) ?? 0) - (index.get(b) ?? 0),
  );
}

/** Moves a race (a unit that runs alone) before its siblings, and each block holding it before its own. */
function raceFirst(u: LoadedJobUnit): void {
  let node: Mocha.Suite | Mocha.Test | undefined = u.suite ?? u.test;
  while (node?.parent && !node.parent.root) {
    const parent: Mocha.Suite = node.parent;
    if ((node as { type?: string }).type === 'test') {
      const t = node as Mocha.Test;
      parent.tests = [t, ...parent.tests.filter((x) => x !== t)];
    } else {
      const s = node as Mocha.Suite;
      parent.suites = [s, ...parent.suites.filter((x) => x !== s)];
    }
    node = parent;
  }
}

/**
 * The wallet command of a process (the stdio channel): it takes one request line at a time, so
 * the checks through it run one at a time in each process, as in a serial run (each with the
 * command to itself: another check's lines never eat into its time, nor another check's
 * stalled or stopped command into its requests).
 */
const STDIO_WALLET = 'wallet:stdio';

/** A `<target>:clock` shared state: a test clock. */
function isClock(name: string): boolean {
  return /^[a-z]+:clock$/.test(name);
}

/** The target whose test clock a `<target>:clock` name is. */
function clockTarget(name: string): string | undefined {
  return isClock(name) ? name.slice(0, name.indexOf(':')) : undefined;
}

/**
 * Installs the gates of a `--jobs` child on the loaded tree: before each unit the child asks
 * `ask(key)` whether to run it; a unit it is not given is passed over (its checks marked pending
 * and reported by no one here: `passedOver`). `ended(key)` is called when a unit it ran ends.
 */
export function installJobGates(
  root: Mocha.Suite,
  units: readonly LoadedJobUnit[],
  ask: (key: string) => Promise<boolean>,
): { passedOver: (runnable: object) => boolean; unitEnded: (runnable: object) => string | undefined } {
  const passed = new WeakSet<object>();
  const unitOfTest = new WeakMap<object, string>();
  const unitOfSuite = new WeakMap<object, string>();
  const inSuiteUnit = new WeakSet<object>();
  const markInside = (suite: Mocha.Suite): void => {
    for (const t of suite.tests) inSuiteUnit.add(t);
    for (const c of suite.suites) markInside(c);
  };
  for (const u of units) {
    if (u.test) unitOfTest.set(u.test, u.key);
    if (u.suite) {
      unitOfSuite.set(u.suite, u.key);
      markInside(u.suite);
      const suite = u.suite;
      const key = u.key;
      suite.beforeAll('cprc --jobs: this process runs this block', async function (this: Mocha.Context) {
        this.timeout(0);
        if (await ask(key)) return;
        // another process runs it: nothing of it runs here, nothing is reported
        const s = suite as unknown as Record<string, unknown[]>;
        const markPassed = (x: Mocha.Suite): void => {
          for (const t of x.tests) passed.add(t);
          for (const c of x.suites) markPassed(c);
        };
        markPassed(suite);
        suite.tests = [];
        suite.suites = [];
        s._beforeAll?.splice(1);
        for (const k of ['_afterAll', '_beforeEach', '_afterEach']) s[k]?.splice(0);
      });
      const hooks = (suite as unknown as { _beforeAll: unknown[] })._beforeAll;
      hooks.unshift(hooks.pop());
    }
  }
  root.beforeEach('cprc --jobs: this process runs this check', async function (this: Mocha.Context) {
    this.timeout(0);
    const test = this.currentTest;
    if (!test || inSuiteUnit.has(test)) return;
    const key = unitOfTest.get(test);
    if (key === undefined || (await ask(key))) return;
    passed.add(test);
    test.pending = true;
  });
  const each = (root as unknown as { _beforeEach: unknown[] })._beforeEach;
  each.unshift(each.pop());
  return {
    passedOver: (r) => passed.has(r),
    unitEnded: (r) => (passed.has(r) ? undefined : (unitOfTest.get(r) ?? unitOfSuite.get(r))),
  };
}

interface UnitState {
  unit: JobUnit;
  seq: number;
  group: string | undefined;
  state: 'open' | 'claimed' | 'running' | 'done';
  child?: number;
}

interface Waiting {
  child: number;
  u: UnitState;
  resolve: (run: boolean) => void;
}

/**
 * The parent's side of a `--jobs` run: decides, unit by unit, which runner runs what and when
 * (see the module comment). Pure bookkeeping: the processes are the caller's, which numbers the
 * runners of all its children 0 to N-1 (a "child" here is one runner).
 * @example
 * ```ts
 * const s = new JobScheduler(2);
 * s.plan(0, units); s.plan(1, units);
 * await s.request(0, units[0].key); // true: child 0 runs it
 * await s.request(1, units[0].key); // false: taken
 * s.done(0, units[0].key);
 * ```
 */
export class JobScheduler {
  private units = new Map<string, UnitState>();
  private digest: string | undefined;
  private owner = new Map<string, number>();
  private cursor = new Map<number, number>();
  private alive = new Set<number>();
  private waiting: Waiting[] = [];
  private aloneQueue: UnitState[] = [];

  private processOf: readonly number[];

  /** `processOf[i]`: the process runner `i` runs in (each its own when not given). */
  constructor(children: number, processOf?: readonly number[]) {
    for (let i = 0; i < children; i++) {
      this.alive.add(i);
      this.cursor.set(i, -1);
    }
    this.processOf = processOf ?? Array.from({ length: children }, (_, i) => i);
  }

  /**
   * Records the plan a suite process computed (`from`, numbered from 0; every runner of it runs
   * that plan); throws when it differs from the first process's.
   */
  plan(from: number, units: readonly JobUnit[]): void {
    const digest = jobPlanDigest(units);
    if (this.digest !== undefined) {
      if (digest !== this.digest)
        throw new Error(`suite process ${from + 1} cut the suites into other units than suite process 1 did`);
      return;
    }
    this.digest = digest;
    // groups: names that meet on one unit join one group (union-find over the names)
    const parent = new Map<string, string>();
    const find = (x: string): string => {
      let r = x;
      while (parent.get(r) !== undefined && parent.get(r) !== r) r = parent.get(r) as string;
      parent.set(x, r);
      return r;
    };
    for (const u of units) {
      for (const s of u.shares) if (!parent.has(s)) parent.set(s, s);
      const [first, ...rest] = u.shares;
      if (first !== undefined) for (const s of rest) parent.set(find(s), find(first));
    }
    units.forEach((unit, seq) => {
      const first = unit.shares[0];
      this.units.set(unit.key, {
        unit,
        seq,
        group: first === undefined ? undefined : find(first),
        state: 'open',
      });
    });
  }

  /** Whether `child` runs unit `key` (resolved once it may start). */
  request(child: number, key: string): Promise<boolean> {
    const u = this.units.get(key);
    if (!u || !this.alive.has(child)) return Promise.resolve(false);
    this.cursor.set(child, Math.max(this.cursor.get(child) ?? -1, u.seq));
    if (u.state !== 'open') return Promise.resolve(false);
    if (u.group !== undefined) {
      const owner = this.owner.get(u.group);
      if (owner !== undefined && owner !== child && this.alive.has(owner)) return Promise.resolve(false);
      this.owner.set(u.group, child);
    }
    u.state = 'claimed';
    u.child = child;
    if (u.unit.alone) this.aloneQueue.push(u);
    return new Promise((resolve) => {
      this.waiting.push({ child, u, resolve });
      this.pump();
    });
  }

  /** Unit `key` that `child` ran has ended. */
  done(child: number, key: string): void {
    const u = this.units.get(key);
    if (!u || u.child !== child) return;
    u.state = 'done';
    this.aloneQueue = this.aloneQueue.filter((a) => a !== u);
    this.pump();
  }

  /** `child` ended (or will ask nothing more): what it held is released. */
  exit(child: number): void {
    if (!this.alive.delete(child)) return;
    this.cursor.set(child, Number.POSITIVE_INFINITY);
    for (const u of this.units.values()) {
      if (u.child === child && u.state !== 'done') u.state = 'done';
    }
    for (const w of this.waiting.filter((x) => x.child === child)) w.resolve(false);
    this.waiting = this.waiting.filter((x) => x.child !== child);
    this.aloneQueue = this.aloneQueue.filter((a) => a.child !== child);
    for (const [g, o] of this.owner) if (o === child) this.owner.delete(g);
    this.pump();
  }

  /** Units never run: claimed by no child (a child died before reaching them). */
  unrun(): string[] {
    return [...this.units.values()].filter((u) => u.state === 'open').map((u) => u.unit.key);
  }

  /** Units of `target` running, other than the long ones. */
  private runningOn(target: string): number {
    let n = 0;
    for (const u of this.units.values())
      if (u.state === 'running' && !u.unit.long && u.unit.target === target) n++;
    return n;
  }

  /** A unit running in `u`'s process holds something of that process `u` needs ({@link JobUnit.local}). */
  private localBusy(u: UnitState): boolean {
    if (u.unit.local.length === 0) return false;
    const process = this.processOf[u.child ?? -1];
    for (const v of this.units.values())
      if (
        v !== u &&
        v.state === 'running' &&
        this.processOf[v.child ?? -1] === process &&
        v.unit.local.some((name) => u.unit.local.includes(name))
      )
        return true;
    return false;
  }

  /** True when every unit of the clock's target outside `u`'s group has ended (or no child can reach it). */
  private clockReady(u: UnitState): boolean {
    const targets = u.unit.shares.flatMap((s) => clockTarget(s) ?? []);
    if (targets.length === 0) return true;
    for (const v of this.units.values()) {
      if (v === u || v.state === 'done' || !targets.includes(v.unit.target)) continue;
      if (v.group !== undefined && v.group === u.group) continue;
      if (v.state === 'open' && !this.reachable(v, u.child)) continue;
      return false;
    }
    return true;
  }

  /** Some live child other than `except` can still reach `v` in its run order. */
  private reachable(v: UnitState, except: number | undefined): boolean {
    for (const c of this.alive) if (c !== except && (this.cursor.get(c) ?? -1) < v.seq) return true;
    return false;
  }

  private pump(): void {
    let progressed = true;
    while (progressed) {
      progressed = false;
      const readyAlone = this.aloneQueue.find((a) => a.state === 'claimed' && this.clockReady(a));
      const aloneRunning = this.aloneQueue.find((a) => a.state === 'running');
      // the target a race holds (running) or is waiting to hold (its turn has come): no other
      // unit of it starts; the other targets' units go on
      const held = (aloneRunning ?? readyAlone)?.unit.target;
      for (const w of [...this.waiting]) {
        const u = w.u;
        let go: boolean;
        if (u.unit.alone) go = !aloneRunning && u === readyAlone && this.runningOn(u.unit.target) === 0;
        else go = u.unit.target !== held && this.clockReady(u);
        if (go && this.localBusy(u)) go = false;
        if (!go) continue;
        u.state = 'running';
        this.waiting = this.waiting.filter((x) => x !== w);
        w.resolve(true);
        progressed = true;
        break;
      }
    }
  }
}
