/**
 * The requirement catalog (`suites/catalog/requirements.json`) and the ambiguity register
 * (`suites/catalog/ambiguities.json`), read as data by path (src/ never imports suites/), parsed
 * once and cached. Their schemas are `schemas/tool/requirement-catalog.schema.json` and
 * `schemas/tool/ambiguity-register.schema.json`; the loader checks the shape it relies on and
 * names the file and entry when something is wrong.
 *
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CprcError } from '../errors.js';
import type {
  Ambiguity as GeneratedAmbiguity,
  AmbiguityRegister as GeneratedAmbiguityRegister,
} from '../generated/tool/ambiguity-register.js';
import type {
  Requirement as GeneratedRequirement,
  SpecDocument as GeneratedSpecDocument,
  RequirementCatalog,
} from '../generated/tool/requirement-catalog.js';
import type { FailureLevel } from '../model/results.js';
import { isObject } from '../model/util.js';
import { packageRoot } from '../paths.js';

/** One normative statement of the catalog (`requirement` of the catalog schema). */
export type Requirement = GeneratedRequirement;

/** Strength of a requirement (lower-case must/should in the documents count the same). */
export type RequirementLevel = Requirement['level'];

/** SPEC: a specification states the rule. PROFILE: the test profile chooses it. */
export type RequirementKind = Requirement['kind'];

/** The document a requirement comes from. */
export type RequirementSource = Requirement['source'];

/** Who a requirement binds. */
export type RequirementActor = Requirement['actor'];

/** One source document of the catalog (`specDocument` of the catalog schema). */
export type SpecDocument = GeneratedSpecDocument;

/**
 * The whole requirement catalog (`schemas/tool/requirement-catalog.schema.json`): the source
 * documents keyed by {@link RequirementSource}, and every requirement (at least one) in document order.
 */
export type Catalog = RequirementCatalog;

/** One entry of the ambiguity register (`ambiguity` of the register schema). */
export type Ambiguity = GeneratedAmbiguity;

/** The whole ambiguity register (`schemas/tool/ambiguity-register.schema.json`). */
export type AmbiguityRegister = GeneratedAmbiguityRegister;

/**
 * A well-formed requirement ID (whole string): `CPR-<n>[.<n>]-SLUG`, `CPR-INV-<n>-SLUG`,
 * `CP-<n>-SLUG` or `PRF-<n>-SLUG`, SLUG being upper-case words and digits joined by `-`.
 *
 * @example
 * ```ts
 * REQUIREMENT_ID_PATTERN.test('CPR-2.1-VERSION'); // true
 * REQUIREMENT_ID_PATTERN.test('cpr-2.1-version'); // false
 * ```
 */
export const REQUIREMENT_ID_PATTERN =
  /^(CPR-([0-9]+(\.[0-9]+)?|INV-[0-9]+)|CP-[0-9]+|PRF-[0-9]+)(-[A-Z0-9]+)+$/;

/**
 * Finds requirement IDs in free text such as source code (global; use with `matchAll`). Looser
 * than {@link REQUIREMENT_ID_PATTERN} on purpose, so that a malformed ID in code is found and
 * reported as unknown rather than overlooked.
 *
 * @example
 * ```ts
 * [...'covers CPR-5-TOKEN-SINGLE-USE'.matchAll(REQUIREMENT_ID_SCAN_PATTERN)].map((m) => m[0]); // ['CPR-5-TOKEN-SINGLE-USE']
 * ```
 */
export const REQUIREMENT_ID_SCAN_PATTERN = /\b(CPR|CP|PRF)-[0-9A-Z.]+(-[A-Z0-9]+)+\b/g;

/** Absolute path of `suites/catalog/requirements.json`. */
export function catalogPath(): string {
  return join(packageRoot(), 'suites', 'catalog', 'requirements.json');
}

/** Absolute path of `suites/catalog/ambiguities.json`. */
export function ambiguitiesPath(): string {
  return join(packageRoot(), 'suites', 'catalog', 'ambiguities.json');
}

