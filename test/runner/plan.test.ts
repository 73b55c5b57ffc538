/**
 * The plan of a run on a loaded mocha tree: a shard keeps whole top-level describe blocks (and a
 * file's loose checks together), every test lands in exactly one shard, positions follow mocha's
 * run order, and a selection by check id keeps exactly those checks and names the missing ones.
 */
import Mocha from 'mocha';
import { describe, expect, it } from 'vitest';
import { CHECK_OUTCOME, type CheckOutcome } from '../../src/model/results.js';
import {
  applyShard,
  checkIdOf,
  eachTest,
  positions,
  selectChecks,
  timingWeight,
} from '../../src/runner/plan.js';

const ROOT = '/suites';

function check(parent: Mocha.Suite, file: string, slug: string): Mocha.Test {
  const test = new Mocha.Test(slug, () => undefined);
  test.file = `${ROOT}/${file}`;
  const outcome: CheckOutcome = { requirements: ['X-1'], slug };
  (test as { [CHECK_OUTCOME]?: CheckOutcome })[CHECK_OUTCOME] = outcome;
  parent.addTest(test);
  return test;
}

function block(parent: Mocha.Suite, file: string, title: string): Mocha.Suite {
  const suite = Mocha.Suite.create(parent, title);
  suite.file = `${ROOT}/${file}`;
  return suite;
}

/** payee/a.js: block A (3 checks, one nested), block B (1); payee/b.js: 2 loose checks, block C (2). */
function tree(): Mocha.Suite {
  const root = new Mocha.Suite('', new Mocha.Context());
  root.root = true;
  const a = block(root, 'payee/a.js', 'A');
  check(a, 'payee/a.js', 'a1');
  check(a, 'payee/a.js', 'a2');
  check(block(a, 'payee/a.js', 'A inner'), 'payee/a.js', 'a3');
  check(block(root, 'payee/a.js', 'B'), 'payee/a.js', 'b1');
  check(root, 'payee/b.js', 'loose1');
  check(root, 'payee/b.js', 'loose2');
  const c = block(root, 'payee/b.js', 'C');
  check(c, 'payee/b.js', 'c1');
  check(c, 'payee/b.js', 'c2');
  return root;
}

function ids(root: Mocha.Suite): string[] {
  const out: string[] = [];
  eachTest(root, (t) => out.push(checkIdOf(t, ROOT)));
  return out;
}

describe('applyShard', () => {
  it('splits whole units, covers every check once, balances by weight and agrees across shards', () => {
    const all = ids(tree());
    const parts = [1, 2].map((index) => {
      const root = tree();
      const plan = applyShard(root, ROOT, { index, total: 2 });
      return { plan, ids: ids(root) };
    });
    const [one, two] = parts as [(typeof parts)[0], (typeof parts)[0]];
    expect([...one.ids, ...two.ids].sort()).toEqual([...all].sort());
    expect(one.ids.filter((id) => two.ids.includes(id))).toEqual([]);
    expect(one.plan.planDigest).toBe(two.plan.planDigest);
    // block A (with its nested block) is in one shard; the loose checks of b.js stay together
    for (const group of [
      ['payee/a1', 'payee/a2', 'payee/a3'],
      ['payee/loose1', 'payee/loose2'],
      ['payee/c1', 'payee/c2'],
    ]) {
      expect(group.every((id) => one.ids.includes(id)) || group.every((id) => two.ids.includes(id))).toBe(
        true,
      );
    }
    expect([one.plan.checks, two.plan.checks].sort()).toEqual([4, 4]);
    expect(one.plan.units.map((u) => u.key)).toEqual([
      'payee/b.js::',
      'payee/a.js::A',
      'payee/a.js::B',
      'payee/b.js::C',
    ]);
  });

  it('records positions in mocha run order (a suite own tests before its child suites)', () => {
    const root = tree();
    const at = positions(root);
    const order: string[] = [];
    eachTest(root, (t) => order.push(`${at.get(t)}:${t.title}`));
    expect(order).toEqual(['0:loose1', '1:loose2', '2:a1', '3:a2', '4:a3', '5:b1', '6:c1', '7:c2']);
  });
});

describe('timingWeight', () => {
  it('weighs a check by its recorded duration (10 ms steps, at least 10), an unknown one by the median', () => {
    const root = tree();
    const weigh = timingWeight({ 'payee/a1': 1234, 'payee/a2': 3, 'payee/c1': 500 }, ROOT);
    const w: Record<string, number> = {};
    eachTest(root, (t) => {
      w[t.title] = weigh(t);
    });
    expect(w).toMatchObject({ a1: 1240, a2: 10, c1: 500, b1: 500, loose1: 500 });
    expect(timingWeight(undefined, ROOT)(root.tests[0] as Mocha.Test)).toBe(1);
  });

  it('moves whole blocks by time: the slow block gets a shard of its own', () => {
    const timings: Record<string, number> = { 'payee/c1': 60_000, 'payee/c2': 60_000 };
    for (const id of ['a1', 'a2', 'a3', 'b1', 'loose1', 'loose2']) timings[`payee/${id}`] = 10;
    const first = tree();
    applyShard(first, ROOT, { index: 1, total: 2 }, timings);
    expect(ids(first)).toEqual(['payee/c1', 'payee/c2']);
  });
});

describe('selectChecks', () => {
  it('keeps exactly the checks asked for, drops emptied blocks, names the missing ids', () => {
    const root = tree();
    const r = selectChecks(root, ROOT, ['payee/a3', 'payee/c2', 'payee/gone']);
    expect(ids(root)).toEqual(['payee/a3', 'payee/c2']);
    expect(r).toEqual({ found: ['payee/a3', 'payee/c2'], missing: ['payee/gone'] });
    expect(root.suites.map((s) => s.title)).toEqual(['A', 'C']);
    expect(root.tests).toEqual([]);
  });
});
