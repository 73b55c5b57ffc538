/**
 * Reading a results.json someone hands to `cprc diff`, `matrix`, `report` or a bundle: parsed,
 * with the members those commands rely on checked, so a wrong file gets a clear error naming
 * the file and what is wrong, never a stack trace.
 */
import { readFileSync } from 'node:fs';
import { CprcError } from '../errors.js';
import type { ConformanceResults } from '../model/results.js';
import { isObject } from '../model/util.js';

/** A results.json document with the text it was read from. */
export interface LoadedResults {
  /** Path as given. */
  path: string;
  /** The exact text of the file. */
  text: string;
  /** The parsed document. */
  doc: ConformanceResults;
}

/**
 * Checks that `value` has the shape of a cprc results.json (version 1.x): `results_version`,
 * `suite_version`, `tests` (each with a string `id` and `state`) and `requirements` (each with a
 * string `id` and `verdict`).
 *
 * @throws CprcError `CPRC_INPUT_INVALID` naming `label` and the member that is wrong.
 */
export function asResults(value: unknown, label: string): ConformanceResults {
  const bad = (what: string): never => {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `${label}: ${what}; give a results.json written by "cprc run" (reports folder)`,
    );
  };
  if (!isObject(value)) return bad('not a JSON object');
  if (typeof value.results_version !== 'string' || !value.results_version.startsWith('1.')) {
    bad(`"results_version" must be "1.x", got ${JSON.stringify(value.results_version) ?? 'nothing'}`);
  }
  if (typeof value.suite_version !== 'string') bad('"suite_version" is missing');
  if (!Array.isArray(value.tests)) return bad('"tests" must be an array');
  value.tests.forEach((test, i) => {
    if (!isObject(test) || typeof test.id !== 'string' || typeof test.state !== 'string') {
      bad(`tests[${i}] needs a string "id" and "state"`);
    }
  });
  if (!Array.isArray(value.requirements)) return bad('"requirements" must be an array');
  value.requirements.forEach((req, i) => {
    if (!isObject(req) || typeof req.id !== 'string' || typeof req.verdict !== 'string') {
      bad(`requirements[${i}] needs a string "id" and "verdict"`);
    }
  });
  return value as unknown as ConformanceResults;
}

/**
 * Parses results.json text.
 * @throws CprcError `CPRC_INPUT_INVALID` when it is not JSON or not a results document.
 */
export function parseResults(text: string, label: string): ConformanceResults {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `${label}: not JSON (${err instanceof Error ? err.message : String(err)}); give a results.json written by "cprc run"`,
    );
  }
  return asResults(value, label);
}

/**
 * Reads and checks a results.json file.
 *
 * @throws CprcError `CPRC_IO` when it cannot be read; `CPRC_INPUT_INVALID` when it is not a results document.
 * @example
 * ```ts
 * const { doc } = readResults('reports/results.json');
 * ```
 */
export function readResults(path: string): LoadedResults {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new CprcError(
      'CPRC_IO',
      `${path}: cannot read it (${code === 'ENOENT' ? 'no such file' : (code ?? String(err))}); check the path`,
    );
  }
  return { path, text, doc: parseResults(text, path) };
}