const LEVELS: readonly RequirementLevel[] = ['MUST', 'SHOULD', 'MAY'];
const KINDS: readonly RequirementKind[] = ['SPEC', 'PROFILE'];
const SOURCES: readonly RequirementSource[] = ['CPR-1.0', 'CASHPACK-1.0', 'PROFILE'];
const ACTORS: readonly RequirementActor[] = ['payee', 'wallet', 'operator', 'document'];

function readJson(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CprcError(
      'CPRC_IO',
      `cannot read ${path} (${err instanceof Error ? err.message : String(err)}); reinstall the package or restore the file`,
      { cause: err },
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new CprcError(
      'CPRC_INTERNAL',
      `${path} is not valid JSON (${err instanceof Error ? err.message : String(err)}); fix the file`,
      { cause: err },
    );
  }
}

function bad(path: string, where: string, what: string): CprcError {
  return new CprcError(
    'CPRC_INTERNAL',
    `${path}: ${where} ${what}; fix the file (schema: schemas/tool/requirement-catalog.schema.json)`,
  );
}

/** Checks the members the loader and classify() rely on; the full check is the schema (test/catalog). */
function checkCatalog(doc: unknown, path: string): Catalog {
  if (!isObject(doc)) throw bad(path, 'the document', 'must be a JSON object');
  if (!Array.isArray(doc.requirements)) throw bad(path, '"requirements"', 'must be an array');
  if (!isObject(doc.specs)) throw bad(path, '"specs"', 'must be an object');
  const seen = new Set<string>();
  doc.requirements.forEach((entry: unknown, i: number) => {
    const where = `requirements[${i}]`;
    if (!isObject(entry)) throw bad(path, where, 'must be an object');
    const { id, level, kind, source, actor } = entry;
    if (typeof id !== 'string' || !REQUIREMENT_ID_PATTERN.test(id)) {
      throw bad(path, `${where}.id`, `${JSON.stringify(id)} is not a well-formed requirement ID`);
    }
    if (seen.has(id)) throw bad(path, `${where}.id`, `"${id}" appears twice`);
    seen.add(id);
    if (!LEVELS.includes(level as RequirementLevel)) {
      throw bad(path, `${where}.level (${id})`, `must be one of ${LEVELS.join(', ')}`);
    }
    if (!KINDS.includes(kind as RequirementKind)) {
      throw bad(path, `${where}.kind (${id})`, `must be one of ${KINDS.join(', ')}`);
    }
    if (!SOURCES.includes(source as RequirementSource)) {
      throw bad(path, `${where}.source (${id})`, `must be one of ${SOURCES.join(', ')}`);
    }
    if (!ACTORS.includes(actor as RequirementActor)) {
      throw bad(path, `${where}.actor (${id})`, `must be one of ${ACTORS.join(', ')}`);
    }
  });
  return doc as unknown as Catalog;
}

function checkRegister(doc: unknown, path: string): AmbiguityRegister {
  const fail = (where: string, what: string) =>
    new CprcError(
      'CPRC_INTERNAL',
      `${path}: ${where} ${what}; fix the file (schema: schemas/tool/ambiguity-register.schema.json)`,
    );
  if (!isObject(doc)) throw fail('the document', 'must be a JSON object');
  if (!Array.isArray(doc.ambiguities)) throw fail('"ambiguities"', 'must be an array');
  const seen = new Set<string>();
  doc.ambiguities.forEach((entry: unknown, i: number) => {
    if (!isObject(entry) || typeof entry.id !== 'string' || !Array.isArray(entry.affects)) {
      throw fail(`ambiguities[${i}]`, 'must be an object with a string "id" and an array "affects"');
    }
    if (seen.has(entry.id)) throw fail(`ambiguities[${i}].id`, `"${entry.id}" appears twice`);
    seen.add(entry.id);
  });
  return doc as unknown as AmbiguityRegister;
}

