import { execFileSync } from 'node:child_process';
// The schema registry: strict compilation of every schema, id forms, errors for unknown ids and
// bad files, allErrors, the precompiled module and its freshness rule.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { CprcError } from '../../src/errors.js';
import { packageRoot } from '../../src/paths.js';
import {
  CALLER_DATE_TIME_SCHEMAS,
  createSchemaAjv,
  getSchemaValidator,
  loadSchemaFiles,
  precompiledCprModuleSource,
  precompiledIsFresh,
  precompiledModuleSource,
  SCHEMA_ID_BASE,
  type SchemaFile,
  schemaIds,
} from '../../src/schemas/registry.js';
import { cprArbitrary } from '../../src/testing/arbitraries.js';
import { CPR_MUTATIONS } from '../../src/testing/mutations.js';
import { loadFixtures } from './_fixtures.js';

const temps: string[] = [];
const tempDir = (base = tmpdir()): string => {
  mkdirSync(base, { recursive: true });
  const d = mkdtempSync(join(base, 'cprc-schemas-'));
  temps.push(d);
  return d;
};
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});

const synthetic = (relPath: string, body: Record<string, unknown>): SchemaFile => ({
  relPath,
  absPath: `/synthetic/${relPath}`,
  id: SCHEMA_ID_BASE + relPath,
  schema: { $id: SCHEMA_ID_BASE + relPath, ...body },
});

