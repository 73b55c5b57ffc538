import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Absolute path of the package root (the folder holding package.json), found by walking up
 * from this module, so it is right both from `src/` (vitest) and from `dist/src/` (built CLI).
 *
 * @example
 * ```ts
 * const schemasDir = join(packageRoot(), 'schemas');
 * ```
 */
export function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schemas'))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cpr-conformance: package root not found above ${import.meta.url}`);
    dir = parent;
  }
}
