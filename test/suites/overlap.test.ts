/**
 * `assertProperty(..., { overlap: true })` (suites/_lib): in a `--jobs` child the runs of a
 * property with independent runs overlap. What a report says must not depend on it: the same
 * values in the same order, the same evidence order, the same failure after the same shrinking;
 * only a run that fails beside others and passes alone is told apart.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { Recorder } from '../../src/drivers/recorder.js';
import { CprcError } from '../../src/errors.js';
import { type RunContext, setRunContext } from '../../src/runner/context.js';
import { assertProperty, eachOverlapping, notesSoFar, PropertyOutOfTime } from '../../suites/_lib/index.js';

let recorder: Recorder;

function context(lanes: number, timeoutMs = 60_000): void {
  recorder = new Recorder();
  setRunContext({
    seed: 20260601,
    runs: 60,
    timeoutMs,
    recorder,
    propertyLanes: lanes,
  } as unknown as RunContext);
}

/** A stand-in target: answers after a delay drawn from the value, counting what is in flight at once. */
function target() {
  let inFlight = 0;
  let most = 0;
  return {
    get most() {
      return most;
    },
    get inFlight() {
      return inFlight;
    },
    async answer(v: number): Promise<number> {
      inFlight++;
      most = Math.max(most, inFlight);
      try {
        await sleep(v % 7);
        recorder.record({ kind: 'http', method: 'POST', url: `https://t.test/v/${v}`, duration_ms: 1 });
        return v;
      } finally {
        inFlight--;
      }
    },
  };
}

/** The AssertionError message of a property, or 'passed'. */
async function verdict(run: () => Promise<void>): Promise<string> {
  try {
    await run();
    return 'passed';
  } catch (err) {
    return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  }
}

