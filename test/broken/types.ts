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

/**
 * A deliberately broken implementation: the reference implementation with exactly one fault,
 * made by subclassing or injecting one component. The self-test runs the target's suite
 * against it and requires the set of requirement IDs whose verdict is failed, warning or error
 * to equal `expected`: the fault trips its checks, and no others.
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
export interface BrokenImplementation {
  /** kebab-case, prefixed with the target, e.g. `payee-token-reuse`. */
  id: string;
  target: BrokenTarget;
  /** One sentence: what is broken. */
  fault: string;
  /** Requirement IDs that must come out failed, warning or error, and no others. */
  expected: string[];
  /**
   * The exit code the run must end with, when it is not the one the catalog implies (1 when an
   * expected ID is a SPEC MUST): a check that grades an ambiguous MUST as a warning (`warn()`).
   */
  exitCode?: 0 | 1;
  /** Starts the broken system on 127.0.0.1 and returns a run config for it. */
  start(ctx: { workDir: string }): Promise<StartedBroken>;
}
