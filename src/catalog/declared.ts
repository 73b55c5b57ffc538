/**
 * Coverage as declared data: which checks and which modules cover each catalog requirement.
 * Nothing is inferred from source text: a suite check declares its IDs in `check(slug, ids, ...)`
 * (read from the results of a reference run), each validator rule exports its `requirements`,
 * the schema findings and the codec export their tables, and the schemas annotate members with
 * `x-requirement`. `npm run catalog:coverage` writes the result to `suites/catalog/coverage.json`
 * (the only file a script writes beside the hand-written catalog); `test/catalog/coverage.test.ts`
 * and the reference self-test fail when it is stale.
 *
 * This module sits above the validator and the codec (it reads their tables); only scripts and
 * tests import it. Readers of the coverage file use `loadCoverage` of `./coverage.js`.
 *
 * @packageDocumentation
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { CODEC_REQUIREMENTS } from '../codec/requirements.js';
import { packageRoot } from '../paths.js';
import { JSON_TEXT_REQUIREMENTS } from '../validator/json-text.js';
import { CPR_RULES } from '../validator/rules/index.js';
import { SCHEMA_FINDING_REQUIREMENTS } from '../validator/schema-findings.js';
import { documentRequirementIds } from '../validator/validate-cpr.js';
import { MESSAGE_FALLBACK_REQUIREMENTS } from '../validator/validate-message.js';
import type { Coverage } from './coverage.js';

/** The part of a results.json test that coverage needs. */
export interface CoveredTest {
  /** Stable check ID (`<target>/<channel?>/<slug>`). */
  id: string;
  requirements: readonly string[];
}

/** Schema folders whose `x-requirement` annotations credit a requirement to the schema. */
const SCHEMA_DIRS = ['schemas/cpr', 'schemas/cashpack', 'schemas/harness'];

function add(map: Map<string, Set<string>>, id: string, what: string): void {
  let set = map.get(id);
  if (!set) {
    set = new Set();
    map.set(id, set);
  }
  set.add(what);
}

function schemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...schemaFiles(path));
    else if (name.endsWith('.schema.json')) out.push(path);
  }
  return out.sort();
}

function xRequirements(node: unknown, found: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) xRequirements(item, found);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-requirement') {
      for (const id of Array.isArray(value) ? value : [value]) if (typeof id === 'string') found.add(id);
    } else xRequirements(value, found);
  }
}

/**
 * The modules declaring each requirement ID: `validator: rules/<rule>` (a rule's `requirements`),
 * `validator: schema-findings` (the schema findings' table), `validator: validate-cpr` (the
 * structure finding), `validator: validate-message` (its fallback table), `validator: json-text` (JSON text rules), `codec`
 * (`CODEC_REQUIREMENTS`), `schema: <path>` (`x-requirement`).
 */
export function declaredModules(root = packageRoot()): Map<string, Set<string>> {
  const byId = new Map<string, Set<string>>();
  const ruleIds = new Set<string>();
  for (const rule of CPR_RULES) {
    for (const id of rule.requirements) {
      add(byId, id, `validator: rules/${rule.name}`);
      ruleIds.add(id);
    }
  }
  for (const id of SCHEMA_FINDING_REQUIREMENTS) add(byId, id, 'validator: schema-findings');
  for (const id of documentRequirementIds()) {
    if (!ruleIds.has(id) && !SCHEMA_FINDING_REQUIREMENTS.includes(id))
      add(byId, id, 'validator: validate-cpr');
  }
  for (const id of MESSAGE_FALLBACK_REQUIREMENTS) add(byId, id, 'validator: validate-message');
  for (const id of JSON_TEXT_REQUIREMENTS) add(byId, id, 'validator: json-text');
  for (const id of CODEC_REQUIREMENTS) add(byId, id, 'codec');
  for (const dir of SCHEMA_DIRS) {
    for (const file of schemaFiles(join(root, dir))) {
      const found = new Set<string>();
      xRequirements(JSON.parse(readFileSync(file, 'utf8')), found);
      const label = `schema: ${relative(root, file).split(sep).join('/')}`;
      for (const id of found) add(byId, id, label);
    }
  }
  return byId;
}

/**
 * The coverage document for a catalog: for every requirement (catalog order), the check IDs of
 * the reference run that name it and the modules that declare it, each sorted and unique; plus
 * IDs named by checks or modules that the catalog lacks (a defect to fix).
 *
 * @example
 * ```ts
 * const coverage = buildCoverage(loadCatalog().requirements.map((r) => r.id), results.tests);
 * coverage.requirements['CPR-5-TOKEN-SINGLE-USE']?.checks; // ['payee/token-repeated-use-error', ...]
 * ```
 */
export function buildCoverage(
  catalogIds: readonly string[],
  tests: readonly CoveredTest[],
  root = packageRoot(),
): Coverage {
  const checks = new Map<string, Set<string>>();
  for (const test of tests) for (const id of test.requirements) add(checks, id, test.id);
  const modules = declaredModules(root);
  const requirements: Coverage['requirements'] = {};
  for (const id of catalogIds) {
    requirements[id] = {
      checks: [...(checks.get(id) ?? [])].sort(),
      modules: [...(modules.get(id) ?? [])].sort(),
    };
  }
  const known = new Set(catalogIds);
  const unknown = [...new Set([...checks.keys(), ...modules.keys()])].filter((id) => !known.has(id)).sort();
  return {
    generated_by: 'npm run catalog:coverage (scripts/catalog-coverage.mjs): do not edit by hand',
    requirements,
    unknown_requirements: unknown,
  };
}