describe('assertProperty with overlap: true', () => {
  beforeEach(() => context(4));

  it('runs the values of a serial run, up to propertyLanes at once, and keeps their exchanges in run order', async () => {
    const seen: Record<number, number[]> = {};
    const urls: Record<number, string[]> = {};
    const most: Record<number, number> = {};
    for (const lanes of [1, 4]) {
      context(lanes);
      const t = target();
      seen[lanes] = [];
      await assertProperty(
        fc.asyncProperty(fc.nat({ max: 10_000 }), async (v) => {
          await t.answer(v);
          seen[lanes]?.push(v);
        }),
        { overlap: true },
      );
      urls[lanes] = recorder.take().map((e) => e.url ?? '');
      most[lanes] = t.most;
    }
    expect(most).toEqual({ 1: 1, 4: 4 });
    expect(urls[1]).toHaveLength(60);
    // the same runs, ending in another order, and their evidence in the same order
    expect([...(seen[4] ?? [])].sort()).toEqual([...(seen[1] ?? [])].sort());
    expect(seen[4]).not.toEqual(seen[1]);
    expect(urls[4]).toEqual(urls[1]);
  });

  it('a property without overlap stays one run at a time in a --jobs child', async () => {
    const t = target();
    await assertProperty(fc.asyncProperty(fc.nat(), async (v) => void (await t.answer(v))));
    expect(t.most).toBe(1);
  });

  it('fails, shrinks and reports a failing property exactly as a serial run does', async () => {
    const messages: string[] = [];
    for (const lanes of [1, 4]) {
      context(lanes);
      const t = target();
      messages.push(
        await verdict(() =>
          assertProperty(
            fc.asyncProperty(fc.nat({ max: 10_000 }), async (v) => {
              await t.answer(v);
              if (v > 2_000) throw new Error(`${v} is over 2000`);
            }),
            { overlap: true },
          ),
        ),
      );
    }
    expect(messages[0]).toMatch(/^AssertionError: 2001 is over 2000 \[property: counterexample \[2001\]/);
    expect(messages[1]).toBe(messages[0]);
  });

  it('keeps the serial verdict of a run that fails only beside others, saying so in a note', async () => {
    const t = target();
    let answers = 0;
    await assertProperty(
      fc.asyncProperty(fc.nat({ max: 10_000 }), async (v) => {
        const busy = t.inFlight > 0;
        await t.answer(v);
        answers++;
        if (busy) throw new Error(`answered ${v} wrongly\nsecond line`);
      }),
      { overlap: true },
    );
    // made again one run at a time after the overlapped runs
    expect(answers).toBeGreaterThan(60);
    expect(notesSoFar().at(-1)).toMatch(
      /^run \d+ of 60 \(\[\d+\]\) failed while up to 4 runs were in flight at once and passed when the runs were made again one at a time, as in a serial run: answered \d+ wrongly$/,
    );
  });

  it('a transport error beside others is not a verdict: the runs are made again one at a time', async () => {
    const t = target();
    let failedOnce = false;
    const r = await verdict(() =>
      assertProperty(
        fc.asyncProperty(fc.nat(), async (v) => {
          if (t.inFlight > 2 && !failedOnce) {
            failedOnce = true;
            throw new CprcError('CPRC_TIMEOUT', 'no answer within 10 ms');
          }
          await t.answer(v);
        }),
        { overlap: true },
      ),
    );
    expect(failedOnce).toBe(true);
    expect(r).toBe('passed');
    expect(t.most).toBeGreaterThan(2);
  });

  it('runs out of time as a serial property does: no verdict', async () => {
    context(4, 2_000);
    const p = assertProperty(
      fc.asyncProperty(fc.nat(), async () => {
        await sleep(100);
      }),
      { overlap: true },
    );
    await expect(p).rejects.toBeInstanceOf(PropertyOutOfTime);
    await expect(p).rejects.toThrow(/ran out of the check's time after \d+ of 60 runs/);
  });

  it('refuses freshState with overlap (those runs share state)', async () => {
    await expect(
      assertProperty(
        fc.asyncProperty(fc.nat(), async () => undefined),
        {
          overlap: true,
          freshState: () => undefined,
        },
      ),
    ).rejects.toThrow(/freshState .* drop overlap/);
  });
});

describe('eachOverlapping', () => {
  const items = Array.from({ length: 40 }, (_, i) => (i * 37) % 101);

  /** What a loop over `items` did: the judged items, the evidence, the most in flight, the error. */
  async function loop(lanes: number, fail?: { work?: number; judge?: number }) {
    context(lanes);
    const t = target();
    const judged: number[] = [];
    let error: string | undefined;
    try {
      await eachOverlapping(
        items,
        async (v) => {
          const r = await t.answer(v);
          if (v === fail?.work) throw new CprcError('CPRC_TIMEOUT', `no answer for ${v}`);
          return r;
        },
        (r, v) => {
          if (v === fail?.judge) throw new Error(`${v} judged wrong`);
          judged.push(r);
        },
      );
    } catch (err) {
      error = (err as Error).message;
    }
    return { judged, urls: recorder.take().map((e) => e.url), most: t.most, error };
  }

  it('judges in the items order with the evidence of a serial loop, up to propertyLanes at once', async () => {
    const serial = await loop(1);
    const overlapped = await loop(4);
    expect(serial.most).toBe(1);
    expect(overlapped.most).toBe(4);
    expect(overlapped.judged).toEqual(items);
    expect(overlapped).toEqual({ ...serial, most: 4 });
  });

  it('ends at the first item whose work threw, as a serial loop does, without the later items evidence', async () => {
    const at = items[12];
    const serial = await loop(1, { work: at });
    const overlapped = await loop(4, { work: at });
    expect(serial.error).toBe(`no answer for ${at}`);
    expect(serial.judged).toHaveLength(12);
    expect({ ...overlapped, most: 1 }).toEqual(serial);
  });

  it('ends at the first item its judge fails, as a serial loop does', async () => {
    const at = items[30];
    const serial = await loop(1, { judge: at });
    const overlapped = await loop(4, { judge: at });
    expect(serial.error).toBe(`${at} judged wrong`);
    expect({ ...overlapped, most: 1 }).toEqual(serial);
  });

  it('from an item that fails only beside others goes on one at a time: the serial verdict, and a note', async () => {
    context(4);
    const t = target();
    const judged: number[] = [];
    await eachOverlapping(
      items,
      async (v) => {
        const busy = t.inFlight > 0;
        return { v: await t.answer(v), busy };
      },
      (r) => {
        if (r.busy) throw new Error(`${r.v} answered wrongly beside others`);
        judged.push(r.v);
      },
    );
    expect(judged).toEqual(items);
    expect(recorder.take().map((e) => e.url)).toEqual(items.map((v) => `https://t.test/v/${v}`));
    expect(notesSoFar().at(-1)).toMatch(
      /^item \d+ of 40 failed while up to 4 were in flight at once and passed when made again alone, as in a serial run: \d+ answered wrongly beside others$/,
    );
  });

  it('keeps the evidence of overlapping properties inside overlapping items in the serial order', async () => {
    const urls: Array<Array<string | undefined>> = [];
    for (const lanes of [1, 4]) {
      context(lanes);
      const t = target();
      await eachOverlapping([1, 2, 3], (k) =>
        assertProperty(
          fc.asyncProperty(fc.nat({ max: 1000 }), async (v) => void (await t.answer(v * 10 + k))),
          { overlap: true, numRuns: 10 },
        ),
      );
      urls.push(recorder.take().map((e) => e.url));
    }
    expect(urls[0]).toHaveLength(30);
    expect(urls[1]).toEqual(urls[0]);
  });
});
