/**
 * Temporary folders of the tests: named `cprc-<label>-XXXXXX` under `os.tmpdir()` (during a test
 * run, the run's private folder: test/_support/tmp-guard.ts) and removed when the test that made
 * them ends, passed or failed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';

/**
 * A fresh folder for the running test, removed when it finishes (its `onTestFinished` hook).
 * Call it inside a test only (vitest throws elsewhere); a folder for a whole file is made in
 * `beforeAll` and removed in `afterAll`.
 * @example
 * const dir = testScratchDir('reports'); // e.g. /tmp/cprc-vitest-Ab12Cd/cprc-reports-Xy34Zw
 */
export function testScratchDir(label: string): string {
  let dir: string | undefined;
  // registered before the folder exists: a misplaced call fails without leaving one
  onTestFinished(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });
  dir = mkdtempSync(join(tmpdir(), `cprc-${label}-`));
  return dir;
}
