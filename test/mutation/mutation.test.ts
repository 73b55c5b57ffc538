/**
 * Keeps `npm run mutation` from rotting (issue 16) without the full run: StrykerJS with the `cpr`
 * test runner mutates one small file of the reference Operator (a few mutants, each judged by the
 * Operator suite run against the mutated reference), and the report, a verdict per mutant and the
 * score per scope are checked. The full run stays out of CI (docs/mutation.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const FILE = 'src/reference/operator/errors.ts';
const VERDICTS = new Set([
  'Killed',
  'Survived',
  'Timeout',
  'NoCoverage',
  'RuntimeError',
  'CompileError',
  'Ignored',
]);

interface ReportMutant {
  id: string;
  mutatorName: string;
  status: string;
  killedBy?: string[];
  location: { start: { line: number; column: number } };
}
interface Report {
  schemaVersion: string;
  files: Record<string, { source: string; mutants: ReportMutant[] }>;
  testFiles?: Record<string, { tests: { id: string; name: string }[] }>;
}
interface ScopeFigures {
  name: string;
  mutants: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  score: number | null;
  annotatedMutants: number;
  verdict: string;
}

function run(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    // StrykerJS, its workers and the runs they judge keep their temporary folders in this test's
    // own: a run killed at a mutant's timeout cannot remove its folder, the afterAll below does
    const tmp = join(work, 'tmp');
    const child = spawn(process.execPath, args, {
      cwd: root,
      env: { ...process.env, TMPDIR: tmp, TMP: tmp, TEMP: tmp },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => {
      output += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      output += d.toString();
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

// StrykerJS's sandbox of this test, in the project (its default place): removed after the run,
// passed or failed ("always"), and by the afterAll below when StrykerJS was killed at the timeout.
const SANDBOX = join('.stryker-tmp', `selftest-${process.pid}`);
// made in a hook, not while the file is collected: a -t filter skips the hooks, not that code
let work = '';
let hadStrykerTmp = true;
beforeAll(() => {
  hadStrykerTmp = existsSync(join(root, '.stryker-tmp'));
  work = mkdtempSync(join(tmpdir(), 'cprc-mutation-test-'));
  mkdirSync(join(work, 'tmp'));
});
afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
  rmSync(join(root, SANDBOX), { recursive: true, force: true });
  // the parent StrykerJS made for the sandbox, unless a `npm run mutation` uses it meanwhile
  if (!hadStrykerTmp) {
    try {
      rmdirSync(join(root, '.stryker-tmp'));
    } catch {
      // not empty (in use) or already gone
    }
  }
});

describe('npm run mutation machinery (one small file)', () => {
  it('writes the JSON report, gives every mutant a verdict and computes the score of its scope', async () => {
    const reportFile = join(work, 'mutation.json');
    const config = join(work, 'stryker.config.mjs');
    const base = pathToFileURL(join(root, 'stryker.config.mjs')).href;
    writeFileSync(
      config,
      [
        `import base from ${JSON.stringify(base)};`,
        'export default {',
        '  ...base,',
        `  plugins: [${JSON.stringify(join(root, 'scripts', 'mutation-runner.mjs'))}],`,
        `  mutate: [${JSON.stringify(FILE)}],`,
        '  concurrency: 1,',
        "  reporters: ['json'],",
        `  jsonReporter: { fileName: ${JSON.stringify(reportFile)} },`,
        `  tempDirName: ${JSON.stringify(SANDBOX)},`,
        "  cleanTempDir: 'always',",
        '  incremental: false,',
        "  logLevel: 'warn',",
        '};',
        '',
      ].join('\n'),
    );
    const stryker = join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js');
    const r = await run([stryker, 'run', config], 170_000);
    expect(r.code, r.output.slice(-3000)).toBe(0);
    expect(existsSync(reportFile)).toBe(true);

    const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report;
    expect(report.schemaVersion).toMatch(/^\d+/);
    expect(Object.keys(report.files)).toEqual([FILE]);
    const mutants = report.files[FILE]?.mutants ?? [];
    expect(mutants.length).toBeGreaterThan(0);
    for (const m of mutants) expect(VERDICTS.has(m.status), `${m.id} ${m.status}`).toBe(true);
    // the Operator suite judged them: a kill names the Operator checks that failed against it
    const testName = new Map(
      Object.values(report.testFiles ?? {}).flatMap((f) => f.tests.map((t) => [t.id, t.name] as const)),
    );
    const killed = mutants.filter((m) => m.status === 'Killed');
    expect(killed.length).toBeGreaterThan(0);
    for (const m of killed) {
      expect(m.killedBy?.length).toBeGreaterThan(0);
      for (const id of m.killedBy ?? []) expect(testName.get(id)).toMatch(/^operator\//);
    }

    const score = await run(
      [join(root, 'scripts', 'mutation-score.mjs'), '--report', reportFile, '--json'],
      30_000,
    );
    expect(score.code, score.output).toBe(0);
    const scopes = JSON.parse(score.output) as ScopeFigures[];
    const operator = scopes.find((s) => s.name === 'operator');
    const count = (status: string) => mutants.filter((m) => m.status === status).length;
    expect(operator).toMatchObject({
      mutants: mutants.length,
      killed: count('Killed'),
      timeout: count('Timeout'),
      survived: count('Survived'),
      noCoverage: count('NoCoverage'),
      annotatedMutants: count('Ignored'),
    });
    const judged = count('Killed') + count('Timeout') + count('Survived') + count('NoCoverage');
    expect(operator?.score).toBeCloseTo((100 * (count('Killed') + count('Timeout'))) / judged, 6);
    for (const other of scopes.filter((s) => s.name !== 'operator')) {
      expect(other).toMatchObject({ mutants: 0, score: null, verdict: 'not measured' });
    }
  }, 200_000);
});
