/**
 * Findings (docs/conventions.md, "Findings"): one thing wrong (or doubtful) in a document or a
 * URI, tied to one catalog requirement. The validator and the codec both build them with
 * {@link finding}. Matches `schemas/tool/finding.schema.json`.
 *
 * @packageDocumentation
 */

/** SPEC: the specification states the rule. PROFILE: the test profile makes the choice. */
export type FindingLevel = 'SPEC' | 'PROFILE';

/** `error` makes a document invalid; `warning` does not. */
export type FindingSeverity = 'error' | 'warning';

/**
 * One thing wrong (or doubtful) in a document, tied to one requirement of the catalog.
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

/** Level of a requirement ID: `PRF-` IDs are PROFILE choices, the others SPEC rules. */
export function levelOf(requirement: string): FindingLevel {
  return requirement.startsWith('PRF-') ? 'PROFILE' : 'SPEC';
}

/**
 * Builds a finding; the level follows from the requirement ID.
 *
 * @example
 * ```ts
 * finding('CPR-2.1-MEMO-LENGTH', '/memo', 'memo has 141 code points; at most 140 are allowed');
 * ```
 */
export function finding(
  requirement: string,
  path: string,
  message: string,
  severity: FindingSeverity = 'error',
): Finding {
  return { requirement, level: levelOf(requirement), severity, path, message };
}
