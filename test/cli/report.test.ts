import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsDoc } from './_results.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
const REPORTS = ['junit.xml', 'results.json', 'summary.md', 'report.html'];
let dir: string;

function cprc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const doc = resultsDoc([
  { id: 'payee/version-is-cpr-1-0', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
  {
    id: 'payee/token-single-use',
    state: 'failed',
    requirements: ['CPR-5-TOKEN-SINGLE-USE'],
    seed: 7,
    message: 'second use answered 200',
  },
  { id: 'operator/expired-pack', state: 'skipped', requirements: ['CP-3-EXPIRED'], message: 'no harness' },
]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-report-'));
  writeFileSync(join(dir, 'archived.json'), JSON.stringify(doc));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cprc report', () => {
  it('re-renders the four reports of a results.json; rendering its own output again changes no byte', () => {
    const first = cprc(['report', 'archived.json', '--reports', 'first']);
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('verdict fail');
    const rendered = JSON.parse(readFileSync(join(dir, 'first', 'results.json'), 'utf8'));
    expect(rendered.tests.map((t: { id: string; state: string }) => [t.id, t.state])).toEqual([
      ['payee/version-is-cpr-1-0', 'passed'],
      ['payee/token-single-use', 'failed'],
      ['operator/expired-pack', 'skipped'],
    ]);
    expect(rendered.requirements.map((r: { id: string }) => r.id)).toEqual(doc.requirements.map((r) => r.id));
    expect(rendered.seed).toBe(doc.seed);
    expect(readFileSync(join(dir, 'first', 'summary.md'), 'utf8')).toContain('second use answered 200');
    expect(readFileSync(join(dir, 'first', 'report.html'), 'utf8')).toContain('payee/token-single-use');
    expect(readFileSync(join(dir, 'first', 'junit.xml'), 'utf8')).toContain('second use answered 200');

    const again = cprc(['report', join('first', 'results.json'), '--reports', 'again']);
    expect(again.status, again.stderr).toBe(0);
    for (const name of REPORTS) {
      expect(readFileSync(join(dir, 'again', name), 'utf8'), name).toBe(
        readFileSync(join(dir, 'first', name), 'utf8'),
      );
    }
  });

  it('refuses what is not a results.json with a clear error and exit 2', () => {
    writeFileSync(join(dir, 'not-results.json'), '{"tests": 3}');
    const r = cprc(['report', 'not-results.json', '--reports', 'x']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not-results\.json: "results_version" must be "1\.x"/);
    const missing = cprc(['report', 'nowhere.json', '--reports', 'x']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('nowhere.json: cannot read it (no such file)');
  });
});
