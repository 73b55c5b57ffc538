/**
 * One test per module of a source folder, asserting that the module loads: it is imported in the
 * test's own body, so a fault in code that runs while it loads (a table, a pattern, a trie built
 * at module level) fails that test. A module that cannot be loaded breaks every user of it; under
 * mutation (docs/mutation.md) this turns such a mutant into a failing test, where an import at the
 * top of a test file only gives an error outside any test (no verdict).
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The TypeScript modules under `folder` (relative to the project root), sorted. */
export function modulesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true })
    .map(String)
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) =>
      relative(ROOT, join(ROOT, folder, f))
        .split('\\')
        .join('/'),
    )
    .sort();
}

/** Declares one test per module under `folder`: importing it does not throw. */
export function itLoadsEveryModule(folder: string): void {
  const modules = modulesUnder(folder);
  it(`finds the modules of ${folder}`, () => {
    expect(modules.length).toBeGreaterThan(0);
  });
  it.each(modules)('%s loads', async (module) => {
    await expect(import(pathToFileURL(join(ROOT, module)).href)).resolves.toBeTypeOf('object');
  });
}
