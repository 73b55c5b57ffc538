// Every fixture against its schema, through the registry and through a fresh runtime compile:
// `-ok` fixtures are valid; each `-fail` fixture breaks exactly the rule expected-errors.json names.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import {
  createSchemaAjv,
  getSchemaValidator,
  loadSchemaFiles,
  SCHEMA_ID_BASE,
} from '../../src/schemas/registry.js';
import { FIXTURES_DIR, loadExpectedErrors, loadFixtures, OWNED } from './_fixtures.js';

const fixtures = loadFixtures();
const expected = loadExpectedErrors();
const runtimeAjv = createSchemaAjv(loadSchemaFiles());
const runtime = (schema: string): ValidateFunction => {
  const v = runtimeAjv.getSchema(`${SCHEMA_ID_BASE}${schema}.schema.json`);
  if (!v) throw new Error(`no schema ${schema}`);
  return v;
};

/** An error at the expected place, or a combinator error above it that the broken rule causes. */
const explained = (e: ErrorObject, want: { instancePath: string }): boolean =>
  e.instancePath === want.instancePath ||
  e.instancePath.startsWith(`${want.instancePath}/`) ||
  (want.instancePath.startsWith(`${e.instancePath}/`) && ['oneOf', 'anyOf', 'if', 'not'].includes(e.keyword));

describe('schema fixtures', () => {
  it('has fixtures to run', () => {
    expect(fixtures.filter((f) => f.verdict === 'ok').length).toBeGreaterThan(30);
    expect(fixtures.filter((f) => f.verdict === 'fail').length).toBeGreaterThan(90);
  });

  it('covers every owned schema with at least one ok and two fail fixtures', () => {
    const owned = loadSchemaFiles()
      .map((f) => f.relPath)
      .filter(OWNED)
      .map((p) => p.replace(/\.schema\.json$/, ''));
    const missing = owned.filter((s) => {
      const mine = fixtures.filter((f) => f.schema === s);
      return (
        mine.filter((f) => f.verdict === 'ok').length < 1 ||
        mine.filter((f) => f.verdict === 'fail').length < 2
      );
    });
    expect(missing).toEqual([]);
  });

  it('names an expected error for every fail fixture, and a fixture for every expectation', () => {
    const failFiles = fixtures.filter((f) => f.verdict === 'fail').map((f) => f.file);
    expect(failFiles.filter((f) => !(f in expected))).toEqual([]);
    expect(Object.keys(expected).filter((f) => !existsSync(join(FIXTURES_DIR, f)))).toEqual([]);
  });

  for (const fx of fixtures) {
    if (fx.verdict === 'ok') {
      it(`${fx.file} is valid against ${fx.schema}`, () => {
        const v = getSchemaValidator(fx.schema);
        expect(v(fx.data), JSON.stringify(v.errors)).toBe(true);
        expect(runtime(fx.schema)(fx.data)).toBe(true);
      });
    } else {
      it(`${fx.file} is invalid against ${fx.schema} for the named rule only`, () => {
        const want = expected[fx.file];
        expect(want, `no entry for ${fx.file} in expected-errors.json`).toBeDefined();
        if (!want) return;
        const v = getSchemaValidator(fx.schema);
        expect(v(fx.data)).toBe(false);
        const errors = v.errors ?? [];
        expect(
          errors.some((e) => e.instancePath === want.instancePath && e.keyword === want.keyword),
          `expected ${want.keyword} at "${want.instancePath}", got ${JSON.stringify(errors.map((e) => [e.instancePath, e.keyword]))}`,
        ).toBe(true);
        expect(errors.filter((e) => !explained(e, want))).toEqual([]);
        // the runtime compile agrees with whatever the registry served (precompiled or not)
        const r = runtime(fx.schema);
        expect(r(fx.data)).toBe(false);
        expect((r.errors ?? []).map((e) => [e.instancePath, e.keyword])).toEqual(
          errors.map((e) => [e.instancePath, e.keyword]),
        );
      });
    }
  }
});
