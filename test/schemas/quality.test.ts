// Every schema documents itself: $schema 2020-12, $id, title, description, a description on every
// property, and (for the message schemas) the spec/profile section it encodes.
import { describe, expect, it } from 'vitest';
import { loadSchemaFiles } from '../../src/schemas/registry.js';

const files = loadSchemaFiles();

/**
 * Subschemas that only constrain members declared elsewhere (conditions and their consequences),
 * not declarations of properties: no description is asked of them.
 */
const CONDITIONAL = new Set(['if', 'then', 'else', 'not', 'dependentSchemas']);

/** JSON pointers of every declared property (in `properties` or `patternProperties`) without a description. */
function undocumented(node: unknown, at = ''): string[] {
  if (Array.isArray(node)) return node.flatMap((n, i) => undocumented(n, `${at}/${i}`));
  if (typeof node !== 'object' || node === null) return [];
  const out: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (
      (key === 'properties' || key === 'patternProperties') &&
      typeof value === 'object' &&
      value !== null
    ) {
      for (const [name, sub] of Object.entries(value)) {
        const ok =
          typeof sub === 'object' &&
          sub !== null &&
          typeof (sub as { description?: unknown }).description === 'string';
        if (!ok && sub !== false) out.push(`${at}/${key}/${name}`);
        out.push(...undocumented(sub, `${at}/${key}/${name}`));
      }
    } else if (
      !CONDITIONAL.has(key) &&
      key !== 'const' &&
      key !== 'enum' &&
      key !== 'default' &&
      key !== 'examples'
    ) {
      out.push(...undocumented(value, `${at}/${key}`));
    }
  }
  return out;
}

describe('schema documentation', () => {
  for (const f of files) {
    it(`${f.relPath} has $schema, $id, title, description and a description on every property`, () => {
      expect(f.schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      expect(f.schema.$id).toBe(`https://cpr-conformance.dev/schemas/${f.relPath}`);
      expect(typeof f.schema.title === 'string' && f.schema.title.length > 0).toBe(true);
      expect(typeof f.schema.description === 'string' && f.schema.description.length > 0).toBe(true);
      expect(undocumented(f.schema)).toEqual([]);
    });
  }

  for (const f of files.filter(
    (x) => /^(cpr|cashpack|harness)\//.test(x.relPath) || x.relPath === 'tool/run-config.schema.json',
  )) {
    it(`${f.relPath} names the spec or profile section it encodes (x-spec-section)`, () => {
      const section = f.schema['x-spec-section'];
      expect(typeof section).toBe('string');
      expect(section).toMatch(/profile|spec|CPR|CP /);
    });
  }

  it('detects an undocumented property (the check can fail)', () => {
    expect(
      undocumented({ properties: { a: { type: 'string' }, b: { description: 'x', properties: { c: {} } } } }),
    ).toEqual(['/properties/a', '/properties/b/properties/c']);
  });
});
