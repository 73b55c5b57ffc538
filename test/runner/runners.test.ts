/**
 * Several mocha runners in one process (`cprc run --jobs`: a process runs a few units at once,
 * each runner on its own copy of the loaded tree): the copy keeps each test's functions and
 * declared outcome under contexts of its own; two checks running at once keep their notes,
 * cleanups and exchanges apart; and the runners are spread over processes a core each.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Mocha from 'mocha';
import { afterEach, describe, expect, it } from 'vitest';
import { Recorder } from '../../src/drivers/recorder.js';
import { CHECK_OUTCOME, type CheckOutcome, outcomeOfTest } from '../../src/model/results.js';
import { setRunContext } from '../../src/runner/context.js';
import { cloneTree, inSlot, slotRunner } from '../../src/runner/jobs.js';
import { slotsPerProcess } from '../../src/runner/run.js';
import { check, note, onCheckEnd } from '../../suites/_lib/index.js';
import { checkContext as context, loadTree, runTree, testsOf } from '../_support/mocha-tree.js';

describe('cloneTree: a copy of the loaded tree for another runner', () => {
  it('copies suites, hooks and tests with their settings, functions and declared outcome, under contexts of its own', async () => {
    const ran: string[] = [];
    const root = loadTree(({ describe, it, before }) => {
      describe('block', function (this: Mocha.Suite) {
        this.timeout(1234);
        before(() => {
          ran.push('before');
        });
        it('first', function (this: Mocha.Context) {
          ran.push(`first:${this.test?.parent?.title}`);
        });
        it('pending');
        describe('inner', () => {
          it('second', () => {
            ran.push('second');
          });
        });
      });
    });
    const first = testsOf(root)[0] as Mocha.Test;
    const outcome: CheckOutcome = { requirements: ['X-1'], slug: 'first' };
    (first as unknown as Record<symbol, CheckOutcome>)[CHECK_OUTCOME] = outcome;

    const copy = cloneTree(root);
    const tests = testsOf(copy.root);
    expect(tests.map((t) => t.fullTitle())).toEqual(testsOf(root).map((t) => t.fullTitle()));
    expect(tests.map((t) => copy.original.get(t))).toEqual(testsOf(root));
    expect(tests.map((t) => Boolean(t.isPending()))).toEqual([false, true, false]);
    expect(tests.every((t, i) => t !== testsOf(root)[i] && t.ctx !== testsOf(root)[i]?.ctx)).toBe(true);
    expect(outcomeOfTest(tests[0] as Mocha.Test)).toBe(outcome);
    expect(copy.root.suites[0]?.timeout()).toBe(1234);
    expect(tests[0]?.timeout()).toBe(1234);
    expect(tests[0]?.file).toBe('suite.js');

    // both trees run, each its own hooks and tests; mocha's `this` is the copy's
    await Promise.all([runTree(root), runTree(copy.root)]);
    expect(ran.sort()).toEqual(['before', 'before', 'first:block', 'first:block', 'second', 'second']);
    expect(tests[0]?.state).toBe('passed');
    expect(testsOf(root)[0]?.state).toBe('passed');
  });
});

describe('checks running at once in one process', () => {
  afterEach(() => {
    setRunContext(context(1));
  });

  /** Two checks, each running in a runner of its own at the same time, interleaving their steps. */
  async function twoAtOnce(
    checksAtOnce: number,
    tag: string,
  ): Promise<{
    messages: Array<string | undefined>;
    ended: string[];
    exchanges: string[][];
  }> {
    const recorder = new Recorder();
    setRunContext(context(checksAtOnce, recorder));
    const ended: string[] = [];
    const step = async (name: string, i: number): Promise<void> => {
      note(`${name}${i}`);
      recorder.record({
        kind: 'http',
        method: 'GET',
        url: `http://x/${name}${i}`,
        status: 200,
        duration_ms: 0,
      });
      await sleep(15);
    };
    const root = loadTree(() => {
      check(`a-${tag}`, ['X-1'], 'a', async () => {
        onCheckEnd(() => ended.push('a'));
        for (let i = 0; i < 3; i++) await step('a', i);
      });
      check(`b-${tag}`, ['X-1'], 'b', async () => {
        await sleep(5);
        onCheckEnd(() => ended.push('b'));
        for (let i = 0; i < 3; i++) await step('b', i);
      });
    });
    const copy = cloneTree(root);
    // the first runner runs a, the other b
    root.tests = root.tests.slice(0, 1);
    copy.root.tests = copy.root.tests.slice(1);
    const exchanges: string[][] = [];
    await Promise.all(
      [root, copy.root].map(async (tree, i) => {
        const { exchanges: left } = await recorder.collect(async () => {
          await runTree(tree);
          // what the runner's reporter would take as its test ended
          exchanges[i] = recorder.take().map((e) => e.url ?? '');
        });
        expect(left).toEqual([]);
      }),
    );
    return {
      messages: [root.tests[0], copy.root.tests[0]].map((t) => outcomeOfTest(t as Mocha.Test)?.message),
      ended,
      exchanges,
    };
  }

  it('keep their notes, cleanups and exchanges apart', async () => {
    const r = await twoAtOnce(2, 'apart');
    expect(r.messages).toEqual(['a0; a1; a2', 'b0; b1; b2']);
    expect(r.ended.sort()).toEqual(['a', 'b']);
    expect(r.exchanges).toEqual([
      ['http://x/a0', 'http://x/a1', 'http://x/a2'],
      ['http://x/b0', 'http://x/b1', 'http://x/b2'],
    ]);
  });

  it('would mix their notes if the process ran them as checks one at a time (what the test above guards)', async () => {
    const r = await twoAtOnce(1, 'serial');
    expect(r.messages).not.toEqual(['a0; a1; a2', 'b0; b1; b2']);
  });
});

