// `cprc vectors`: writes the vector files, their index and schemas into a folder, prints one group
// or a summary, and says clearly what is wrong with an unknown group or a folder it cannot write.
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { testScratchDir } from '../_support/scratch.js';

const ROOT = join(import.meta.dirname, '..', '..');

/** Runs `cprc <args>` in-process; returns the exit code and what it printed. */
async function cprc(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: unknown) => {
    out += String(chunk);
    return true;
  });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
    err += String(chunk);
    return true;
  });
  try {
    const code = await main(['node', 'cprc', ...args]);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
    process.exitCode = undefined;
  }
}

afterEach(() => {
  process.exitCode = undefined;
});

describe('cprc vectors', () => {
  it('--out DIR writes every group, index.json and the schemas, byte for byte', async () => {
    const dir = testScratchDir('vectors-out');
    const r = await cprc('vectors', '--out', dir);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/7 vector group\(s\), \d+ cases, written to/);
    const index = JSON.parse(readFileSync(join(ROOT, 'vectors', 'index.json'), 'utf8')) as {
      groups: Array<{ group: string }>;
    };
    for (const { group } of index.groups) {
      expect(readFileSync(join(dir, `${group}.json`), 'utf8')).toBe(
        readFileSync(join(ROOT, 'vectors', `${group}.json`), 'utf8'),
      );
      expect(existsSync(join(dir, 'schemas', `${group}.schema.json`))).toBe(true);
    }
    expect(readdirSync(join(dir, 'schemas')).sort()).toEqual(
      [
        ...index.groups.map((g) => `${g.group}.schema.json`),
        'finding.schema.json',
        'index.schema.json',
      ].sort(),
    );
  });

  it('--group NAME --out DIR writes that group only (with index.json and its schemas)', async () => {
    const dir = testScratchDir('vectors-group');
    const r = await cprc('vectors', '--group', 'crypto', '--out', dir);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual(['crypto.json', 'index.json', 'schemas']);
    expect(readdirSync(join(dir, 'schemas')).sort()).toEqual([
      'crypto.schema.json',
      'finding.schema.json',
      'index.schema.json',
    ]);
  });

  it('--group NAME alone prints that group as JSON', async () => {
    const r = await cprc('vectors', '--group', 'uris');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).group).toBe('uris');
  });

  it('without options prints a summary of the groups and how to write them', async () => {
    const r = await cprc('vectors');
    expect(r.code).toBe(0);
    for (const g of ['documents', 'uris', 'qr', 'crypto', 'payee', 'derivation', 'operator'])
      expect(r.out).toContain(g);
    expect(r.out).toContain('--out DIR');
  });

  it('an unknown group is a usage error naming the groups', async () => {
    const r = await cprc('vectors', '--group', 'payments');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--group "payments" is no vector group; use one of documents, uris, qr, crypto');
    expect(r.out).toBe('');
  });

  it('a folder that cannot be written is an I/O error naming it', async () => {
    const dir = testScratchDir('vectors-unwritable');
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'x');
    const r = await cprc('vectors', '--out', join(blocker, 'inside'));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /--out .*a-file\/inside: cannot write the vectors there \(ENOTDIR\); name a folder you can write to/,
    );
    if (process.getuid?.() !== 0) {
      const ro = join(dir, 'read-only');
      await cprc('vectors', '--group', 'qr', '--out', ro);
      chmodSync(ro, 0o500);
      const again = await cprc('vectors', '--out', ro);
      chmodSync(ro, 0o700);
      expect(again.code).toBe(2);
      expect(again.err).toContain('cannot write the vectors there (EACCES)');
    }
  });
});
