/**
 * Which checks cover which requirement. The `checks` lists of the catalog are derived, never
 * written by hand: from the tests of a run against the reference implementations (each test
 * names its requirement IDs in its title) and from the validator's rule modules (each names the
 * IDs of the findings it emits). `npm run catalog:checks` writes them; the reference self-test
 * fails when they are stale.
 *
 * @packageDocumentation
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';
import { type Catalog, REQUIREMENT_ID_SCAN_PATTERN } from './index.js';

/** The part of a results.json test that coverage needs. */
export interface CoveredTest {
  target: string;
  title: string;
  requirements: readonly string[];
}

/** Source folders whose modules emit findings: each module covers the IDs it names. */
const FINDING_MODULES: ReadonlyArray<{ dir: string; label: string; ext: string }> = [
  { dir: 'src/validator', label: 'validator', ext: '.ts' },
  { dir: 'src/validator/rules', label: 'validator', ext: '.ts' },
  { dir: 'src/codec', label: 'codec', ext: '.ts' },
  // schema keywords carry the ID their failure is reported under (`x-requirement`)
  { dir: 'schemas/cpr', label: 'schema', ext: '.schema.json' },
  { dir: 'schemas/cashpack', label: 'schema', ext: '.schema.json' },
  { dir: 'schemas/harness', label: 'schema', ext: '.schema.json' },
];

/** A test's title without its leading `[ID ...]` and without a trailing channel label. */
function checkName(test: CoveredTest): string {
  const title = test.title.replace(/^\[[^\]]*\]\s*/, '').replace(/\s+\((?:http|stdio)\)$/, '');
  return `${test.target}: ${title}`;
}

/**
 * The checks covering each requirement ID: `<target>: <test title>` for every test of a run,
 * and `<validator|codec>: <module>` for every finding module naming the ID. Sorted, unique.
 *
 * @example
 * ```ts
 * const byId = checksByRequirement(results.tests);
 * byId.get('CPR-5-TOKEN-SINGLE-USE'); // ['payee: a token serves its CPR once', ...]
 * ```
 */
export function checksByRequirement(
  tests: readonly CoveredTest[],
  root = packageRoot(),
): Map<string, string[]> {
  const byId = new Map<string, Set<string>>();
  const add = (id: string, check: string): void => {
    let set = byId.get(id);
    if (!set) {
      set = new Set();
      byId.set(id, set);
    }
    set.add(check);
  };
  for (const test of tests) for (const id of test.requirements) add(id, checkName(test));
  for (const { dir, label, ext } of FINDING_MODULES) {
    for (const file of readdirSync(join(root, dir))) {
      if (!file.endsWith(ext) || file === 'index.ts' || file === 'types.ts') continue;
      const text = readFileSync(join(root, dir, file), 'utf8');
      for (const m of text.matchAll(REQUIREMENT_ID_SCAN_PATTERN)) add(m[0], `${label}: ${dir}/${file}`);
    }
  }
  return new Map([...byId].map(([id, set]) => [id, [...set].sort()]));
}

/**
 * The catalog with every requirement's `checks` replaced by the derived list (requirements no
 * check names get `[]`), and the list of requirements whose `checks` changed.
 */
export function withDerivedChecks(
  catalog: Catalog,
  byId: ReadonlyMap<string, readonly string[]>,
): { catalog: Catalog; changed: string[] } {
  const changed: string[] = [];
  const requirements = catalog.requirements.map((r) => {
    const checks = [...(byId.get(r.id) ?? [])];
    if (JSON.stringify(checks) !== JSON.stringify(r.checks)) changed.push(r.id);
    return { ...r, checks };
  });
  // mapping the (non-empty) requirements keeps them non-empty
  return { catalog: { ...catalog, requirements: requirements as Catalog['requirements'] }, changed };
}
