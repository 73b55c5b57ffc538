import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
const HOOK = join(ROOT, 'bin', 'code-cache.cjs');

let dir: string;
let dist: string;
let cacheDir: string;

/**
 * Runs a Node process that installs the hook over `dist`, requires `dist/cli/main.cjs` and
 * `dist/other.cjs` (outside what the hook caches), and prints their answers and the hook's counts.
 */
function load(produce: boolean): { answer: unknown; counts: Record<string, number>; stderr: string } {
  const script = [
    `const counts = require(${JSON.stringify(HOOK)}).installCodeCache(${JSON.stringify(dist)}, ${JSON.stringify(cacheDir)}, ${produce});`,
    `const main = require(${JSON.stringify(join(dist, 'cli', 'main.cjs'))});`,
    `const other = require(${JSON.stringify(join(dist, 'other.cjs'))});`,
    'const answer = [main.sum([1, 2, 3]), main.file, main.dir, other.answer];',
    'if (main.k !== undefined) answer.push(main.k);',
    'console.log(JSON.stringify({ answer, counts }));',
  ].join('\n');
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return { ...JSON.parse(r.stdout), stderr: r.stderr };
}

function writeMain(body: string): void {
  writeFileSync(
    join(dist, 'cli', 'main.cjs'),
    `'use strict';\nconst { helper } = require('./helper.cjs');\nexports.sum = (xs) => xs.reduce((a, b) => a + helper(b), 0);\nexports.file = __filename;\nexports.dir = __dirname;\n${body}\n`,
  );
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-code-cache-'));
  dist = join(dir, 'dist');
  cacheDir = join(dist, 'cli', 'code-cache');
  mkdirSync(join(dist, 'cli'), { recursive: true });
  writeMain('');
  writeFileSync(join(dist, 'cli', 'helper.cjs'), "'use strict';\nexports.helper = (x) => x * 10;\n");
  writeFileSync(join(dist, 'other.cjs'), "'use strict';\nexports.answer = 42;\n");
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the V8 code cache of the bundled CLI (bin/code-cache.cjs)', () => {
  it('compiles as usual without entries, writes one per cached file when producing, and starts from them next time', () => {
    const expected = [60, join(dist, 'cli', 'main.cjs'), join(dist, 'cli'), 42];
    const first = load(false);
    expect(first.answer).toEqual(expected);
    expect(first.counts).toEqual({ cached: 0, rejected: 0, uncached: 2 });
    const produced = load(true);
    expect(produced.answer).toEqual(expected);
    expect(produced.stderr).toContain('code cache: 2 entries');
    // the two files under cli/, none for a file outside it
    expect(readdirSync(cacheDir).sort()).toEqual([
      expect.stringMatching(/^cli~helper\.cjs\.\d+-\d+\.bin$/),
      expect.stringMatching(/^cli~main\.cjs\.\d+-\d+\.bin$/),
    ]);
    const again = load(false);
    expect(again.answer).toEqual(expected);
    expect(again.counts).toEqual({ cached: 2, rejected: 0, uncached: 0 });
  });

  it('never uses the entry of an earlier file: a rewritten file, even of the same size, is compiled from its text', () => {
    writeMain('exports.k = 1;');
    expect(load(true).counts).toEqual({ cached: 0, rejected: 0, uncached: 2 });
    expect(load(false).counts).toEqual({ cached: 2, rejected: 0, uncached: 0 });
    // another program of the same length, written later: its entry name differs by the time
    writeMain('exports.k = 2;');
    utimesSync(join(dist, 'cli', 'main.cjs'), new Date(), new Date(Date.now() + 5000));
    const changed = load(false);
    expect(changed.counts).toEqual({ cached: 1, rejected: 0, uncached: 1 });
    expect(changed.answer).toEqual([60, join(dist, 'cli', 'main.cjs'), join(dist, 'cli'), 42, 2]);
  });

  it('compiles from the text when V8 refuses an entry (damaged, or made by another Node)', () => {
    writeMain('');
    load(true);
    for (const f of readdirSync(cacheDir)) writeFileSync(join(cacheDir, f), 'not a code cache');
    const damaged = load(false);
    expect(damaged.answer).toEqual([60, join(dist, 'cli', 'main.cjs'), join(dist, 'cli'), 42]);
    expect(damaged.counts).toEqual({ cached: 0, rejected: 2, uncached: 0 });
  });
});

describe('the built CLI', () => {
  it('starts from the code cache npm run build made', () => {
    const script = [
      `const { join } = require('node:path');`,
      `const dist = ${JSON.stringify(join(ROOT, 'dist'))};`,
      `const counts = require(${JSON.stringify(HOOK)}).installCodeCache(dist, join(dist, 'cli', 'code-cache'), false);`,
      `require(join(dist, 'cli', 'cprc.cjs')).main(['node', 'cprc', 'validate', ${JSON.stringify(join(ROOT, 'examples', 'payment-request.json'))}])`,
      '  .then((code) => console.log(JSON.stringify({ code, counts })));',
    ].join('\n');
    const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    const { code, counts } = JSON.parse(r.stdout.trim().split('\n').at(-1) as string);
    expect(code).toBe(0);
    // every file of the validation started from its entry (a build on another Node refuses none:
    // the cache is made by the same build)
    expect(counts.rejected).toBe(0);
    expect(counts.uncached).toBe(0);
    expect(counts.cached).toBeGreaterThanOrEqual(5);
  });
});