describe('schema registry', () => {
  const files = loadSchemaFiles();

  it('finds every *.schema.json under schemas/, with ids that follow the path', () => {
    expect(files.length).toBeGreaterThan(40);
    for (const f of files) expect(f.id).toBe(`https://cpr-conformance.dev/schemas/${f.relPath}`);
    expect(schemaIds()).toEqual(files.map((f) => f.id));
    expect(schemaIds()).toContain('https://cpr-conformance.dev/schemas/cashpack/lock-request.schema.json');
  });

  describe('compiles every schema in strict mode', () => {
    const ajv = createSchemaAjv(files);
    for (const f of files) {
      it(f.relPath, () => {
        expect(() => ajv.getSchema(f.id)).not.toThrow();
        expect(typeof ajv.getSchema(f.id)).toBe('function');
      });
    }
  });

  it('is strict: an unknown keyword, a type-less keyword and a bad $ref do not compile', () => {
    const unknownKeyword = createSchemaAjv([synthetic('t/a.schema.json', { type: 'string', minLenght: 1 })]);
    expect(() => unknownKeyword.getSchema(`${SCHEMA_ID_BASE}t/a.schema.json`)).toThrow(/unknown keyword/);
    const noType = createSchemaAjv([synthetic('t/b.schema.json', { properties: { a: { pattern: '^x$' } } })]);
    expect(() => noType.getSchema(`${SCHEMA_ID_BASE}t/b.schema.json`)).toThrow(/strictTypes|missing type/);
    const badRef = createSchemaAjv([synthetic('t/c.schema.json', { $ref: 'nowhere.schema.json' })]);
    expect(() => badRef.getSchema(`${SCHEMA_ID_BASE}t/c.schema.json`)).toThrow(/resolve/);
  });

  it('accepts x- annotation keywords without a validation effect', () => {
    const ajv = createSchemaAjv([
      synthetic('t/d.schema.json', { 'x-spec-section': 'profile 1', 'x-requirement': ['A'], type: 'string' }),
    ]);
    const v = ajv.getSchema(`${SCHEMA_ID_BASE}t/d.schema.json`) as ValidateFunction;
    expect(v('anything')).toBe(true);
    expect(v(1)).toBe(false);
  });

  it('serves the same cached validator for the short and the full id', () => {
    const short = getSchemaValidator('cashpack/lock-request');
    expect(getSchemaValidator(`${SCHEMA_ID_BASE}cashpack/lock-request.schema.json`)).toBe(short);
    expect(getSchemaValidator('cashpack/lock-request.schema.json')).toBe(short);
    expect(getSchemaValidator('cashpack/lock-request')).toBe(short);
  });

  it('throws CPRC_INTERNAL naming an unknown id', () => {
    let caught: unknown;
    try {
      getSchemaValidator('cashpack/lock-requests');
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(CprcError);
    expect((caught as CprcError).code).toBe('CPRC_INTERNAL');
    expect((caught as CprcError).message).toContain('"cashpack/lock-requests"');
  });

  it('reports every error by default and only the first with allErrors: false', () => {
    const bad = { request_id: 'x', amount: '01' };
    const all = getSchemaValidator('cashpack/lock-request');
    expect(all(bad)).toBe(false);
    expect(all.errors?.length).toBeGreaterThan(3);
    const first = getSchemaValidator('cashpack/lock-request', { allErrors: false });
    expect(first).not.toBe(all);
    expect(first(bad)).toBe(false);
    expect(first.errors?.length).toBe(1);
  });

  it("leaves format date-time to the caller with dateTime: 'caller', and only that format", () => {
    const doc = (created: string) => ({
      cpr_version: 'CPR-1.0',
      request_id: '6f1c1d7e-4a8b-4c3d-9e2f-0a1b2c3d4e5f',
      created_at: created,
      expires_at: '2026-06-01T12:10:00Z',
      payee: { rail_address: { iban: 'DE89370400440532013000' } },
      value: { asset: { type: 'fiat', code: 'EUR' } },
      iban: 'DE89370400440532013000',
      beneficiary_name: 'A',
    });
    for (const id of ['cpr/cpr-wallet', 'cpr/cpr-payee']) {
      const full = getSchemaValidator(id);
      const caller = getSchemaValidator(id, { dateTime: 'caller' });
      expect(caller).not.toBe(full);
      expect(full(doc('2026-06-01T12:00:00Z')), id).toBe(true);
      expect(caller(doc('2026-06-01T12:00:00Z')), id).toBe(true);
      // month 13: ajv-formats refuses it, the caller's validator leaves it to the caller
      expect(full(doc('2026-13-01T12:00:00Z')), id).toBe(false);
      expect(
        full.errors?.map((e) => e.keyword),
        id,
      ).toContain('format');
      expect(caller(doc('2026-13-01T12:00:00Z')), id).toBe(true);
      // everything else is still checked: the type, and the payee reading's Z pattern
      expect(caller(doc(7 as unknown as string)), id).toBe(false);
    }
    expect(
      getSchemaValidator('cpr/cpr-payee', { dateTime: 'caller' })(doc('2026-06-01T12:00:00+01:00')),
    ).toBe(false);
  });

  it('refuses a schema file whose $id does not follow its path, naming the file', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x'));
    writeFileSync(
      join(dir, 'x', 'a.schema.json'),
      JSON.stringify({ $id: 'https://cpr-conformance.org/schemas/x/a.schema.json', type: 'string' }),
    );
    expect(() => loadSchemaFiles(dir)).toThrow(
      /x\/a\.schema\.json.*must be "https:\/\/cpr-conformance\.dev\/schemas\/x\/a\.schema\.json"/,
    );
  });

  it('refuses a schema file that is not JSON, naming the file', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x', 'b.schema.json'), '{ "type": ');
    expect(() => loadSchemaFiles(dir)).toThrow(/x\/b\.schema\.json is not valid JSON/);
  });
});

