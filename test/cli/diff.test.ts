import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffResults } from '../../src/results/diff.js';
import { resultsDoc } from './_results.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
let dir: string;

function cprc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Check IDs the human output lists under "checks whose state changed". */
function listedChecks(stdout: string): string[] {
  const section =
    stdout.split('checks whose state changed')[1]?.split('\nrequirements newly failing')[0] ?? '';
  return [...section.matchAll(/^ {2}[! ] (\S+)\s+\S+ -> \S+/gm)].map((m) => m[1] as string).sort();
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-diff-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const before = resultsDoc(
  [
    { id: 'payee/version-is-cpr-1-0', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
    { id: 'payee/token-single-use', state: 'passed', requirements: ['CPR-5-TOKEN-SINGLE-USE'], seed: 11 },
    { id: 'payee/error-envelope', state: 'failed', requirements: ['PRF-4-ERROR-ENVELOPE'] },
    { id: 'operator/expired-pack', state: 'skipped', requirements: ['CP-3-EXPIRED'] },
    { id: 'operator/renew-rotates', state: 'passed', requirements: ['CP-4-RENEW-ROTATES'], seed: 5 },
    { id: 'wallet/http/gone-later', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
  ],
  { seed: 1 },
);
const after = resultsDoc(
  [
    { id: 'payee/version-is-cpr-1-0', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
    {
      id: 'payee/token-single-use',
      state: 'failed',
      requirements: ['CPR-5-TOKEN-SINGLE-USE'],
      seed: 12,
      message: 'second use answered 200\u001b[2J',
    },
    { id: 'payee/error-envelope', state: 'passed', requirements: ['PRF-4-ERROR-ENVELOPE'] },
    { id: 'operator/expired-pack', state: 'passed', requirements: ['CP-3-EXPIRED'] },
    { id: 'operator/renew-rotates', state: 'passed', requirements: ['CP-4-RENEW-ROTATES'], seed: 5 },
    { id: 'wallet/stdio/new-check', state: 'error', requirements: ['CPR-2.1-VERSION'] },
  ],
  { seed: 2 },
);

describe('diffResults (hand-made runs)', () => {
  it('names exactly the changed checks, the requirements newly failing and fixed, and the seeds that differ', () => {
    const d = diffResults(before, after);
    expect(d.checks.map((c) => [c.id, c.before, c.after, c.regression])).toEqual([
      ['operator/expired-pack', 'skipped', 'passed', false],
      ['payee/error-envelope', 'failed', 'passed', false],
      ['payee/token-single-use', 'passed', 'failed', true],
      ['wallet/http/gone-later', 'passed', 'absent', false],
      ['wallet/stdio/new-check', 'absent', 'error', true],
    ]);
    expect(d.newlyFailing).toEqual([
      { id: 'CPR-2.1-VERSION', before: 'passed', after: 'error' },
      { id: 'CPR-5-TOKEN-SINGLE-USE', before: 'passed', after: 'failed' },
    ]);
    expect(d.fixed).toEqual([{ id: 'PRF-4-ERROR-ENVELOPE', before: 'failed', after: 'passed' }]);
    expect(d.otherRequirementChanges).toEqual([{ id: 'CP-3-EXPIRED', before: 'skipped', after: 'passed' }]);
    expect(d.seeds).toEqual([{ id: 'payee/token-single-use', before: 11, after: 12 }]);
    expect(d.regression).toBe(true);
  });

  it('finds no regression when only fixes happened, and none at all between a run and itself', () => {
    const fixesOnly = resultsDoc([
      { id: 'payee/version-is-cpr-1-0', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
      { id: 'payee/error-envelope', state: 'passed', requirements: ['PRF-4-ERROR-ENVELOPE'] },
    ]);
    const d = diffResults(before, fixesOnly);
    expect(d.regression).toBe(false);
    expect(d.fixed.map((r) => r.id)).toEqual(['PRF-4-ERROR-ENVELOPE']);
    const same = diffResults(after, after);
    expect([same.checks, same.newlyFailing, same.fixed, same.seeds, same.regression]).toEqual([
      [],
      [],
      [],
      [],
      false,
    ]);
  });

  it('tells apart two tests of one ID (a hook failure recorded twice) by their rank, losing neither', () => {
    const twice = (second: 'passed' | 'failed') =>
      resultsDoc([
        { id: 'payee/t-00000000000000aa', state: 'failed', requirements: ['CPR-2.1-VERSION'] },
        { id: 'payee/t-00000000000000aa', state: second, requirements: ['CPR-2.1-VERSION'] },
      ]);
    const d = diffResults(twice('passed'), twice('failed'));
    expect(d.checks.map((c) => [c.id, c.before, c.after])).toEqual([
      ['payee/t-00000000000000aa#2', 'passed', 'failed'],
    ]);
  });

  it('cprc diff prints them, keeps a target message inert, and exits 1 on a regression, 0 otherwise', () => {
    writeFileSync(join(dir, 'old.json'), JSON.stringify(before));
    writeFileSync(join(dir, 'new.json'), JSON.stringify(after));
    const r = cprc(['diff', 'old.json', 'new.json']);
    expect(r.status, r.stderr).toBe(1);
    expect(listedChecks(r.stdout)).toEqual([
      'operator/expired-pack',
      'payee/error-envelope',
      'payee/token-single-use',
      'wallet/http/gone-later',
      'wallet/stdio/new-check',
    ]);
    expect(r.stdout).toContain('! payee/token-single-use');
    expect(r.stdout).toContain('second use answered 200\\u001B[2J');
    expect(r.stdout).not.toContain('\u001b');
    expect(r.stdout).toContain('REGRESSION');
    const json = cprc(['diff', 'new.json', 'new.json', '--json']);
    expect(json.status).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ regression: false, checks: [] });
    writeFileSync(join(dir, 'bad.json'), '{"results_version":"1.0"}');
    const bad = cprc(['diff', 'old.json', 'bad.json']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('bad.json: "suite_version" is missing');
  });
});
