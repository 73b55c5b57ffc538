import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CPR_RULES } from '../../../src/validator/rules/index.js';

// Every rule's name equals its file name (src/validator/types.ts, Rule.name): the name is how a
// rule is found and reported.
describe('rule names', () => {
  it('each rule is named after its own file, every file has its rule', () => {
    const files = readdirSync(new URL('../../../src/validator/rules/', import.meta.url))
      .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
      .map((f) => f.slice(0, -3))
      .sort();
    expect(CPR_RULES.map((r) => r.name).sort()).toEqual(files);
  });
});