describe('precompiled validators', () => {
  // Others' schemas may be mid-edit; the precompiled module is checked on the schemas the
  // fixtures exercise and everything they reference.
  const files = loadSchemaFiles().filter(
    (f) => /^(cashpack|harness|cpr)\//.test(f.relPath) || f.relPath === 'tool/run-config.schema.json',
  );

  it('standalone module agrees with the runtime compile on every fixture', async () => {
    // written inside the package so its require() finds ajv and ajv-formats
    const dir = tempDir(join(packageRoot(), 'node_modules', '.cache', 'cprc-tests'));
    const file = join(dir, 'schemas-compiled.cjs');
    writeFileSync(file, precompiledModuleSource(files));
    const mod = (await import(pathToFileURL(file).href)) as {
      schemaFiles: string[];
      validators: Record<string, ValidateFunction>;
    };
    expect(mod.schemaFiles).toEqual(files.map((f) => f.relPath));
    const runtime = createSchemaAjv(files);
    let checked = 0;
    for (const fx of loadFixtures()) {
      const id = `${SCHEMA_ID_BASE}${fx.schema}.schema.json`;
      const pre = mod.validators[id];
      if (!pre) continue;
      const rt = runtime.getSchema(id) as ValidateFunction;
      expect(pre(fx.data), fx.file).toBe(fx.verdict === 'ok');
      expect(rt(fx.data), fx.file).toBe(fx.verdict === 'ok');
      expect((pre.errors ?? []).map((e) => [e.instancePath, e.keyword])).toEqual(
        (rt.errors ?? []).map((e) => [e.instancePath, e.keyword]),
      );
      checked++;
    }
    expect(checked).toBeGreaterThan(150);
  });

  it("holds the two CPR readings compiled with dateTime: 'caller' too, agreeing with that runtime compile", async () => {
    const dir = tempDir(join(packageRoot(), 'node_modules', '.cache', 'cprc-tests'));
    const file = join(dir, 'schemas-compiled-cpr.cjs');
    writeFileSync(file, precompiledCprModuleSource(files));
    const mod = (await import(pathToFileURL(file).href)) as {
      schemaFiles: string[];
      callerDateTimeValidators: Record<string, ValidateFunction>;
    };
    expect(mod.schemaFiles).toEqual(files.map((f) => f.relPath));
    expect(Object.keys(mod.callerDateTimeValidators).sort()).toEqual([...CALLER_DATE_TIME_SCHEMAS].sort());
    const runtime = createSchemaAjv(files, { dateTime: 'caller' });
    // generated CPRs of every rail, and one single-defect mutation of each
    const now = new Date('2026-06-01T12:00:00Z');
    const docs = fc.sample(cprArbitrary({ now }), { seed: 77, numRuns: 150 }).flatMap((doc, i) => {
      const m = CPR_MUTATIONS.slice(i % CPR_MUTATIONS.length).find((x) => x.applies(doc));
      return m ? [doc, m.apply(doc, now)] : [doc];
    });
    let refused = 0;
    for (const id of CALLER_DATE_TIME_SCHEMAS) {
      const pre = mod.callerDateTimeValidators[id] as ValidateFunction;
      const rt = runtime.getSchema(id) as ValidateFunction;
      for (const doc of docs) {
        const verdict = pre(doc);
        expect(verdict, id).toBe(rt(doc));
        if (!verdict) refused++;
        expect((pre.errors ?? []).map((e) => [e.instancePath, e.keyword])).toEqual(
          (rt.errors ?? []).map((e) => [e.instancePath, e.keyword]),
        );
      }
    }
    expect(refused).toBeGreaterThan(50);
  });

  it('validateCpr loads only the CPR readings module, not every validator (built package)', () => {
    const script = [
      "import { createRequire } from 'node:module';",
      `const { validateCpr } = await import(${JSON.stringify(pathToFileURL(join(packageRoot(), 'dist', 'src', 'validator', 'index.js')).href)});`,
      "validateCpr({}, { mode: 'payee' });",
      'validateCpr({});',
      "const cache = Object.keys(createRequire(import.meta.url).cache).filter((k) => k.includes('schemas-compiled'));",
      'console.log(JSON.stringify(cache.map((k) => k.split(/[\\\\/]/).pop())));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual(['schemas-compiled-cpr.cjs']);
  });

  it('counts as fresh only when no schema file is newer than the module', () => {
    const dir = tempDir();
    mkdirSync(join(dir, 'schemas', 'x'), { recursive: true });
    const schema = join(dir, 'schemas', 'x', 'a.schema.json');
    const compiled = join(dir, 'compiled.mjs');
    writeFileSync(schema, '{}');
    expect(precompiledIsFresh(compiled, join(dir, 'schemas'))).toBe(false); // absent
    writeFileSync(compiled, '');
    utimesSync(schema, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    utimesSync(compiled, new Date('2026-01-02T00:00:00Z'), new Date('2026-01-02T00:00:00Z'));
    expect(precompiledIsFresh(compiled, join(dir, 'schemas'))).toBe(true);
    utimesSync(schema, new Date('2026-01-03T00:00:00Z'), new Date('2026-01-03T00:00:00Z'));
    expect(precompiledIsFresh(compiled, join(dir, 'schemas'))).toBe(false); // a schema changed since
  });
});
