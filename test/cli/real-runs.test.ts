/**
 * `cprc diff`, `report` and `matrix` on real runs of the operator suite (10 runs per property, to
 * stay quick): the reference stack, a permitted variant and a broken implementation, each with
 * the same seed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResults } from '../../src/model/results.js';
import { diffResults } from '../../src/results/diff.js';
import { confirmationWrongKid } from '../broken/operator/confirmation-wrong-kid.js';
import { runSuiteAgainst } from '../broken/run-fault.js';
import type { SelfTestSubject } from '../broken/types.js';
import { eagerSweep } from '../variants/operator/eager-sweep.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
let dir: string;
let reference: ConformanceResults;
let broken: ConformanceResults;
let variant: ConformanceResults;

function cprc(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

function read(path: string, what: string, stderr = ''): ConformanceResults {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    throw new Error(`the ${what} run wrote no results.json: ${stderr}`);
  }
}

/** Runs the operator suite against `subject` with a configured name; results in `<dir>/<folder>/reports`. */
async function runAgainst(
  subject: SelfTestSubject,
  folder: string,
  name: string,
): Promise<ConformanceResults> {
  const work = join(dir, folder);
  mkdirSync(work);
  const started = await subject.start({ workDir: work });
  let stderr = '';
  try {
    ({ stderr } = await runSuiteAgainst('operator', { ...started.config, name }, work, ['--runs', '10']));
  } finally {
    await started.close();
  }
  return read(join(work, 'reports', 'results.json'), folder, stderr);
}

