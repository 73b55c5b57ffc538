/**
 * The schema registry: one shared `Ajv2020` instance holding every `*.schema.json` under
 * `<packageRoot>/schemas/` (whoever wrote it), with lazily built, cached validators.
 *
 * Start-up speed: `npm run build` runs `scripts/compile-schemas.mjs`, which writes two CommonJS
 * modules of ajv standalone code: `dist/schemas-compiled.cjs` (every validator) and
 * `dist/schemas-compiled-cpr.cjs` (the two CPR readings compiled with `dateTime: 'caller'`, all
 * `validateCpr` needs: a tenth of the size, so `cprc validate` compiles that much less code at
 * start). Each is required (synchronously) the first time a validator of it is asked for, and
 * used while it lists the same schema files and is not older than any of them; otherwise the
 * validators are compiled at run time from the schema files. `CPRC_NO_PRECOMPILED_SCHEMAS=1` in
 * the environment forces the run-time path (to compare the two, or to rule the precompiled
 * modules out when debugging).
 *
 * @packageDocumentation
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import type { Ajv2020, AnySchemaObject, ValidateFunction } from 'ajv/dist/2020.js';
import { CprcError } from '../errors.js';
import { packageRoot } from '../paths.js';

/** The base of every schema `$id`: `https://cpr-conformance.dev/schemas/<dir>/<name>.schema.json`. */
export const SCHEMA_ID_BASE = 'https://cpr-conformance.dev/schemas/';

/** Suffix every schema file name ends with. */
const SCHEMA_SUFFIX = '.schema.json';

/**
 * Non-validating annotation keywords always declared (so strict mode accepts them). Any other
 * keyword starting with `x-` found in a schema (e.g. `x-requirement`) is declared too: `x-`
 * keywords are annotations for people and tools, never validation rules.
 */
export const ANNOTATION_KEYWORDS: readonly string[] = ['x-spec-section'];

/** Every `x-` keyword used anywhere in `files`, plus {@link ANNOTATION_KEYWORDS}, sorted. */
export function annotationKeywords(files: readonly SchemaFile[]): string[] {
  const found = new Set<string>(ANNOTATION_KEYWORDS);
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) walk(item);
    else if (typeof node === 'object' && node !== null) {
      for (const [key, value] of Object.entries(node)) {
        if (key.startsWith('x-')) found.add(key);
        walk(value);
      }
    }
  };
  for (const f of files) walk(f.schema);
  return [...found].sort();
}

/** Options of a registry. */
export interface SchemaRegistryOptions {
  /**
   * Report every error of a document (`true`, the default: the validator turns each into a
   * finding) or stop at the first one (`false`).
   */
  allErrors?: boolean;
  /**
   * Who checks `format: date-time`: ajv-formats (`'ajv'`, the default), or the caller
   * (`'caller'`): the validator then takes any string there, and the caller reads each such
   * string itself. `validateCpr` asks for `'caller'`: its timestamps rule parses `created_at` and
   * `expires_at` anyway, with an RFC 3339 parser that refuses every string ajv-formats refuses
   * (`instantOf` in `validator/rfc3339.ts`), so the format was checked twice.
   */
  dateTime?: 'ajv' | 'caller';
}

/** The schemas whose validators are precompiled with `dateTime: 'caller'` too (the two CPR readings). */
export const CALLER_DATE_TIME_SCHEMAS: readonly string[] = [
  `${SCHEMA_ID_BASE}cpr/cpr-payee.schema.json`,
  `${SCHEMA_ID_BASE}cpr/cpr-wallet.schema.json`,
];

/** One schema file found under `schemas/`. */
export interface SchemaFile {
  /** Path relative to the `schemas/` folder, with `/` separators, e.g. `cashpack/amount.schema.json`. */
  relPath: string;
  /** Absolute path of the file. */
  absPath: string;
  /** The `$id` the file must declare: {@link SCHEMA_ID_BASE} + `relPath`. */
  id: string;
  /** The parsed schema. */
  schema: AnySchemaObject;
}

/**
 * Shape of the precompiled modules (written by `scripts/compile-schemas.mjs`):
 * `dist/schemas-compiled.cjs` exports `validators`, `dist/schemas-compiled-cpr.cjs`
 * `callerDateTimeValidators`; both export `schemaFiles`, the schema files they were made from.
 */
interface CompiledModule {
  schemaFiles: string[];
  validators?: Record<string, ValidateFunction>;
  /** The validators of {@link CALLER_DATE_TIME_SCHEMAS} compiled with `dateTime: 'caller'`. */
  callerDateTimeValidators?: Record<string, ValidateFunction>;
}

const require = createRequire(import.meta.url);

/**
 * ajv and ajv-formats (both CommonJS) are required on first use, not imported: with the
 * precompiled validators a run never needs the compiler, and loading it costs start-up time.
 */
