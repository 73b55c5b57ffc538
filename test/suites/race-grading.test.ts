/**
 * How the suites grade a race (suites/_lib/race.ts): not exactly one success fails whatever the
 * spread; one success passes only when every racer was in flight within the bound; otherwise the
 * race is inconclusive (a warning), never a pass.
 */
import { describe, expect, it } from 'vitest';
import type { RaceOutcome } from '../../src/drivers/types.js';
import {
  assertRaced,
  deliveryOf,
  RACE_SPREAD_BOUND_MS,
  runRace,
  singleWinner,
} from '../../suites/_lib/race.js';

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
      expect(t?.name).toBe('WarningSignal');
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
