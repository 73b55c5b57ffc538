// The temporary-file guard of the test run (test/_support/tmp-guard.ts): this run's TMPDIR is its
// private folder, and what the guard compares finds a new, a changed and a foreign entry apart.
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testScratchDir } from './scratch.js';
import { describeLeftover, leftovers, snapshot } from './tmp-guard.js';

describe('temporary-file guard', () => {
  it('gives the run a private TMPDIR, which every folder of the tests is made in', () => {
    expect(basename(tmpdir())).toMatch(/^cprc-vitest-[A-Za-z0-9]{6}$/);
    expect(process.env.TMPDIR).toBe(tmpdir());
    expect(testScratchDir('guard').startsWith(join(tmpdir(), 'cprc-guard-'))).toBe(true);
  });

  it('names what appeared, what changed when asked, and only entries that count', () => {
    const dir = testScratchDir('guard');
    writeFileSync(join(dir, 'kept.txt'), 'x');
    writeFileSync(join(dir, 'junit.xml'), 'old');
    const before = snapshot(dir);
    mkdirSync(join(dir, 'cprc-run-Ab12Cd'));
    writeFileSync(join(dir, 'cprc-run-Ab12Cd', 'ca.key'), 'k');
    writeFileSync(join(dir, 'mutation'), 'a tool of its own');
    utimesSync(join(dir, 'junit.xml'), new Date(0), new Date(0));
    const after = snapshot(dir);
    expect(leftovers(before, after)).toEqual(['cprc-run-Ab12Cd', 'mutation']);
    expect(leftovers(before, after, (name) => name !== 'mutation', true)).toEqual([
      'cprc-run-Ab12Cd',
      'junit.xml',
    ]);
    expect(leftovers(after, snapshot(dir))).toEqual([]);
    expect(snapshot(join(dir, 'absent')).size).toBe(0);
    expect(describeLeftover(join(dir, 'cprc-run-Ab12Cd'), 'cprc-run-Ab12Cd')).toBe(
      `  ${join(dir, 'cprc-run-Ab12Cd')} (1 entry: ca.key)  [search for 'cprc-run-']`,
    );
  });
});
