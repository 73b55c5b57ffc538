import { describe, expect, it } from 'vitest';
import { loadCoverage } from '../../src/catalog/coverage.js';
import { buildCoverage, declaredModules } from '../../src/catalog/declared.js';
import { loadCatalog, requirementById } from '../../src/catalog/index.js';
import { CODEC_REQUIREMENTS } from '../../src/codec/requirements.js';
import { CPR_RULES } from '../../src/validator/rules/index.js';

// Coverage is declared data (src/catalog/declared.ts): check IDs from a reference run, module IDs
// from the tables modules export. suites/catalog/coverage.json is generated (npm run
// catalog:coverage); the reference self-test checks its `checks`, this file the rest.
describe('suites/catalog/coverage.json', () => {
  const coverage = loadCoverage();
  const ids = loadCatalog().requirements.map((r) => r.id);

  it('exists and has an entry for every catalog requirement, in catalog order', () => {
    expect(coverage, 'run npm run catalog:coverage').toBeDefined();
    expect(Object.keys(coverage?.requirements ?? {})).toEqual(ids);
  });

  it('credits each requirement to exactly the modules that declare it (fresh)', () => {
    const fresh = buildCoverage(ids, []);
    const stale = ids.filter(
      (id) =>
        JSON.stringify(fresh.requirements[id]?.modules) !==
        JSON.stringify(coverage?.requirements[id]?.modules),
    );
    expect(stale, 'stale module coverage: run npm run catalog:coverage').toEqual([]);
  });

  it('names no ID outside the catalog, and every testable requirement has a check or a module', () => {
    expect(coverage?.unknown_requirements).toEqual([]);
    const neither = ids.filter((id) => {
      const c = coverage?.requirements[id];
      return (c?.checks.length ?? 0) + (c?.modules.length ?? 0) === 0 && !requirementById(id)?.untestable;
    });
    expect(
      neither,
      'add a check naming the ID or an "untestable" reason, then npm run catalog:coverage',
    ).toEqual([]);
  });
});

describe('declared requirement tables', () => {
  it('every rule, codec and schema ID is a catalog requirement', () => {
    const unknown = [...declaredModules().keys()].filter((id) => requirementById(id) === undefined);
    expect(unknown).toEqual([]);
    expect(CODEC_REQUIREMENTS.length).toBeGreaterThan(0);
  });

  it('credits a rule by its exported requirements, never by text in its source', () => {
    const modules = declaredModules();
    for (const rule of CPR_RULES) {
      for (const id of rule.requirements) expect(modules.get(id)).toContain(`validator: rules/${rule.name}`);
    }
  });
});
