/**
 * Expansion of `cprc validate`'s command-line inputs (src/validator/inputs/expand.ts): which files a
 * folder or a glob stands for, in which order, and the error of an input that names nothing.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CprcError } from '../../src/errors.js';
import { expandGlob, expandInput, isGlob, type Source, walkJson } from '../../src/validator/inputs/expand.js';
import { testScratchDir } from '../_support/scratch.js';

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** A scratch tree: every path ending in `/` is a folder, every other one a file holding `{}`. */
function tree(paths: string[]): string {
  const root = testScratchDir('expand');
  for (const p of paths) {
    if (p.endsWith('/')) mkdirSync(join(root, p), { recursive: true });
    else {
      mkdirSync(join(root, p, '..'), { recursive: true });
      writeFileSync(join(root, p), '{}');
    }
  }
  return root;
}

const rel = (root: string, paths: string[]): string[] => paths.map((p) => p.slice(root.length + 1));

describe('isGlob', () => {
  it('is true for each of * ? [ { and false for a plain path', () => {
    for (const s of ['a*.json', 'a?.json', 'a[12].json', '{a,b}.json']) expect(isGlob(s), s).toBe(true);
    for (const s of ['a.json', '/tmp/x/y.json', 'a]b}.json', '-', '']) expect(isGlob(s), s).toBe(false);
  });
});

