import { execFileSync } from 'node:child_process';
import { packageRoot } from '../../src/paths.js';

/** The environment variable choosing how much of the self-test runs. */
export const SELFTEST_SLICE_ENV = 'CPRC_SELFTEST';

/**
 * How many slices the self-test is cut into when it does not run whole: `npm test` (and CI) runs
 * one of them, so a run stays within CI's time; `npm run selftest` runs them all.
 */
export const SELFTEST_SLICES = 6;

/** Which part of the self-test a run takes: every run, or slice `index` of `of`. */
export type SelfTestSlice =
  | { all: true; why: string }
  | { all: false; index: number; of: number; why: string };

/**
 * Reads the slice to run from `CPRC_SELFTEST`: `all` runs every broken implementation and
 * permitted variant; `K/N` runs slice K of N (each target's list, broken then variants, dealt
 * round-robin into N slices). Unset, the slice rotates with the commit checked out (its hash
 * modulo {@link SELFTEST_SLICES}), so the same commit always runs the same slice and successive
 * commits run every slice in turn: a broken implementation whose expected set went stale is
 * caught within a few landings even when its slice did not run the day it went stale.
 */
export function selfTestSlice(
  env: NodeJS.ProcessEnv = process.env,
  commitOf: () => string | undefined = headCommit,
): SelfTestSlice {
  const asked = env[SELFTEST_SLICE_ENV]?.trim();
  if (asked === 'all') return { all: true, why: `${SELFTEST_SLICE_ENV}=all` };
  if (asked) {
    const m = /^(\d+)\/(\d+)$/.exec(asked);
    const index = Number(m?.[1]);
    const of = Number(m?.[2]);
    if (!m || of < 1 || index < 1 || index > of)
      throw new Error(
        `${SELFTEST_SLICE_ENV}=${asked} is not "all" or "K/N" with 1 <= K <= N (for example ${SELFTEST_SLICE_ENV}=2/${SELFTEST_SLICES})`,
      );
    return { all: false, index, of, why: `${SELFTEST_SLICE_ENV}=${asked}` };
  }
  const commit = commitOf();
  const index = commit ? (Number.parseInt(commit.slice(0, 8), 16) % SELFTEST_SLICES) + 1 : 1;
  return {
    all: false,
    index,
    of: SELFTEST_SLICES,
    why: commit
      ? `rotating with commit ${commit.slice(0, 12)}; ${SELFTEST_SLICE_ENV}=all runs every slice`
      : `no git commit to rotate with; ${SELFTEST_SLICE_ENV}=all runs every slice`,
  };
}

/** Whether the item at `position` of a target's list belongs to `slice`. */
export function inSlice(slice: SelfTestSlice, position: number): boolean {
  return slice.all || position % slice.of === slice.index - 1;
}

/** The commit checked out in the package folder, or undefined outside a git work tree. */
function headCommit(): string | undefined {
  try {
    const out = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: packageRoot(),
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return /^[0-9a-f]{40}$/.test(out) ? out : undefined;
  } catch {
    return undefined;
  }
}