function ajvModules(): { Ajv: typeof Ajv2020; addFormats: (ajv: Ajv2020) => Ajv2020 } {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  const formats = require('ajv-formats') as { default?: unknown };
  const addFormats = (formats.default ?? formats) as (ajv: Ajv2020) => Ajv2020;
  return { Ajv, addFormats };
}

/** Absolute path of the `schemas/` folder of this package. */
export function schemasDir(): string {
  return join(packageRoot(), 'schemas');
}

/** Absolute path of the precompiled module of every validator, written by `npm run build`. */
export function compiledSchemasPath(): string {
  return join(packageRoot(), 'dist', 'schemas-compiled.cjs');
}

/**
 * Absolute path of the precompiled module of the two CPR readings with `dateTime: 'caller'`
 * (what `validateCpr` uses), written by `npm run build`.
 */
export function compiledCprSchemasPath(): string {
  return join(packageRoot(), 'dist', 'schemas-compiled-cpr.cjs');
}

function listSchemaPaths(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile() && entry.name.endsWith(SCHEMA_SUFFIX)) out.push(p);
    }
  };
  walk(dir);
  return out.map((p) => relative(dir, p).split(sep).join('/')).sort();
}

/**
 * Reads and parses every `*.schema.json` under `dir` (default: the package's `schemas/`),
 * sorted by path. Each file's `$id` must be {@link SCHEMA_ID_BASE} + its relative path.
 *
 * @throws CprcError `CPRC_INTERNAL` naming the file when one is not valid JSON or declares another `$id`.
 * @example
 * ```ts
 * const ids = loadSchemaFiles().map((f) => f.id);
 * ```
 */
export function loadSchemaFiles(dir: string = schemasDir()): SchemaFile[] {
  return listSchemaPaths(dir).map((relPath) => {
    const absPath = join(dir, ...relPath.split('/'));
    let schema: unknown;
    try {
      schema = JSON.parse(readFileSync(absPath, 'utf8'));
    } catch (err) {
      throw new CprcError(
        'CPRC_INTERNAL',
        `schema file ${absPath} is not valid JSON (${err instanceof Error ? err.message : String(err)}); fix the file`,
        { cause: err },
      );
    }
    const id = SCHEMA_ID_BASE + relPath;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new CprcError('CPRC_INTERNAL', `schema file ${absPath} must hold a JSON object; fix the file`);
    }
    const declared = (schema as { $id?: unknown }).$id;
    if (declared !== id) {
      throw new CprcError(
        'CPRC_INTERNAL',
        `schema file ${absPath} declares "$id" ${JSON.stringify(declared)}; it must be "${id}" (the id follows the file path)`,
      );
    }
    return { relPath, absPath, id, schema: schema as AnySchemaObject };
  });
}

/**
 * A new `Ajv2020` configured as the registry's: strict mode (but `strictRequired: false`, for
 * `if`/`then` required lists), ajv-formats, the annotation keywords, and every schema of `files`
 * added (nothing compiled yet). Used by the registry and by `scripts/compile-schemas.mjs`.
 *
 * @example
 * ```ts
 * const ajv = createSchemaAjv(loadSchemaFiles(), { allErrors: true, code: { source: true, esm: true } });
 * ```
 */
export function createSchemaAjv(
  files: readonly SchemaFile[],
  options: SchemaRegistryOptions & { code?: { source?: boolean; esm?: boolean } } = {},
): Ajv2020 {
  const { Ajv, addFormats } = ajvModules();
  const ajv = new Ajv({
    strict: true,
    strictRequired: false,
    allErrors: options.allErrors ?? true,
    ...(options.code ? { code: options.code } : {}),
  });
  addFormats(ajv);
  // `true`: any string is a date-time here (the caller checks it)
  if (options.dateTime === 'caller') ajv.addFormat('date-time', true);
  for (const keyword of annotationKeywords(files)) ajv.addKeyword({ keyword });
  // every schema is added before any is compiled, so cross-file $refs resolve.
  for (const f of files) ajv.addSchema(f.schema);
  return ajv;
}

/** ajv's standalone code generator. */
function standaloneGenerator(): (ajv: Ajv2020, refs: Record<string, string>) => string {
  const standaloneModule = require('ajv/dist/standalone/index.js') as { default?: unknown };
  return (standaloneModule.default ?? standaloneModule) as (
    ajv: Ajv2020,
    refs: Record<string, string>,
  ) => string;
}

/**
 * A CommonJS module exporting `schemaFiles` (the relative paths of `files`) and, as `name`, an
 * object from `$id` to validator: the ajv standalone code of `ids`, compiled with `options`, in a
 * function scope of its own. Its `require` (ajv runtime helpers, ajv-formats) resolves from where
 * the module is written, which must be inside this package.
 */
