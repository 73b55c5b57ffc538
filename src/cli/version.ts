import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../paths.js';

/**
 * The version of this package (package.json `version`): the suite version `cprc --version`
 * prints and results bundles attest.
 *
 * @example
 * ```ts
 * suiteVersion(); // '0.1.0'
 * ```
 */
export function suiteVersion(): string {
  const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
  return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
}