describe("an exception thrown in a runner's work, outside any promise it awaits", () => {
  /**
   * Two runners at once: the first runs a test that throws from a timer, the second a test that
   * waits meanwhile. Returns each test's state. Vitest's own listeners are set aside while they
   * run (the exception is meant to reach mocha's).
   */
  async function throwBesideAnother(Runner: (slot: number) => typeof Mocha.Runner): Promise<string[]> {
    const root = loadTree(({ it }) => {
      it('throws', async () => {
        setTimeout(() => {
          throw new Error('boom');
        }, 5);
        // mocha fails the test with the exception; a body that then ended would be a second end
        await new Promise(() => {});
      });
      it('waits', async () => {
        await sleep(60);
      });
    });
    const copy = cloneTree(root);
    root.tests = root.tests.slice(0, 1);
    copy.root.tests = copy.root.tests.slice(1);
    const saved = process.listeners('uncaughtException');
    process.removeAllListeners('uncaughtException');
    try {
      await Promise.all(
        [root, copy.root].map(
          (tree, slot) =>
            new Promise<void>((resolve) => {
              const R = Runner(slot);
              inSlot(slot, () => {
                new R(tree, { delay: false }).run(() => resolve());
              });
            }),
        ),
      );
    } finally {
      process.removeAllListeners('uncaughtException');
      for (const l of saved) process.on('uncaughtException', l);
    }
    return [root.tests[0], copy.root.tests[0]].map((t) => String(t?.state));
  }

  it('fails only the test of the runner whose work threw it', async () => {
    expect(await throwBesideAnother(slotRunner)).toEqual(['failed', 'passed']);
  });

  it("would fail the other runner's test too with mocha's own runner (what the test above guards)", async () => {
    expect(await throwBesideAnother(() => Mocha.Runner)).toEqual(['failed', 'failed']);
  });
});

describe('slotsPerProcess: the runners of a --jobs run over processes', () => {
  it('uses a process a core (at least 2, at most 4, at most N) and spreads the N runners evenly', () => {
    expect(slotsPerProcess(16, { CPRC_JOB_PROCESSES: '2' })).toEqual([8, 8]);
    expect(slotsPerProcess(5, { CPRC_JOB_PROCESSES: '2' })).toEqual([3, 2]);
    expect(slotsPerProcess(3, { CPRC_JOB_PROCESSES: '8' })).toEqual([1, 1, 1]);
    expect(slotsPerProcess(2, {})).toEqual([1, 1]);
    const processes = slotsPerProcess(16, {});
    expect(processes.reduce((a, b) => a + b, 0)).toBe(16);
    expect(processes.length).toBeGreaterThanOrEqual(2);
    expect(processes.length).toBeLessThanOrEqual(4);
  });

  it('ignores a CPRC_JOB_PROCESSES that is no positive integer', () => {
    for (const bad of ['0', '-1', 'two', ''])
      expect(slotsPerProcess(16, { CPRC_JOB_PROCESSES: bad }).length).toBe(slotsPerProcess(16, {}).length);
  });
});
