// Shared by the per-rule tests of test/validator/rules/: runs one rule on one document and checks
// the findings by requirement ID, path and severity (never by message wording, which is for people).
import { expect } from 'vitest';
import type { Finding } from '../../../src/model/finding.js';
import type { Rule, RuleContext, ValidationMode } from '../../../src/validator/types.js';

/** The instant the per-rule tests judge expiry against. */
export const NOW_MS = Date.parse('2026-06-01T12:00:00Z');

/** Options of {@link runRule}. */
export interface RunOptions {
  mode?: ValidationMode;
  nowMs?: number;
  maxValiditySeconds?: number;
}

/**
 * The findings of `rule` on `doc` (a fresh copy, so no memo of an earlier run is reused), through
 * `check`, after checking that `collect` appends exactly the same findings.
 */
export function runRule(rule: Rule, doc: Record<string, unknown>, opts: RunOptions = {}): Finding[] {
  const ctx: RuleContext = {
    doc: structuredClone(doc),
    mode: opts.mode ?? 'payee',
    nowMs: opts.nowMs ?? NOW_MS,
    maxValiditySeconds: opts.maxValiditySeconds ?? 30 * 86_400,
  };
  const found = rule.check(ctx);
  if (rule.collect !== undefined) {
    const marker: Finding = { requirement: 'X', level: 'SPEC', severity: 'error', path: '', message: 'x' };
    const out: Finding[] = [marker];
    rule.collect({ ...ctx, doc: structuredClone(doc) }, out);
    expect(out[0]).toBe(marker);
    expect(out.slice(1)).toEqual(found);
  }
  for (const f of found) {
    expect(f.requirement).toMatch(/^(CPR|PRF)-/);
    expect(f.message.length).toBeGreaterThan(0);
    expect(rule.requirements).toContain(f.requirement);
  }
  return found;
}

/** One expected finding: requirement ID, path and severity (default 'error'). */
export type Expected = [requirement: string, path: string, severity?: 'error' | 'warning'];

/** `found` as [requirement, path, severity] triples, for a compact toEqual. */
export function summary(found: readonly Finding[]): Expected[] {
  return found.map((f) => [f.requirement, f.path, f.severity]);
}

/** Asserts that `rule` on `doc` gives exactly `expected` (in order) and returns the findings. */
export function expectFindings(
  rule: Rule,
  doc: Record<string, unknown>,
  expected: readonly Expected[],
  opts: RunOptions = {},
): Finding[] {
  const found = runRule(rule, doc, opts);
  expect(summary(found)).toEqual(expected.map(([r, p, s]) => [r, p, s ?? 'error']));
  return found;
}
