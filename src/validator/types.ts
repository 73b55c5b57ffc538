/**
 * Types of the reference validator: findings (docs/conventions.md, "Findings"), results, and the
 * shape of one rule in `rules/`.
 *
 * @packageDocumentation
 */

/** SPEC: the specification states the rule. PROFILE: the test profile makes the choice. */
export type FindingLevel = 'SPEC' | 'PROFILE';

/** `error` makes a document invalid; `warning` does not. */
export type FindingSeverity = 'error' | 'warning';

/**
 * One thing wrong (or doubtful) in a document, tied to one requirement of the catalog.
 * Matches `schemas/tool/finding.schema.json`.
 *
 * @example
 * ```ts
 * const f: Finding = { requirement: 'CPR-2.1-VERSION', level: 'SPEC', severity: 'error', path: '/cpr_version', message: 'cpr_version must equal "CPR-1.0"' };
 * ```
 */
export interface Finding {
  /** Requirement ID from `suites/catalog/requirements.json`. */
  requirement: string;
  /** Whether the spec or the profile makes the rule. */
  level: FindingLevel;
  /** `error` or `warning`. */
  severity: FindingSeverity;
  /** JSON pointer (RFC 6901) into the document; `''` is the root. */
  path: string;
  /** Lower-case explanation naming the member and what is wrong. */
  message: string;
}

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
}
