// Shared helpers of the schema tests: the fixture files and which schema each one exercises.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadSchemaFiles } from '../../src/schemas/registry.js';

/** Folder of the fixtures: `<dir>/<subject>-<variation>-ok|fail.json`, `<dir>` a folder of `schemas/`. */
export const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** Folders of `schemas/` (and single schemas) this area owns: each needs ok and fail fixtures. */
export const OWNED = (relPath: string): boolean =>
  relPath.startsWith('cashpack/') ||
  relPath.startsWith('harness/') ||
  relPath === 'tool/run-config.schema.json';

/** What a fail fixture must produce: an error of `keyword` at `instancePath`. */
export interface ExpectedError {
  instancePath: string;
  keyword: string;
}

/** One fixture file. */
export interface Fixture {
  /** Path under fixtures/, e.g. `cashpack/amount-zero-fail.json`. */
  file: string;
  /** Short schema id it is checked against, e.g. `cashpack/amount`. */
  schema: string;
  verdict: 'ok' | 'fail';
  data: unknown;
}

/** Every fixture, with its schema found as the longest schema name its file name starts with. */
export function loadFixtures(): Fixture[] {
  const schemaNames = loadSchemaFiles().map((f) => f.relPath.replace(/\.schema\.json$/, ''));
  const files: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/-(ok|fail)\.json$/.test(e.name)) files.push(relative(FIXTURES_DIR, p).split(sep).join('/'));
    }
  };
  walk(FIXTURES_DIR);
  return files.sort().map((file) => {
    const dir = file.slice(0, file.lastIndexOf('/'));
    const base = file.slice(file.lastIndexOf('/') + 1);
    const candidates = schemaNames
      .filter((n) => n.startsWith(`${dir}/`) && base.startsWith(`${n.slice(dir.length + 1)}-`))
      .sort((a, b) => b.length - a.length);
    const schema = candidates[0];
    if (!schema) throw new Error(`fixture ${file} names no schema of schemas/${dir}/`);
    return {
      file,
      schema,
      verdict: base.endsWith('-ok.json') ? 'ok' : 'fail',
      data: JSON.parse(readFileSync(join(FIXTURES_DIR, file), 'utf8')),
    };
  });
}

/** The expected error of every fail fixture (`fixtures/expected-errors.json`). */
export function loadExpectedErrors(): Record<string, ExpectedError> {
  return JSON.parse(readFileSync(join(FIXTURES_DIR, 'expected-errors.json'), 'utf8')) as Record<
    string,
    ExpectedError
  >;
}
