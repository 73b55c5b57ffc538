/**
 * How the suites grade a race (suites/_lib/race.ts): not exactly one success fails whatever the
 * spread; one success passes only when every racer was in flight within the bound; otherwise the
 * race is inconclusive (a warning), never a pass; a race whose requests the machine spread too wide
 * is taken again, setup and all, before it is graded so.
 */
import type Mocha from 'mocha';
import { afterEach, describe, expect, it } from 'vitest';
import type { RaceOutcome } from '../../src/drivers/types.js';
import { outcomeOfTest } from '../../src/model/results.js';
import { setRunContext } from '../../src/runner/context.js';
import { CHECK_ATTEMPTS, check, onCheckEnd } from '../../suites/_lib/index.js';
import {
  assertRaced,
  deliveryOf,
  RACE_SPREAD_BOUND_MS,
  runRace,
  singleWinner,
} from '../../suites/_lib/race.js';
import { checkContext, loadTree, runTree, testsOf } from '../_support/mocha-tree.js';

function race(oks: boolean[], spreadMs: number, inFlight = oks.length): RaceOutcome<{ ok: boolean }> {
  return { results: oks.map((ok) => ({ ok })), inFlight, spreadMs, synchronisation: 'last byte, http/1.1' };
}
const one = (n: number): boolean[] => Array.from({ length: n }, (_, i) => i === 3);

/** What a grading threw: its kind (as check() classifies it) and message. */
function thrown(fn: () => void): { name: string; message: string } | undefined {
  try {
    fn();
    return undefined;
  } catch (err) {
    return { name: (err as Error).name, message: (err as Error).message };
  }
}

describe('race grading', () => {
  it('passes one success among racers in flight within the bound, naming the winner and the delivery', () => {
    const r = race(one(32), 0.61);
    expect(singleWinner(r, (x) => x.ok, 'first uses')).toBe(3);
    expect(thrown(() => assertRaced(r, 'first uses'))).toBeUndefined();
    expect(deliveryOf(r)).toBe('32 in flight within 0.61 ms');
  });

  it('fails more than one success, or none, however the requests arrived', () => {
    for (const [oks, spread] of [
      [Array(32).fill(true), 0.5],
      [Array(32).fill(true), 500],
      [Array(32).fill(false), 0.5],
    ] as const) {
      const t = thrown(() => singleWinner(race([...oks], spread), (x) => x.ok, 'first uses'));
      expect(t?.name).toBe('AssertionError');
      expect(t?.message).toMatch(
        /^32 first uses: 32 in flight within [\d.]+ ms, (32|0) succeeded \(exactly one must\)$/,
      );
    }
  });

  it('grades a single success as inconclusive (a warning) beyond the bound, with racers answered early, or unmeasured', () => {
    const cases: Array<[RaceOutcome<{ ok: boolean }>, RegExp]> = [
      [race(one(32), RACE_SPREAD_BOUND_MS + 0.01), /left over 50\.01 ms, more than the 50 ms bound/],
      [race(one(32), 0.5, 30), /only 30 of 32 were in flight together/],
      [race(one(32), Number.NaN), /32 sent at once, delivery not measured.*the driver cannot say/],
    ];
    for (const [r, why] of cases) {
      const t = thrown(() => assertRaced(r, 'first uses'));
      // too wide a spread asks for the check to be taken again (a warning too when it is not)
      expect(t?.name).toBe(r.spreadMs > RACE_SPREAD_BOUND_MS ? 'RetakeSignal' : 'WarningSignal');
      expect(t?.message).toMatch(/^inconclusive race: 32 first uses: /);
      expect(t?.message).toMatch(why);
    }
    expect(thrown(() => assertRaced(race(one(32), RACE_SPREAD_BOUND_MS), 'first uses'))).toBeUndefined();
  });

  it('runs a race through the driver when it can, otherwise all at once and unmeasured', async () => {
    const measured = race(one(4), 0.2);
    expect(
      await runRace(
        4,
        async (n) => ({ ...measured, inFlight: n }),
        async () => ({ ok: false }),
      ),
    ).toEqual(measured);
    const calls: number[] = [];
    const r = await runRace(4, undefined, async (i) => {
      calls.push(i);
      return { ok: i === 0 };
    });
    expect(calls).toEqual([0, 1, 2, 3]);
    expect(r.results).toEqual([{ ok: true }, { ok: false }, { ok: false }, { ok: false }]);
    expect(Number.isNaN(r.spreadMs)).toBe(true);
  });
});