let catalogCache: { catalog: Catalog; byId: Map<string, Requirement> } | undefined;
let registerCache: { register: AmbiguityRegister; byRequirement: Map<string, Ambiguity[]> } | undefined;

/**
 * Reads and checks a requirement catalog file (uncached; {@link loadCatalog} is the cached
 * reader of the package's own catalog).
 *
 * @throws CprcError `CPRC_IO` when the file cannot be read; `CPRC_INTERNAL` naming the file and
 * entry when it is not valid JSON, an ID is malformed or repeated, or a level, kind, source or
 * actor member is missing or wrong.
 * @example
 * ```ts
 * const catalog = readCatalogFile(catalogPath());
 * ```
 */
export function readCatalogFile(path: string): Catalog {
  return checkCatalog(readJson(path), path);
}

/**
 * Reads and checks an ambiguity register file (uncached; {@link loadAmbiguities} is the cached
 * reader of the package's own register).
 *
 * @throws CprcError `CPRC_IO` when the file cannot be read; `CPRC_INTERNAL` naming the file and
 * entry when it is malformed.
 * @example
 * ```ts
 * const register = readAmbiguitiesFile(ambiguitiesPath());
 * ```
 */
export function readAmbiguitiesFile(path: string): AmbiguityRegister {
  return checkRegister(readJson(path), path);
}

function catalogState(): { catalog: Catalog; byId: Map<string, Requirement> } {
  if (!catalogCache) {
    const catalog = readCatalogFile(catalogPath());
    catalogCache = { catalog, byId: new Map(catalog.requirements.map((r) => [r.id, r])) };
  }
  return catalogCache;
}

/**
 * The requirement catalog, read from `suites/catalog/requirements.json` on first call and cached.
 *
 * @throws CprcError `CPRC_IO` when the file cannot be read; `CPRC_INTERNAL` naming the entry when
 * it is not valid JSON or an entry lacks a well-formed id, level, kind, source or actor.
 * @example
 * ```ts
 * const musts = loadCatalog().requirements.filter((r) => r.level === 'MUST');
 * ```
 */
export function loadCatalog(): Catalog {
  return catalogState().catalog;
}

/**
 * The ambiguity register, read from `suites/catalog/ambiguities.json` on first call and cached.
 *
 * @throws CprcError `CPRC_IO` when the file cannot be read; `CPRC_INTERNAL` when it is malformed.
 * @example
 * ```ts
 * for (const a of loadAmbiguities().ambiguities) console.log(a.id, a.reading);
 * ```
 */
export function loadAmbiguities(): AmbiguityRegister {
  if (!registerCache) {
    const register = readAmbiguitiesFile(ambiguitiesPath());
    const byRequirement = new Map<string, Ambiguity[]>();
    for (const a of register.ambiguities) {
      for (const id of a.affects) byRequirement.set(id, [...(byRequirement.get(id) ?? []), a]);
    }
    registerCache = { register, byRequirement };
  }
  return registerCache.register;
}

/**
 * The requirement with this ID, or `undefined` when the catalog has none.
 *
 * @example
 * ```ts
 * requirementById('CPR-5-TOKEN-SINGLE-USE')?.level; // 'MUST'
 * ```
 */
export function requirementById(id: string): Requirement | undefined {
  return catalogState().byId.get(id);
}

/**
 * The ambiguity-register entries whose reading affects this requirement (empty when none), so a
 * report can show the interpretation behind a result.
 *
 * @example
 * ```ts
 * ambiguitiesFor('CPR-2.2-OPTIONAL-FIELD-PRESENT').map((a) => a.id); // ['AMB-1']
 * ```
 */
export function ambiguitiesFor(id: string): Ambiguity[] {
  loadAmbiguities();
  return [...(registerCache?.byRequirement.get(id) ?? [])];
}

