import type { RunConfig } from '../../src/generated/tool/run-config.js';

/** The target a broken implementation stands in for. */
export type BrokenTarget = 'payee' | 'wallet' | 'operator';

/** A system started for one self-test run. */
export interface StartedBroken {
  /** A complete run configuration pointing at the started system (and nothing else). */
  config: RunConfig;
  /** Stops every server or process `start` created. */
  close(): Promise<void>;
}

/** What every self-test subject has: a broken implementation or a permitted variant. */
export interface SelfTestSubject {
  /** kebab-case, prefixed with the target, e.g. `payee-token-reuse` or `payee-variant-hex-tokens`. */
  id: string;
  target: BrokenTarget;
  /** Starts the system on 127.0.0.1 and returns a run config for it. */
  start(ctx: { workDir: string }): Promise<StartedBroken>;
}

/**
 * A permitted variant: the reference implementation with one choice flipped that the
 * specification or the profile allows (a "may", or one of two readings the profile allows). The
 * self-test runs the target's whole suite against it and requires zero failed, warning and error
 * checks, and exit 0: a check that fails a permitted variant would fail a conformant implementation.
 *
 * @example
 * ```ts
 * export const hexTokens: PermittedVariant = {
 *   id: 'payee-variant-hex-tokens',
 *   target: 'payee',
 *   choice: 'tokens are written in lowercase hex instead of base32',
 *   clause: 'profile 2: "written in lowercase base32 ... or lowercase hex"',
 *   start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new HexTokenStore() }),
 * };
 * ```
 */
export interface PermittedVariant extends SelfTestSubject {
  /** One sentence: the allowed behaviour this variant shows. */
  choice: string;
  /** The clause of the spec or profile that allows it, quoted briefly. */
  clause: string;
}

/**
 * A deliberately broken implementation: the reference implementation with exactly one fault,
 * made by subclassing or injecting one component. The self-test runs the target's suite
 * against it (at `--level profile`) and requires the set of requirement IDs whose verdict is
 * failed, warning or error to equal `expected`: the fault trips its checks, and no others, each
 * as a failure at the level its rule belongs to (a SPEC or PROFILE MUST fails; only SHOULD/MAY,
 * and a doubtful MUST graded by `warn()`, end as warnings).
 *
 * @example
 * ```ts
 * export const tokenReuse: BrokenImplementation = {
 *   id: 'payee-token-reuse',
 *   target: 'payee',
 *   fault: 'a consumed token serves the CPR again',
 *   expected: ['CPR-5-TOKEN-SINGLE-USE', 'CPR-5-TOKEN-REUSE-ERROR', 'PRF-2-TOKEN-CONSUMED-410'],
 *   start: ({ workDir }) => startBrokenPayee(workDir, { tokens: new ReusableTokenStore() }),
 * };
 * ```
 */
export interface BrokenImplementation extends SelfTestSubject {
  /** One sentence: what is broken. */
  fault: string;
  /** Requirement IDs that must come out failed, warning or error, and no others. */
  expected: string[];
  /**
   * The exit code the run (at `--level profile`) must end with, when it is not the one the catalog
   * implies (1 when an expected ID is a MUST, SPEC or PROFILE): a check that grades an ambiguous
   * MUST as an advisory warning (`warn()`).
   */
  exitCode?: 0 | 1;
  /**
   * Property runs of its self-test run (`--runs`) when {@link BROKEN_RUNS} is too few for the
   * fault to show (a fault the generated cases meet only rarely).
   */
  runs?: number;
  /**
   * The fault shows wherever requests overlap, which a `cprc run --jobs` run makes them do across
   * its processes (two processes' derivations sharing a slot, one process's retrieval sent to
   * another's mock payee): a self-test run with `--jobs` (`CPRC_SELFTEST_JOBS`) trips at least
   * {@link expected}, and may trip more.
   */
  overlapSensitive?: true;
}

/**
 * Property runs (`--runs`) of the self-test run against a broken implementation (a permitted
 * variant and the reference run with the suite's default, 100). The seed is fixed and fast-check
 * generates a property's cases in the same order whatever the number of runs, so a fault found
 * within these runs is found by every run of the suite with as many runs or more: fewer runs
 * prove the same, in about half the time for the wallet suite (most of its checks are properties).
 */
export const BROKEN_RUNS = 25;
