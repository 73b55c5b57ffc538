import { readFileSync } from 'node:fs';
import { CprcError } from '../errors.js';
import type { Baseline } from '../generated/tool/baseline.js';
import { getSchemaValidator } from '../schemas/registry.js';
import { describeConfigError } from './config.js';

/**
 * Reads and validates an expected-failures baseline (`cprc run --baseline FILE`, schema
 * `schemas/tool/baseline.schema.json`). Every problem is a `CPRC_USAGE` error naming the file
 * and the entry (`cprc run` exits 2).
 * @example
 * ```ts
 * const baseline = loadBaseline('known-failures.json');
 * // { file: 'known-failures.json', document: { entries: [{ check: 'payee/token-reuse', reason: 'JIRA-12' }] } }
 * ```
 */
export function loadBaseline(file: string): { file: string; document: Baseline } {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new CprcError(
      'CPRC_USAGE',
      `--baseline ${file}: cannot read it as JSON (${err instanceof Error ? err.message : String(err)}); give a JSON file { "entries": [{ "check" | "requirement", "reason" }] }`,
    );
  }
  const validate = getSchemaValidator('tool/baseline');
  if (!validate(raw)) {
    const lines = [
      ...new Set((validate.errors ?? []).filter((e) => e.keyword !== 'anyOf').map(describeConfigError)),
    ];
    if ((validate.errors ?? []).some((e) => e.keyword === 'anyOf'))
      lines.push('an entry names neither "check" nor "requirement"; give one of them');
    throw new CprcError(
      'CPRC_USAGE',
      `--baseline ${file}: invalid baseline (schemas/tool/baseline.schema.json):\n  - ${lines.slice(0, 10).join('\n  - ')}`,
    );
  }
  return { file, document: raw as Baseline };
}
