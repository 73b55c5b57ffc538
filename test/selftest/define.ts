import { describe, expect, it } from 'vitest';
import { faultsByTarget } from '../broken/all.js';
import { recordSelfTestRun } from '../broken/matrix-record.js';
import { runFault, runVariant } from '../broken/run-fault.js';
import type { BrokenTarget } from '../broken/types.js';
import { variantsByTarget } from '../variants/all.js';
import { inSlice, type SelfTestSlice, selfTestSlice } from './slice.js';

/**
 * Declares the self-test of one target's suite: every deliberately broken implementation of the
 * target makes the run (at `--level profile`) fail on exactly the requirement IDs named for its
 * fault, and on no others, each as a failure at the level its rule belongs to (a SPEC or PROFILE
 * MUST fails, only SHOULD/MAY warn), and the run exits 1 when one of them is a MUST (0 when all
 * are SHOULD/MAY); and every permitted
 * variant (a choice the contract allows) passes the whole suite: no failure, warning or error, exit
 * 0. Runs the built CLI (`npm test` builds first).
 *
 * Which of them run is the slice ({@link selfTestSlice}): all of them with `CPRC_SELFTEST=all`
 * (`npm run selftest`), otherwise one slice of several (`SELFTEST_SLICES`), rotating with the commit.
 */
export function defineSelfTest(
  target: BrokenTarget,
  part: { index: number; of: number } = { index: 1, of: 1 },
  slice: SelfTestSlice = selfTestSlice(),
): void {
  // the target's list (broken implementations, then variants) is dealt into the slices; the
  // slice's share is then dealt into the parts, which let vitest run it in several workers
  const listed = [...faultsByTarget[target], ...variantsByTarget[target]];
  const sliced = listed.filter((_, k) => inSlice(slice, k));
  const ours = new Set(sliced.filter((_, k) => k % part.of === part.index - 1));
  const mine = <T extends (typeof listed)[number]>(items: readonly T[]): T[] =>
    items.filter((item) => ours.has(item));
  const label = [
    part.of > 1 ? `part ${part.index} of ${part.of}` : '',
    slice.all ? '' : `slice ${slice.index} of ${slice.of}, ${slice.why}`,
  ]
    .filter(Boolean)
    .join('; ');
  describe(`self-test: ${target} suite against deliberately broken implementations and permitted variants${label ? ` (${label})` : ''}`, () => {
    it('has broken implementations to prove its checks', () => {
      expect(faultsByTarget[target].length).toBeGreaterThan(0);
    });

    for (const fault of mine(faultsByTarget[target])) {
      it(`${fault.id}: ${fault.fault}`, async () => {
        const run = await runFault(fault);
        await recordSelfTestRun({ kind: 'broken', fault: fault.fault, ...run });
        const detail = [`exit ${run.exitCode}`, ...run.problems, run.stderr.trim()]
          .filter(Boolean)
          .join('\n');
        if (process.env.CPRC_SELFTEST_JOBS && fault.overlapSensitive)
          expect(run.tripped, detail).toEqual(expect.arrayContaining(run.expected));
        else expect(run.tripped, detail).toEqual(run.expected);
        expect(run.mustWarnings, detail).toEqual([]);
        expect(run.exitCode, detail).toBe(run.expectedExitCode);
      }, 180_000);
    }

    for (const variant of mine(variantsByTarget[target])) {
      it(`${variant.id} (permitted): ${variant.choice}`, async () => {
        const run = await runVariant(variant);
        await recordSelfTestRun({ kind: 'variant', choice: variant.choice, clause: variant.clause, ...run });
        const detail = [`exit ${run.exitCode}`, ...run.problems, run.stderr.trim()]
          .filter(Boolean)
          .join('\n');
        expect(run.problems, detail).toEqual([]);
        expect(run.tripped, detail).toEqual([]);
        expect(run.exitCode, detail).toBe(0);
      }, 180_000);
    }
  });
}