function moduleSource(
  files: readonly SchemaFile[],
  ids: readonly string[],
  options: SchemaRegistryOptions,
  name: 'validators' | 'callerDateTimeValidators',
): string {
  let code = '';
  try {
    const ajv = createSchemaAjv(files, { ...options, code: { source: true, esm: false } });
    const mapping: Record<string, string> = {};
    ids.forEach((id, i) => {
      mapping[`v${i}`] = id;
    });
    if (ids.length > 0) code = standaloneGenerator()(ajv, mapping);
  } catch (err) {
    throw new CprcError(
      'CPRC_INTERNAL',
      `schemas do not compile: ${err instanceof Error ? err.message : String(err)}; fix the schema named`,
      { cause: err },
    );
  }
  return [
    '// Generated from schemas/ by the cpr-conformance schema registry: do not edit. Rebuild with "npm run build".',
    "'use strict';",
    'const compiled = (() => {',
    '  const exports = {};',
    code.replace(/^"use strict";\n?/, ''),
    '  return exports;',
    '})();',
    `exports.schemaFiles = ${JSON.stringify(files.map((f) => f.relPath))};`,
    `exports.${name} = {${ids.map((id, i) => `${JSON.stringify(id)}: compiled.v${i}`).join(', ')}};`,
    '',
  ].join('\n');
}

/**
 * The source of the precompiled module of every validator (CommonJS): ajv standalone code of
 * every schema of `files`, compiled with the registry's configuration (`allErrors: true`),
 * exporting `schemaFiles` (relative paths) and `validators` (`$id` -> validate function). Its
 * `require` (ajv runtime helpers, ajv-formats) resolves from where the module is written, which
 * must be inside this package. Written to {@link compiledSchemasPath} by
 * `scripts/compile-schemas.mjs`.
 *
 * @throws CprcError `CPRC_INTERNAL` when a schema does not compile.
 */
export function precompiledModuleSource(files: readonly SchemaFile[]): string {
  return moduleSource(
    files,
    files.map((f) => f.id),
    { allErrors: true },
    'validators',
  );
}

/**
 * The source of the precompiled module of the CPR readings (CommonJS): the validators of
 * {@link CALLER_DATE_TIME_SCHEMAS} found in `files`, compiled with `allErrors: true` and
 * `dateTime: 'caller'`, exported as `callerDateTimeValidators`, beside `schemaFiles`. Written to
 * {@link compiledCprSchemasPath} by `scripts/compile-schemas.mjs`.
 *
 * @throws CprcError `CPRC_INTERNAL` when a schema does not compile.
 */
export function precompiledCprModuleSource(files: readonly SchemaFile[]): string {
  return moduleSource(
    files,
    CALLER_DATE_TIME_SCHEMAS.filter((id) => files.some((f) => f.id === id)),
    { allErrors: true, dateTime: 'caller' },
    'callerDateTimeValidators',
  );
}

/** Turns a full `$id` or the short form `'<dir>/<name>'` into the full `$id`. */
function normaliseId(id: string): string {
  if (id.startsWith(SCHEMA_ID_BASE)) return id;
  const short = id.endsWith(SCHEMA_SUFFIX) ? id : id + SCHEMA_SUFFIX;
  return SCHEMA_ID_BASE + short.replace(/^\/+/, '');
}

interface Registry {
  files: SchemaFile[] | null;
  ids: string[];
  ajv: Ajv2020 | null;
  cache: Map<string, ValidateFunction>;
  source: 'precompiled' | 'runtime';
}

/**
 * True when the precompiled module at `compiledPath` exists and is not older than any schema
 * file under `dir`. (The registry also requires its list of schema files to match, once loaded.)
 *
 * @example
 * ```ts
 * if (!precompiledIsFresh()) console.log('run "npm run build" for a faster start');
 * ```
 */
export function precompiledIsFresh(
  compiledPath: string = compiledSchemasPath(),
  dir: string = schemasDir(),
  paths: readonly string[] = listSchemaPaths(dir),
): boolean {
  let compiledTime: number;
  try {
    compiledTime = statSync(compiledPath).mtimeMs;
  } catch {
    return false;
  }
  return paths.every((p) => statSync(join(dir, ...p.split('/'))).mtimeMs <= compiledTime);
}

/** The relative paths of the schema files, listed once per process (on first need). */
let schemaPaths: string[] | undefined;

/**
 * Requires the precompiled module at `path` when present, complete and fresh; null otherwise
 * (absent, unreadable, broken, older than a schema file or made from other schema files).
 */