describe('a race check taken again when the machine spread its requests', () => {
  afterEach(() => {
    setRunContext(checkContext(1));
  });

  /**
   * Runs one check whose attempt `i` (from 0) grades the race `races(i)` after a setup that
   * registers a cleanup; returns the check's outcome, how many attempts ran and how many
   * cleanups ran.
   */
  async function raceCheck(
    races: (attempt: number) => RaceOutcome<{ ok: boolean }>,
    options: { timeoutMs?: number; attemptMs?: number } = {},
  ): Promise<{ state?: string; message?: string; attempts: number; cleanups: number }> {
    setRunContext(checkContext(1));
    let attempts = 0;
    let cleanups = 0;
    const root = loadTree(() => {
      const test = check(`race-retake-${Math.random()}`, ['X-1'], 'one success among racers', async () => {
        const r = races(attempts++);
        onCheckEnd(() => cleanups++);
        if (options.attemptMs) await new Promise((done) => setTimeout(done, options.attemptMs));
        singleWinner(r, (x) => x.ok, 'first uses');
        assertRaced(r, 'first uses');
      });
      if (options.timeoutMs !== undefined) test.timeout(options.timeoutMs);
    });
    await runTree(root);
    const o = outcomeOfTest(testsOf(root)[0] as Mocha.Test);
    return { state: o?.state, message: o?.message, attempts, cleanups };
  }
  const wide = race(one(32), 72.4);
  const tight = race(one(32), 0.61);

  it('passes when a later attempt is tight, saying what the earlier ones were', async () => {
    const r = await raceCheck((i) => (i === 0 ? wide : tight));
    expect(r).toMatchObject({ state: 'passed', attempts: 2, cleanups: 2 });
    expect(r.message).toMatch(/^32 in flight within 0\.61 ms, exactly one success/);
    expect(r.message).toMatch(/; taken 2 times \(attempt 1: the requests left over 72\.40 ms\)$/);
    // the first attempt's note is not the check's
    expect(r.message?.match(/exactly one success \(/g)).toHaveLength(1);
  });

  it(`is a warning, never a pass, when every one of ${CHECK_ATTEMPTS} attempts is too wide`, async () => {
    const r = await raceCheck(() => wide);
    expect(r).toMatchObject({ state: 'warning', attempts: CHECK_ATTEMPTS, cleanups: CHECK_ATTEMPTS });
    expect(r.message).toMatch(/^inconclusive race: 32 first uses: .*left over 72\.40 ms/);
    expect(r.message).toMatch(
      /; taken 3 times \(attempt 1: the requests left over 72\.40 ms; attempt 2: the requests left over 72\.40 ms\)$/,
    );
  });

  it('fails at the first attempt with two successes, however wide, and is not taken again', async () => {
    const r = await raceCheck(() => race(Array(32).fill(true), 72.4));
    expect(r).toMatchObject({ state: 'failed', attempts: 1 });
    expect(r.message).not.toMatch(/taken/);
  });

  it('takes again no race that another attempt would not change (unmeasured, answered early)', async () => {
    for (const r of [race(one(32), Number.NaN), race(one(32), 0.5, 30)]) {
      expect(await raceCheck(() => r)).toMatchObject({ state: 'warning', attempts: 1 });
    }
  });

  it("takes again only while the check's timeout leaves room for another attempt", async () => {
    // an attempt of 120 ms in a 300 ms timeout: a second would end past it
    const r = await raceCheck(() => wide, { timeoutMs: 300, attemptMs: 120 });
    expect(r).toMatchObject({ state: 'warning', attempts: 1 });
  });
});
