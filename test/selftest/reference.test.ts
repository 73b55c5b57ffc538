import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCoverage } from '../../src/catalog/coverage.js';
import { buildCoverage } from '../../src/catalog/declared.js';
import { loadCatalog } from '../../src/catalog/index.js';
import { packageRoot } from '../../src/paths.js';

// The main job: `cprc run --reference` runs every suite against the bundled reference
// implementations, exits 0 and writes the four reports; every check passes (no failure,
// warning or error) and the catalog's testable requirements are exercised.
describe('self-test: cprc run --reference', () => {
  let dir: string;
  let exitCode: number | null;
  let stdout = '';
  let stderr = '';
  let results: {
    verdict: string;
    incomplete: boolean;
    counts: Record<string, number>;
    tests: {
      state: string;
      title: string;
      target: string;
      id: string;
      requirements: string[];
      message?: string;
      skip_reason?: string;
    }[];
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cprc-reference-'));
    const child = spawn(
      process.execPath,
      [join(packageRoot(), 'bin', 'cprc.js'), 'run', '--reference', '--reports', dir, '--seed', '42'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    exitCode = await new Promise((resolve) => child.on('close', resolve));
    results = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
  }, 600_000);

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('exits 0 and writes the four reports', () => {
    expect(exitCode, `${stderr}\n${stdout.slice(-4000)}`).toBe(0);
    for (const file of ['junit.xml', 'results.json', 'summary.md', 'report.html']) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    expect(results.verdict).toBe('pass');
    expect(results.incomplete).toBe(false);
  });

  it('passes every check of every target: no failure, warning or error', () => {
    const bad = results.tests.filter((t) => ['failed', 'warning', 'error'].includes(t.state));
    expect(bad.map((t) => `${t.state} ${t.title}: ${t.message ?? ''}`)).toEqual([]);
    expect(results.counts.passed).toBeGreaterThan(50);
  });

  it('sleeps only to renew a second after an issue (at most 1.15 s): expiry goes through the reference test clocks, and the reports name the wait', () => {
    // the one real wait: a re-stamped issued_at shows only in a later second (intoLaterSecond)
    const SECOND_LATER = 'operator/renewal-changes-only-bearer-digest-chain';
    const slept = results.tests
      .map((t) => ({ id: t.id, ms: (t as { waited_ms?: number }).waited_ms ?? 0 }))
      .filter((t) => t.ms > 0);
    expect(slept.filter((t) => t.id !== SECOND_LATER)).toEqual([]);
    expect(Math.max(0, ...slept.map((t) => t.ms))).toBeLessThanOrEqual(1150);
    const said =
      slept.length === 0
        ? 'no check slept waiting for time to pass'
        : `longest real wait of a check: ${((slept[0]?.ms ?? 0) / 1000).toFixed(1)} s (${SECOND_LATER})`;
    expect(readFileSync(join(dir, 'summary.md'), 'utf8')).toContain(said);
    expect(stdout).toContain(said);
  });

  it('skips only with a reason', () => {
    const skipped = results.tests.filter((t) => t.state === 'skipped');
    expect(skipped.filter((t) => !t.skip_reason).map((t) => t.title)).toEqual([]);
  });

  it('suites/catalog/coverage.json names, for every requirement, the checks of this run that cover it', () => {
    const fresh = buildCoverage(
      loadCatalog().requirements.map((r) => r.id),
      results.tests,
    );
    const stale = Object.keys(fresh.requirements).filter(
      (id) => JSON.stringify(fresh.requirements[id]) !== JSON.stringify(loadCoverage()?.requirements[id]),
    );
    expect(stale, 'stale suites/catalog/coverage.json: run npm run catalog:coverage').toEqual([]);
  });
});
