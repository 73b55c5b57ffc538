import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type InputResult, validateInputs } from '../../src/validator/index.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');
const doc = (name: string, id: string): string =>
  JSON.stringify({ ...JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')), request_id: id });
// made in a hook, not while the file is collected: a -t filter skips the hooks, not that code
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-validator-inputs-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function all(inputs: string[], opts: Parameters<typeof validateInputs>[1]): Promise<InputResult[]> {
  const out: InputResult[] = [];
  for await (const r of validateInputs(inputs, opts)) out.push(r);
  return out;
}

describe('validateInputs (the loader behind cprc validate)', () => {
  it('reads NDJSON from an injected stdin, names each line, and applies request_id uniqueness', async () => {
    const stdin = Readable.from([
      `${doc('sepa-ct-ok', '00000000-0000-4000-8000-00000000000a')}\n`,
      `${doc('pix-ok', '00000000-0000-4000-8000-00000000000a')}\n`,
    ]);
    const rs = await all(['-'], { now: NOW, stdin });
    expect(rs.map((r) => [r.input, r.valid])).toEqual([
      ['-:1', true],
      ['-:2', false],
    ]);
    expect(rs[1]?.findings.map((f) => f.requirement)).toEqual(['CPR-2.1-REQUEST-ID-UNIQUE']);
  });

  it('walks a folder in name order and reports a file above the max-bytes limit as unreadable, then goes on', async () => {
    const root = join(dir, 'tree');
    mkdirSync(join(root, 'b'), { recursive: true });
    writeFileSync(join(root, 'a.json'), doc('sepa-ct-ok', '00000000-0000-4000-8000-0000000000b1'));
    writeFileSync(join(root, 'b', 'big.json'), `{"pad":"${'x'.repeat(5000)}"}`);
    writeFileSync(join(root, 'c.json'), doc('ach-ok', '00000000-0000-4000-8000-0000000000b2'));
    const rs = await all([root], { now: NOW, maxBytes: 2000 });
    expect(rs.map((r) => r.input)).toEqual([
      join(root, 'a.json'),
      join(root, 'c.json'),
      join(root, 'b', 'big.json'),
    ]);
    expect(rs[2]?.error).toContain('max-bytes limit of 2000 bytes');
    expect(rs.slice(0, 2).every((r) => r.valid)).toBe(true);
  });

  it('refuses invalid options before reading anything', async () => {
    await expect(all(['-'], { mode: 'merchant' as 'payee' })).rejects.toThrow(/mode must be/);
  });
});
