/**
 * Types of the reference validator: results, options and the shape of one rule in `rules/`
 * (findings are `src/model/finding.ts`, docs/conventions.md "Findings").
 *
 * @packageDocumentation
 */

import type { Finding } from '../model/finding.js';

/** Outcome of a validation: `valid` is true when no finding has severity `error`. */
export interface ValidationResult {
  /** True when no finding is an error (warnings allowed). */
  valid: boolean;
  /** Every finding, errors and warnings, in document order of the checks. */
  findings: Finding[];
}

/**
 * Which reading of CPR-1.0 to apply. `payee`: what a conformant payee may emit (strict).
 * `wallet`: what a conformant paying application must accept (lenient on offsets, rail_hint,
 * JSON-number amounts; strict on expiry).
 */
export type ValidationMode = 'payee' | 'wallet';

/** Options of {@link validateCpr}. */
export interface ValidateCprOptions {
  /** Reading to apply; default `'wallet'`. */
  mode?: ValidationMode;
  /** The instant expiry is judged against; default: the current time. */
  now?: Date;
  /** Ceiling of expires_at - created_at before a warning (profile section 2); default 30 days. */
  maxValiditySeconds?: number;
}

/** What every rule receives. */
export interface RuleContext {
  /** The document: a plain object (rules run only on objects). */
  doc: Record<string, unknown>;
  /** Reading applied. */
  mode: ValidationMode;
  /** Instant expiry is judged against, in ms since the epoch. */
  nowMs: number;
  /** Validity ceiling in seconds. */
  maxValiditySeconds: number;
}

/**
 * One rule a schema cannot express. Each lives in its own file under `rules/` with the
 * requirement IDs it reports and its messages beside it.
 */
export interface Rule {
  /** Short name, equal to the file name. */
  name: string;
  /** Every requirement ID the rule can report. */
  requirements: readonly string[];
  /** Findings for `ctx.doc`; never throws on a plain object of any content. */
  check(ctx: RuleContext): Finding[];
  /**
   * The same findings as {@link Rule.check}, appended to `out` in the same order (what
   * `validateCpr` calls: no array per rule and document).
   */
  collect(ctx: RuleContext, out: Finding[]): void;
}
