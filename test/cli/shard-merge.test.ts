/**
 * `cprc run --shard` and `cprc merge` on real runs of the operator suite against the reference
 * stack (10 runs per property, fixed seed): two shards merged give the unsharded run's verdict
 * for every check id, in the same order; merge refuses parts of another run, a missing shard, a
 * shard given twice and overlapping parts. The plan itself (dealing units to shards) is tested on
 * plain data.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceResults } from '../../src/model/results.js';
import { wholeRunCommand } from '../../src/results/merge.js';
import { assignShards, planDigest } from '../../src/runner/plan.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
let dir: string;

function cprc(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function results(folder: string): ConformanceResults {
  return JSON.parse(readFileSync(join(dir, folder, 'results.json'), 'utf8')) as ConformanceResults;
}

const RUN = ['run', '--reference', '--target', 'operator', '--seed', '7', '--runs', '10'];

describe('the plan: units dealt to shards', () => {
  const units = [
    { key: 'a.js::A', weight: 9 },
    { key: 'a.js::B', weight: 2 },
    { key: 'b.js::C', weight: 5 },
    { key: 'b.js::D', weight: 5 },
    { key: 'c.js::', weight: 1 },
  ];

  it('balances by weight, heaviest first, and never depends on the order units are listed in', () => {
    const dealt = assignShards(units, 2);
    const load = [1, 2].map((s) => dealt.filter((u) => u.shard === s).reduce((n, u) => n + u.weight, 0));
    expect(load).toEqual([11, 11]);
    const reversed = assignShards([...units].reverse(), 2);
    for (const u of dealt) expect(reversed.find((r) => r.key === u.key)?.shard).toBe(u.shard);
    expect(planDigest(dealt, 2)).toBe(planDigest(reversed, 2));
  });

  it('gives every unit exactly one shard, and more shards than units leave some empty', () => {
    const dealt = assignShards(units, 8);
    expect(dealt.map((u) => u.shard).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(planDigest(dealt, 8)).not.toBe(planDigest(assignShards(units, 2), 2));
  });
});

describe('the command line of a merged run', () => {
  it("is a part's without --shard, --shard-timings and --reports, in either spelling", () => {
    expect(
      wholeRunCommand([
        'cprc',
        'run',
        '--reference',
        '--shard',
        '2/3',
        '--shard-timings=whole/results.json',
        '--reports',
        'out/s2',
        '--seed',
        '7',
        '--reports=x',
        '--level',
        'spec',
      ]),
    ).toEqual(['cprc', 'run', '--reference', '--seed', '7', '--level', 'spec']);
    expect(wholeRunCommand(['cprc', 'run', '--seed', '7'])).toEqual(['cprc', 'run', '--seed', '7']);
  });
});

describe('cprc run --shard and cprc merge against the reference stack', () => {
  let whole: ConformanceResults;
  let parts: ConformanceResults[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cprc-shard-'));
    const runs = await Promise.all([
      cprc([...RUN, '--reports', 'whole']),
      cprc([...RUN, '--shard', '1/2', '--reports', 's1']),
    ]);
    runs.push(await cprc([...RUN, '--shard', '2/2', '--reports', 's2']));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    whole = results('whole');
    parts = [results('s1'), results('s2')];
  }, 300_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('each shard runs a balanced slice of whole describe blocks and records its place in the plan', () => {
    const [a, b] = parts as [ConformanceResults, ConformanceResults];
    expect(a.shard).toMatchObject({ index: 1, total: 2 });
    expect(b.shard).toMatchObject({ index: 2, total: 2 });
    expect(a.shard?.plan_digest).toBe(b.shard?.plan_digest);
    expect(a.tests.length + b.tests.length).toBe(whole.tests.length);
    expect(Math.abs(a.tests.length - b.tests.length)).toBeLessThanOrEqual(whole.tests.length / 4);
    // a top-level describe block is in one shard only
    const unitsA = new Set(a.shard?.units);
    expect(b.shard?.units.filter((u) => unitsA.has(u))).toEqual([]);
    expect(a.tests.every((t) => typeof t.position === 'number')).toBe(true);
    expect(whole.shard).toBeUndefined();
    expect(a.config_digest).toBe(whole.config_digest);
    // a reader of a part is told it is one
    expect(readFileSync(join(dir, 's1', 'summary.md'), 'utf8')).toContain('Shard 1/2 of a run (');
    expect(readFileSync(join(dir, 's2', 'report.html'), 'utf8')).toContain('Shard 2/2 of a run (');
    // the event stream is not left in the reports folder: only the four reports
    expect(readdirSync(join(dir, 's1')).sort()).toEqual([
      'junit.xml',
      'report.html',
      'results.json',
      'summary.md',
    ]);
  });

  it('merged equals the unsharded run: the same verdict for every check id, in the same order', async () => {
    const r = await cprc(['merge', 's2/results.json', 's1/results.json', '--reports', 'merged']);
    expect(r.code, r.stderr).toBe(0);
    const merged = results('merged');
    expect(merged.tests.map((t) => [t.id, t.state])).toEqual(whole.tests.map((t) => [t.id, t.state]));
    expect(merged.requirements.map((q) => [q.id, q.verdict])).toEqual(
      whole.requirements.map((q) => [q.id, q.verdict]),
    );
    expect(merged.counts).toEqual(whole.counts);
    expect(merged.verdicts).toEqual(whole.verdicts);
    expect(merged.shard).toBeUndefined();
    expect(merged.tests.some((t) => t.position !== undefined)).toBe(false);
    // the whole run's command line: a part's without what names the part
    expect(whole.command).toEqual(['cprc', ...RUN, '--reports', 'whole']);
    expect(merged.command).toEqual(['cprc', ...RUN]);
    expect(readFileSync(join(dir, 'merged', 'summary.md'), 'utf8')).not.toContain('Shard ');
    for (const f of ['junit.xml', 'summary.md', 'report.html'])
      expect(existsSync(join(dir, 'merged', f))).toBe(true);
  });

  it('--sign signs the merged results: the bundle verifies offline', async () => {
    expect((await cprc(['keygen', '--out', 'merge-key'])).code).toBe(0);
    const r = await cprc([
      'merge',
      's1/results.json',
      's2/results.json',
      '--reports',
      'signed',
      '--sign',
      'merge-key.key',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('signed: ');
    const v = await cprc(['verify', 'signed/results.bundle', '--key', 'merge-key.pub']);
    expect(v.code, v.stderr).toBe(0);
  });

  it('refuses a missing shard, a shard given twice, overlapping parts and parts of another run', async () => {
    const missing = await cprc(['merge', 's1/results.json', '--reports', 'x1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/shard 2\/2 missing/);
    const twice = await cprc(['merge', 's1/results.json', 's1/results.json', '--reports', 'x2']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/shard 1\/2 is given twice/);

    const forged = (change: (doc: ConformanceResults) => void): string => {
      const doc = structuredClone(parts[1] as ConformanceResults);
      change(doc);
      const path = join(dir, `forged-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(path, JSON.stringify(doc));
      return path;
    };
    const cases: Array<[string, (doc: ConformanceResults) => void, RegExp]> = [
      ['seed', (d) => Object.assign(d, { seed: 8 }), /differ in seed/],
      ['suite', (d) => Object.assign(d, { suite_version: '9.9.9' }), /differ in suite version/],
      ['level', (d) => Object.assign(d, { level: 'spec' }), /differ in level/],
      [
        'config',
        (d) => Object.assign(d, { config_digest: `sha256:${'0'.repeat(64)}` }),
        /differ in configuration digest/,
      ],
      [
        'plan',
        (d) => Object.assign(d.shard ?? {}, { plan_digest: `sha256:${'1'.repeat(64)}` }),
        /differ in plan digest/,
      ],
      [
        'overlap',
        (d) => d.tests.push(structuredClone((parts[0] as ConformanceResults).tests[0]) as never),
        /is in two parts/,
      ],
      ['not a shard', (d) => delete d.shard, /is not a shard of a run/],
    ];
    for (const [what, change, message] of cases) {
      const r = await cprc(['merge', 's1/results.json', forged(change), '--reports', 'x3']);
      expect(r.code, what).toBe(2);
      expect(r.stderr, what).toMatch(message);
    }
  });

  it('--shard-timings balances the shards by the durations a whole run recorded', async () => {
    const timed = await Promise.all(
      [1, 2].map((i) =>
        cprc([...RUN, '--shard', `${i}/2`, '--shard-timings', 'whole/results.json', '--reports', `t${i}`]),
      ),
    );
    for (const r of timed) expect(r.code, r.stderr).toBe(0);
    const [a, b] = [results('t1'), results('t2')];
    expect(a.shard?.balanced_by).toBe('timings');
    expect((parts[0] as ConformanceResults).shard?.balanced_by).toBe('checks');
    expect(a.shard?.plan_digest).toBe(b.shard?.plan_digest);
    expect(a.shard?.plan_digest).not.toBe((parts[0] as ConformanceResults).shard?.plan_digest);
    expect([...a.tests, ...b.tests].map((t) => t.id).sort()).toEqual(whole.tests.map((t) => t.id).sort());
    // measured by the whole run's durations, the timed plan is as even as the counted one, or
    // within a twentieth of the run: a counted deal can come out even by chance (one CI
    // rehearsal's was 17 ms apart, the timed one 75 ms: weights are rounded up to 10 ms and whole
    // units are dealt), but a deal that ignored or misread the timings would miss that bound
    const recorded = new Map(whole.tests.map((t) => [t.id, t.duration_ms]));
    const spread = (x: ConformanceResults, y: ConformanceResults): number => {
      const sum = (d: ConformanceResults): number =>
        d.tests.reduce((n, t) => n + (recorded.get(t.id) ?? 0), 0);
      return Math.abs(sum(x) - sum(y));
    };
    const total = whole.tests.reduce((n, t) => n + t.duration_ms, 0);
    expect(spread(a, b)).toBeLessThanOrEqual(
      Math.max(spread(parts[0] as ConformanceResults, parts[1] as ConformanceResults), total / 20),
    );
    const merged = await cprc(['merge', 't1/results.json', 't2/results.json', '--reports', 'tmerged']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(results('tmerged').tests.map((t) => [t.id, t.state])).toEqual(
      whole.tests.map((t) => [t.id, t.state]),
    );
    // a timed part and a counted part are not one plan
    const mixed = await cprc(['merge', 't1/results.json', 's2/results.json', '--reports', 'x4']);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/differ in plan digest/);
  }, 300_000);

  it('--shard without --seed is a usage error (the shards would not share a seed)', async () => {
    const r = await cprc(['run', '--reference', '--target', 'operator', '--shard', '1/2', '--reports', 'y']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--shard needs --seed/);
    const bad = await cprc(['run', '--reference', '--shard', '3/2', '--seed', '1', '--reports', 'y']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/INDEX\/TOTAL/);
  });
});