describe('walkJson (a folder)', () => {
  it("yields every *.json below the folder: a folder's files by name, then its sub-folders by name, depth first", async () => {
    const root = tree([
      'b.json',
      'a.json',
      'notes.txt',
      'a.json.bak',
      'z/',
      'y/2.json',
      'y/1.json',
      'y/deep/0.json',
      'x/3.json',
      '.hidden/h.json',
      'node_modules/m.json',
      '.dot.json',
    ]);
    expect(rel(root, await collect(walkJson(root)))).toEqual([
      '.dot.json',
      'a.json',
      'b.json',
      'x/3.json',
      'y/1.json',
      'y/2.json',
      'y/deep/0.json',
    ]);
  });

  it('lists sub-folders in name order, whatever order the file system gives', async () => {
    const root = tree(['a/1.json', 'b/2.json', 'c/3.json', 'd/4.json']);
    expect(rel(root, await collect(walkJson(root)))).toEqual([
      'a/1.json',
      'b/2.json',
      'c/3.json',
      'd/4.json',
    ]);
    const rev = tree(['d/4.json', 'c/3.json', 'b/2.json', 'a/1.json']);
    expect(rel(rev, await collect(walkJson(rev)))).toEqual(['a/1.json', 'b/2.json', 'c/3.json', 'd/4.json']);
  });

  it('skips what is neither a file nor a link (a socket named *.json)', async () => {
    const root = tree(['a.json']);
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(root, 's.json'), resolve));
    try {
      expect(rel(root, await collect(walkJson(root)))).toEqual(['a.json']);
      expect(rel(root, await collect(expandGlob(`${root}/*.json`)))).toEqual(['a.json']);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('follows a symbolic link to a file', async () => {
    const root = tree(['real/doc.txt']);
    symlinkSync(join(root, 'real', 'doc.txt'), join(root, 'link.json'));
    expect(rel(root, await collect(walkJson(root)))).toEqual(['link.json']);
  });

  it('names a folder it cannot list', async () => {
    const root = tree([]);
    await expect(collect(walkJson(join(root, 'gone')))).rejects.toSatisfy(
      (e) => e instanceof CprcError && e.code === 'CPRC_IO' && e.message.includes(join(root, 'gone')),
    );
  });
});

describe('expandGlob', () => {
  const files = [
    'a.json',
    'b.json',
    'ab.json',
    'abjson',
    'c.txt',
    '.hidden.json',
    'sub/s1.json',
    'sub/s2.json',
    'sub/deeper/d.json',
    'sub/.dotdir/x.json',
    'other/o.json',
    '.dotdir/y.json',
  ];

  it('* and ? match within one name, never a dot file unless the segment starts with a dot', async () => {
    const root = tree(files);
    expect(rel(root, await collect(expandGlob(`${root}/*.json`)))).toEqual(['a.json', 'ab.json', 'b.json']);
    expect(rel(root, await collect(expandGlob(`${root}/?.json`)))).toEqual(['a.json', 'b.json']);
    expect(rel(root, await collect(expandGlob(`${root}/.*.json`)))).toEqual(['.hidden.json']);
    expect(rel(root, await collect(expandGlob(`${root}/*/s?.json`)))).toEqual(['sub/s1.json', 'sub/s2.json']);
    expect(rel(root, await collect(expandGlob(`${root}/.*/*.json`)))).toEqual(['.dotdir/y.json']);
    // a dot in the pattern is a dot, not any character
    expect(rel(root, await collect(expandGlob(`${root}/a.js?n`)))).toEqual(['a.json']);
    expect(rel(root, await collect(expandGlob(`${root}/ab.js*`)))).toEqual(['ab.json']);
  });

  it('[...] and [!...] match one character of a set; an unclosed [ or { is literal', async () => {
    const root = tree(['a.json', 'b.json', 'c.json', '!.json', '[x.json', '{y.json', 'a-b.json']);
    expect(rel(root, await collect(expandGlob(`${root}/[ab].json`)))).toEqual(['a.json', 'b.json']);
    expect(rel(root, await collect(expandGlob(`${root}/[!ab].json`)))).toEqual(['!.json', 'c.json']);
    expect(rel(root, await collect(expandGlob(`${root}/[a-c].json`)))).toEqual([
      'a.json',
      'b.json',
      'c.json',
    ]);
    expect(rel(root, await collect(expandGlob(`${root}/[x*`)))).toEqual(['[x.json']);
    expect(rel(root, await collect(expandGlob(`${root}/{y*`)))).toEqual(['{y.json']);
    expect(rel(root, await collect(expandGlob(`${root}/a-[b].json`)))).toEqual(['a-b.json']);
  });

  it('{a,b} matches each alternative, with * and ? inside and other characters literal', async () => {
    const root = tree([
      'x.y.json',
      'xzy.json',
      'q.json',
      'qq.json',
      'r1.json',
      'a+b.json',
      'aab.json',
      'p(1)|2.json',
    ]);
    expect(rel(root, await collect(expandGlob(`${root}/{x.y,q}.json`)))).toEqual(['q.json', 'x.y.json']);
    expect(rel(root, await collect(expandGlob(`${root}/{q*,r?}.json`)))).toEqual([
      'q.json',
      'qq.json',
      'r1.json',
    ]);
    expect(rel(root, await collect(expandGlob(`${root}/{a+b,none}.json`)))).toEqual(['a+b.json']);
    expect(rel(root, await collect(expandGlob(`${root}/{p(1)|2,none}.json`)))).toEqual(['p(1)|2.json']);
    expect(rel(root, await collect(expandGlob(`${root}/pre{q,x}.json`)))).toEqual([]);
  });

  it('characters special to regular expressions are literal outside brackets', async () => {
    const root = tree(['a+b.json', 'aab.json', 'p(1).json', 'p1.json', 'c^d$e|f.json', 'ce.json', 'f.json']);
    expect(rel(root, await collect(expandGlob(`${root}/a+b.js?n`)))).toEqual(['a+b.json']);
    expect(rel(root, await collect(expandGlob(`${root}/p(1).js?n`)))).toEqual(['p(1).json']);
    expect(rel(root, await collect(expandGlob(`${root}/c^d$e|f.js?n`)))).toEqual(['c^d$e|f.json']);
  });

  it('] and } without an opening bracket are literal, and so are brackets inside braces', async () => {
    const root = tree(['a]bx.json', 'a]by.json', 'a]bz.json', 'k}.json', 'a[1].json', 'a1.json', 'w{v.json']);
    expect(rel(root, await collect(expandGlob(`${root}/a]b[xy].json`)))).toEqual(['a]bx.json', 'a]by.json']);
    expect(rel(root, await collect(expandGlob(`${root}/k}.js?n`)))).toEqual(['k}.json']);
    expect(rel(root, await collect(expandGlob(`${root}/{a[1],none}.json`)))).toEqual(['a[1].json']);
    expect(rel(root, await collect(expandGlob(`${root}/{w{v,none}.json`)))).toEqual(['w{v.json']);
  });

  it('** matches zero or more folders (not dot folders), and a file is yielded once', async () => {
    const root = tree(files);
    expect(rel(root, await collect(expandGlob(`${root}/**/*.json`)))).toEqual([
      'a.json',
      'ab.json',
      'b.json',
      'other/o.json',
      'sub/s1.json',
      'sub/s2.json',
      'sub/deeper/d.json',
    ]);
    expect(rel(root, await collect(expandGlob(`${root}/**/d.json`)))).toEqual(['sub/deeper/d.json']);
    expect(rel(root, await collect(expandGlob(`${root}/**/**/d.json`)))).toEqual(['sub/deeper/d.json']);
    expect(rel(root, await collect(expandGlob(`${root}/sub/**/**`)))).toEqual([
      'sub/s1.json',
      'sub/s2.json',
      'sub/deeper/d.json',
    ]);
    expect(rel(root, await collect(expandGlob(`${root}/sub/**`)))).toEqual([
      'sub/s1.json',
      'sub/s2.json',
      'sub/deeper/d.json',
    ]);
    expect(await collect(expandGlob(`${root}/missing/**/*.json`))).toEqual([]);
  });

  it('a pattern without glob characters, repeated slashes, the file-system root', async () => {
    const root = tree(files);
    expect(rel(root, await collect(expandGlob(`${root}/sub/s1.json`)))).toEqual(['sub/s1.json']);
    expect(rel(root, await collect(expandGlob(`${root}/*//s1.json`)))).toEqual(['sub/s1.json']);
    expect(rel(root, await collect(expandGlob(`${root}//sub///s?.json`)))).toEqual([
      'sub/s1.json',
      'sub/s2.json',
    ]);
    expect(await collect(expandGlob('/e?c/passwd'))).toEqual(['/etc/passwd']);
  });

  it('a folder that cannot be listed matches nothing', async () => {
    const root = tree(files);
    for (const pattern of ['missing/*', 'missing/*/x.json', 'missing/**', 'missing/**/*.json', 'a.json/*']) {
      expect(await collect(expandGlob(`${root}/${pattern}`)), pattern).toEqual([]);
    }
  });

  it('a folder segment matches folders by its pattern, a dot folder only with a leading dot', async () => {
    const root = tree(files);
    expect(rel(root, await collect(expandGlob(`${root}/*/y.json`)))).toEqual([]);
    expect(rel(root, await collect(expandGlob(`${root}/o*/*.json`)))).toEqual(['other/o.json']);
    expect(rel(root, await collect(expandGlob(`${root}/**`)))).toEqual([
      'a.json',
      'ab.json',
      'abjson',
      'b.json',
      'c.txt',
      'other/o.json',
      'sub/s1.json',
      'sub/s2.json',
      'sub/deeper/d.json',
    ]);
    const plain = tree(['a/x.json', 'b/y.json', 'b/c/z.json']);
    expect(rel(plain, await collect(expandGlob(`${plain}/**/*.json`)))).toEqual([
      'a/x.json',
      'b/y.json',
      'b/c/z.json',
    ]);
  });

  it('a relative pattern is read from the working folder and yields relative paths', async () => {
    expect(await collect(expandGlob('package.js?n'))).toEqual(['package.json']);
    expect(await collect(expandGlob('test/validator/fixtures/ach-ok.js?n'))).toEqual([
      join('test', 'validator', 'fixtures', 'ach-ok.json'),
    ]);
    expect(await collect(expandGlob('test//validator/fixtures/ach-o?.json'))).toEqual([
      join('test', 'validator', 'fixtures', 'ach-ok.json'),
    ]);
  });
});

describe('expandInput', () => {
  it('- is stdin and cpr:// a uri, whatever exists on disk', async () => {
    expect(await collect(expandInput('-'))).toEqual([{ kind: 'stdin' }]);
    expect(await collect(expandInput('cpr://inline/e30'))).toEqual([
      { kind: 'uri', uri: 'cpr://inline/e30' },
    ]);
  });

  it('a file is itself (even with glob characters in its name), a folder its *.json files, a glob its matches', async () => {
    const root = tree(['a.json', 'b[1].json', 'f/x.json', 'f/y.txt']);
    const path = (p: string): Source => ({ kind: 'path', path: join(root, p) });
    expect(await collect(expandInput(join(root, 'a.json')))).toEqual([path('a.json')]);
    expect(await collect(expandInput(join(root, 'b[1].json')))).toEqual([path('b[1].json')]);
    // a folder's regular files are marked as listed so (their reader skips a stat)
    expect(await collect(expandInput(join(root, 'f')))).toEqual([
      { ...path('f/x.json'), listedAsFile: true },
    ]);
    expect(await collect(expandInput(`${root}/*.json`))).toEqual([path('a.json'), path('b[1].json')]);
    expect(await collect(expandInput(`${root}/b[1].json`))).toEqual([path('b[1].json')]);
    expect(await collect(expandInput(`${root}/f/*`))).toEqual([path('f/x.json'), path('f/y.txt')]);
  });

  it('an empty folder yields nothing; a missing path or a glob matching nothing is an error naming it', async () => {
    const root = tree(['empty/']);
    expect(await collect(expandInput(join(root, 'empty')))).toEqual([]);
    for (const [input, why] of [
      [join(root, 'missing.json'), 'no such file'],
      [`${root}/*.nothing`, 'no file matches this glob'],
    ] as const) {
      const err = await collect(expandInput(input)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(CprcError);
      expect((err as CprcError).code).toBe('CPRC_IO');
      expect((err as CprcError).message).toContain(input);
      expect((err as CprcError).message).toContain(why);
    }
  });
});