/** Check IDs the human output lists under "checks whose state changed". */
function listedChecks(stdout: string): string[] {
  const section =
    stdout.split('checks whose state changed')[1]?.split('\nrequirements newly failing')[0] ?? '';
  return [...section.matchAll(/^ {2}[! ] (\S+)\s+\S+ -> \S+/gm)].map((m) => m[1] as string).sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-real-runs-'));
  const keygen = cprc(['keygen', '--out', 'signing']);
  if (keygen.status !== 0) throw new Error(`cprc keygen failed: ${keygen.stderr}`);
  const run = spawnSync(
    process.execPath,
    [
      BIN,
      'run',
      '--reference',
      '--target',
      'operator',
      '--seed',
      '1',
      '--runs',
      '10',
      '--reports',
      'reference',
      '--sign',
      'signing.key',
    ],
    { cwd: dir, encoding: 'utf8' },
  );
  reference = read(join(dir, 'reference', 'results.json'), 'reference', run.stderr);
  broken = await runAgainst(confirmationWrongKid, 'broken', 'Broken: confirmation signed with a retired kid');
  variant = await runAgainst(eagerSweep, 'variant', 'Variant: eager expiry sweep');
}, 180_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('real runs', () => {
  it('cprc diff names exactly the checks whose state differs, each tied to the fault, its requirements newly failing', () => {
    const stateOf = (doc: ConformanceResults) => new Map(doc.tests.map((t) => [t.id, t.state]));
    const a = stateOf(reference);
    const b = stateOf(broken);
    const differing = [...new Set([...a.keys(), ...b.keys()])].filter((id) => a.get(id) !== b.get(id)).sort();
    expect(differing.length).toBeGreaterThan(0);

    const r = cprc(['diff', join('reference', 'results.json'), join('broken', 'reports', 'results.json')]);
    expect(r.status, r.stdout + r.stderr).toBe(1);
    expect(listedChecks(r.stdout), r.stdout).toEqual(differing);

    const d = diffResults(reference, broken);
    const expected = new Set(confirmationWrongKid.expected);
    for (const change of d.checks)
      expect(
        change.requirements.some((id) => expected.has(id)),
        change.id,
      ).toBe(true);
    expect(d.newlyFailing.length).toBeGreaterThan(0);
    for (const req of d.newlyFailing) expect(expected.has(req.id), req.id).toBe(true);
    // the same seed, so the property checks ran the same cases
    expect(d.seeds).toEqual([]);
    // the permitted variant regresses nothing
    const v = cprc(['diff', join('reference', 'results.json'), join('variant', 'reports', 'results.json')]);
    expect(v.status, v.stdout).toBe(0);
  });

  it('cprc run --sign wrote results.bundle: it verifies and attests that very results.json', () => {
    const r = cprc([
      'verify',
      join('reference', 'results.bundle'),
      '--key',
      'signing.pub',
      '--extract',
      'attested.json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/operator\.base_url https:\/\/127\.0\.0\.1:\d+/);
    expect(r.stdout).toContain('seed         1, 10 runs per property');
    expect(readFileSync(join(dir, 'attested.json'), 'utf8')).toBe(
      readFileSync(join(dir, 'reference', 'results.json'), 'utf8'),
    );
  });

  it('cprc report re-renders the reference run: the same results.json', () => {
    const r = cprc(['report', join('reference', 'results.json'), '--reports', 'rerendered']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'rerendered', 'results.json'), 'utf8'))).toEqual(reference);
    // the command line the run recorded (its seed was given, so none is appended) is the one shown
    expect(reference.command).toEqual([
      'cprc',
      'run',
      '--reference',
      '--target',
      'operator',
      '--seed',
      '1',
      '--runs',
      '10',
      '--reports',
      'reference',
      '--sign',
      'signing.key',
    ]);
    const line =
      'cprc run --reference --target operator --seed 1 --runs 10 --reports reference --sign signing.key';
    expect(readFileSync(join(dir, 'rerendered', 'summary.md'), 'utf8')).toContain(`\n${line}\n`);
    expect(readFileSync(join(dir, 'rerendered', 'report.html'), 'utf8')).toContain(
      `<dt>reproduce</dt><dd><code>${line}</code></dd>`,
    );
  });

  it('cprc report on results that recorded no command (earlier versions): the reports say so, and what they know', () => {
    const { command: _command, ...old } = reference;
    writeFileSync(join(dir, 'old-results.json'), JSON.stringify(old, null, 2));
    const r = cprc(['report', 'old-results.json', '--reports', 'old']);
    expect(r.status, r.stderr).toBe(0);
    const rendered = JSON.parse(readFileSync(join(dir, 'old', 'results.json'), 'utf8'));
    expect(rendered.command).toBeUndefined();
    expect(rendered).toEqual(old);
    const said =
      `The command line of this run was not recorded (results.json of cpr-conformance ${reference.suite_version}, ` +
      `run started ${reference.started_at}, targets operator).`;
    // nothing pretends to be the run's command: a run with the same seed, runs, level and targets is offered as such
    const rebuilt = "cprc run --config '<config.json>' --seed 1 --runs 10 --level profile --target operator";
    const md = readFileSync(join(dir, 'old', 'summary.md'), 'utf8');
    expect(md).toContain(said);
    expect(md).toContain(`\`\`\`sh\n${rebuilt}\n\`\`\``);
    expect(md).not.toContain('--reference');
    const html = readFileSync(join(dir, 'old', 'report.html'), 'utf8');
    expect(html).toContain(`<dt>command</dt><dd>${said}`);
    expect(html).toContain(
      `<code>${rebuilt.replace(/'/g, '&#39;').replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`,
    );
    expect(html).not.toContain('<dt>reproduce</dt>');
    expect(html).not.toContain('--reference');
  });

  it('cprc matrix of the three runs: configured names, the broken one differing exactly on its requirements', () => {
    const r = cprc([
      'matrix',
      join('reference', 'results.json'),
      join('variant', 'reports', 'results.json'),
      join('broken', 'reports', 'results.json'),
      '--out',
      'matrix',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const m = JSON.parse(readFileSync(join(dir, 'matrix', 'matrix.json'), 'utf8'));
    expect(m.columns.map((c: { name: string }) => c.name)).toEqual([
      'reference',
      'Variant: eager expiry sweep',
      'Broken: confirmation signed with a retired kid',
    ]);
    const failing = (doc: ConformanceResults) =>
      doc.requirements.filter((q) => q.verdict === 'failed' || q.verdict === 'error').map((q) => q.id);
    // the differences the matrix names are the requirements whose verdicts differ between the runs
    const verdicts = [reference, variant, broken].map(
      (doc) => new Map(doc.requirements.map((q) => [q.id, q.verdict])),
    );
    const ids = new Set(verdicts.flatMap((v) => [...v.keys()]));
    const tested = (x: string | undefined) => x !== undefined && x !== 'untested';
    const differ = [...ids].filter(
      (id) =>
        new Set(verdicts.map((v) => v.get(id) ?? 'absent')).size > 1 &&
        verdicts.some((v) => tested(v.get(id))),
    );
    expect(m.differing.map((row: { id: string }) => row.id).sort()).toEqual(differ.sort());
    for (const id of failing(broken)) {
      if (!failing(reference).includes(id)) expect(differ).toContain(id);
    }
    const md = readFileSync(join(dir, 'matrix', 'matrix.md'), 'utf8');
    const html = readFileSync(join(dir, 'matrix', 'matrix.html'), 'utf8');
    for (const id of failing(broken)) {
      expect(md).toMatch(new RegExp(`\\| \`${id.replace(/[.-]/g, '\\$&')}\` \\|[^\\n]*\\| FAIL \\|`));
      expect(html).toContain(`<code>${id}</code>`);
    }
    expect(html).toContain('href="../broken/reports/report.html');
  });
});