/** Result of {@link classify}. */
export interface Classification {
  /** Level of the governing requirement (the most binding one named). */
  level: RequirementLevel;
  /** Kind of the governing requirement. */
  kind: RequirementKind;
  /**
   * The level of what a failed check failed (profile introduction, conformance levels): `spec`
   * when a SPEC MUST is among the IDs, `profile` when a PROFILE MUST is (and no SPEC MUST),
   * `advisory` when every ID is a SHOULD or MAY.
   */
  failure: FailureLevel;
  /**
   * What a failed check becomes at level spec: `failed` when a SPEC MUST is among the IDs,
   * otherwise `warning`. (At level profile a PROFILE MUST fails too: `stateAtLevel` of src/model.)
   */
  state: 'failed' | 'warning';
  /** ID of the governing requirement. */
  governing: string;
}

/**
 * The level of what a failed check naming `ids` failed: `spec`, `profile` or `advisory` (see
 * {@link Classification.failure}). A check naming no ID, or an ID the catalog does not know,
 * counts as `spec` (the catalog test reports the unknown ID).
 *
 * @example
 * ```ts
 * failureLevelOf(['CPR-5-TOKEN-REUSE-ERROR']); // 'spec'
 * failureLevelOf(['PRF-2-TOKEN-CONSUMED-410']); // 'profile'
 * failureLevelOf(['CPR-5-TOKEN-WINDOW-15-MIN']); // 'advisory' (a SHOULD)
 * ```
 */
export function failureLevelOf(ids: readonly string[]): FailureLevel {
  try {
    return classify(ids).failure;
  } catch {
    return 'spec';
  }
}

/** Rank of a (level, kind) pair: lower binds more. A SPEC MUST (0) is the only rank that fails. */
function rank(r: Requirement): number {
  return LEVELS.indexOf(r.level) * 2 + KINDS.indexOf(r.kind);
}

/**
 * Classifies a failed check by the requirement IDs it names: the governing requirement is the
 * most binding one (SPEC MUST, then PROFILE MUST, then SPEC SHOULD, ... then PROFILE MAY), and
 * `state` is `failed` only when that is a SPEC MUST; otherwise the failure is a `warning`
 * (docs/conventions.md, Result states).
 *
 * Note the field names: `level` is MUST/SHOULD/MAY and `kind` is SPEC/PROFILE, as in the catalog.
 *
 * @throws CprcError `CPRC_INTERNAL` when `ids` is empty or names an ID the catalog does not know
 * (the message lists them).
 * @example
 * ```ts
 * classify(['CPR-5-TOKEN-REUSE-ERROR', 'PRF-2-TOKEN-CONSUMED-410']).state; // 'failed'
 * classify(['PRF-2-TOKEN-CONSUMED-410']); // { level: 'MUST', kind: 'PROFILE', failure: 'profile', state: 'warning', governing: 'PRF-2-TOKEN-CONSUMED-410' }
 * ```
 */
export function classify(ids: readonly string[]): Classification {
  if (ids.length === 0) {
    throw new CprcError('CPRC_INTERNAL', 'classify: a check must name at least one requirement ID');
  }
  const unknown = ids.filter((id) => requirementById(id) === undefined);
  if (unknown.length > 0) {
    throw new CprcError(
      'CPRC_INTERNAL',
      `classify: unknown requirement ID(s) ${unknown.map((id) => JSON.stringify(id)).join(', ')}; add them to suites/catalog/requirements.json or fix the check`,
    );
  }
  let governing: Requirement | undefined;
  for (const id of ids) {
    const r = requirementById(id) as Requirement;
    if (!governing || rank(r) < rank(governing)) governing = r;
  }
  const g = governing as Requirement;
  return {
    level: g.level,
    kind: g.kind,
    failure: g.level !== 'MUST' ? 'advisory' : g.kind === 'SPEC' ? 'spec' : 'profile',
    state: g.level === 'MUST' && g.kind === 'SPEC' ? 'failed' : 'warning',
    governing: g.id,
  };
}