function loadPrecompiled(path: string): { module: CompiledModule; ids: string[] } | null {
  if (process.env.CPRC_NO_PRECOMPILED_SCHEMAS === '1') return null;
  try {
    const dir = schemasDir();
    // the schema folder is walked once: for the freshness and for the list the module must match
    schemaPaths ??= listSchemaPaths(dir);
    const paths = schemaPaths;
    if (!precompiledIsFresh(path, dir, paths)) return null;
    const module = require(path) as CompiledModule;
    if (!Array.isArray(module.schemaFiles) || module.schemaFiles.join('\n') !== paths.join('\n')) return null;
    return { module, ids: paths.map((p) => SCHEMA_ID_BASE + p) };
  } catch {
    return null; // absent, unreadable or broken: compile at run time
  }
}

/** The precompiled modules, each required on first use (null: absent or stale). */
const precompiledModules = new Map<string, { module: CompiledModule; ids: string[] } | null>();

/** The precompiled module of one kind of validators, required once. */
function precompiled(dateTime: 'ajv' | 'caller'): { module: CompiledModule; ids: string[] } | null {
  let loaded = precompiledModules.get(dateTime);
  if (loaded === undefined) {
    loaded = loadPrecompiled(dateTime === 'caller' ? compiledCprSchemasPath() : compiledSchemasPath());
    precompiledModules.set(dateTime, loaded);
  }
  return loaded;
}

const registries = new Map<string, Registry>();

function registry(allErrors: boolean, dateTime: 'ajv' | 'caller' = 'ajv'): Registry {
  const key = `${allErrors}/${dateTime}`;
  let reg = registries.get(key);
  if (reg) return reg;
  const pre = allErrors ? precompiled(dateTime) : null;
  if (pre) {
    reg = { files: null, ids: pre.ids, ajv: null, cache: new Map(), source: 'precompiled' };
  } else {
    const files = loadSchemaFiles();
    reg = { files, ids: files.map((f) => f.id), ajv: null, cache: new Map(), source: 'runtime' };
  }
  registries.set(key, reg);
  return reg;
}

/**
 * The `$id` of every schema under `schemas/`, sorted.
 *
 * @example
 * ```ts
 * schemaIds().includes('https://cpr-conformance.dev/schemas/cashpack/lock-request.schema.json'); // true
 * ```
 */
export function schemaIds(): string[] {
  return [...registry(true).ids];
}

/**
 * Where the default registry's validators come from: `'precompiled'` (the standalone module
 * `dist/schemas-compiled.cjs`) or `'runtime'` (compiled from the schema files on first use).
 */
export function schemaRegistrySource(): 'precompiled' | 'runtime' {
  return registry(true).source;
}

/**
 * The validator of one schema, built on first use and cached.
 *
 * @param id - the full `$id` or the short form `'<dir>/<name>'`, e.g. `'cashpack/lock-request'`.
 * @param options - `allErrors: false` to stop at the first error (default: report all);
 *   `dateTime: 'caller'` to leave `format: date-time` to the caller (see {@link SchemaRegistryOptions}).
 * @throws CprcError `CPRC_INTERNAL` naming the id when no schema has it, or when the schemas do not compile.
 * @example
 * ```ts
 * const validate = getSchemaValidator('cashpack/amount');
 * if (!validate('0123')) console.log(validate.errors);
 * ```
 */
export function getSchemaValidator(id: string, options: SchemaRegistryOptions = {}): ValidateFunction {
  const allErrors = options.allErrors ?? true;
  const dateTime = options.dateTime ?? 'ajv';
  const reg = registry(allErrors, dateTime);
  const fullId = normaliseId(id);
  const cached = reg.cache.get(fullId);
  if (cached) return cached;
  if (!reg.ids.includes(fullId)) {
    throw new CprcError(
      'CPRC_INTERNAL',
      `unknown schema "${id}": no file schemas/${fullId.slice(SCHEMA_ID_BASE.length)}; known ids are listed by schemaIds()`,
    );
  }
  let validate: ValidateFunction | undefined;
  const pre = reg.source === 'precompiled' ? precompiled(dateTime) : null;
  if (pre) {
    validate =
      dateTime === 'caller' ? pre.module.callerDateTimeValidators?.[fullId] : pre.module.validators?.[fullId];
  }
  if (!validate) {
    try {
      reg.ajv ??= createSchemaAjv(reg.files ?? loadSchemaFiles(), { allErrors, dateTime });
      validate = reg.ajv.getSchema(fullId);
    } catch (err) {
      throw new CprcError(
        'CPRC_INTERNAL',
        `schema "${fullId}" does not compile: ${err instanceof Error ? err.message : String(err)}`,
        { cause: err },
      );
    }
  }
  if (!validate) throw new CprcError('CPRC_INTERNAL', `schema "${fullId}" could not be loaded`);
  reg.cache.set(fullId, validate);
  return validate;
}
