import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { testScratchDir } from '../_support/scratch.js';
import { type Started, startPayee, writeConfig } from './fixtures.js';

const ROOT = packageRoot();
const CPRC = join(ROOT, 'bin', 'cprc.js');
const SMOKE = join(ROOT, 'dist', 'suites', 'smoke');

interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

// The working folder of every `cprc run` of this file: a run without --reports writes its
// reports there, never into the project's reports/.
let cwd: string | undefined;
beforeAll(() => {
  cwd = mkdtempSync(join(tmpdir(), 'cprc-cli-cwd-'));
});
afterAll(() => {
  if (cwd) rmSync(cwd, { recursive: true, force: true });
});

/** Runs `cprc run ...`; `onChild` gets the process (to signal it). */
function cprcRun(args: string[], onChild?: (child: ChildProcess) => void): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CPRC, 'run', '--suites', SMOKE, ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    onChild?.(child);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function configFile(content: string): string {
  const dir = testScratchDir('cfg');
  const path = join(dir, 'run.json');
  writeFileSync(path, content);
  return path;
}

describe('cprc run: configuration and usage errors exit 2 naming the problem', () => {
  beforeAll(() => {
    if (!existsSync(join(ROOT, 'dist', 'src', 'cli', 'main.js')) || !existsSync(SMOKE)) {
      throw new Error('the CLI and smoke suites are not compiled; run "npm run build" first');
    }
  });

  it('without --config', async () => {
    const r = await cprcRun([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/give --config FILE/);
  });

  it('a missing file, a file that is not JSON', async () => {
    const missing = await cprcRun(['--config', '/nonexistent/run.json']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/\/nonexistent\/run\.json: no such config file/);
    const notJson = await cprcRun(['--config', configFile('{ "payee": ')]);
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(/not valid JSON/);
  });

  it('a schema violation names the member and says what to do', async () => {
    const r = await cprcRun([
      '--config',
      configFile(
        JSON.stringify({
          payee: { harness_url: 'https://127.0.0.1:1' },
          timeouts: { request_ms: 'fast' },
          colour: 1,
        }),
      ),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"payee\.base_url" is required; add it/);
    expect(r.stderr).toMatch(/"timeouts\.request_ms" must be of type integer/);
    expect(r.stderr).toMatch(/"colour" is not a known member/);
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });

  it('a relative path resolves against the config folder and a missing file is named', async () => {
    const path = configFile(
      JSON.stringify({ tls: { ca_file: 'certs/ca.pem' }, payee: { base_url: 'https://127.0.0.1:1' } }),
    );
    const r = await cprcRun(['--config', path]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`"tls.ca_file": cannot read ${join(path, '..', 'certs', 'ca.pem')}`);
  });

  it('--target naming a target without a section', async () => {
    const r = await cprcRun([
      '--config',
      configFile(JSON.stringify({ payee: { base_url: 'https://127.0.0.1:1' } })),
      '--target',
      'wallet',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--target wallet: the config has no "wallet" section/);
  });
});

describe('cprc run against live and dead targets', () => {
  const servers: Started[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('an unreachable target exits 2 naming the URL and why, before any test', async () => {
    const dead = createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(dead.address() as AddressInfo).port}`;
    await new Promise<void>((r) => dead.close(() => r()));
    const { configPath, dir } = await writeConfig({ payee: { base_url: url } });
    const reports = join(dir, 'reports');
    const r = await cprcRun(['--config', configPath, '--reports', reports]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`payee.base_url ${url}: connection refused`);
    expect(existsSync(join(reports, '.raw', 'events.ndjson'))).toBe(false);
  });

  it('--list names the checks and requirements a configuration would run, and sends nothing', async () => {
    // a listener that counts connections: --list must open none (no preflight, no check)
    let connections = 0;
    const counter = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((r) => counter.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(counter.address() as AddressInfo).port}`;
    try {
      const { configPath, dir } = await writeConfig({
        payee: { base_url: url, harness_url: `${url}/harness` },
      });
      const reports = join(dir, 'reports');
      const r = await cprcRun(['--config', configPath, '--reports', reports, '--list', '--grep', 'CPR-5-']);
      expect(r.code, r.stderr).toBe(0);
      const lines = r.stdout.split('\n').filter((l) => l.startsWith('payee/'));
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((l) => l.includes('CPR-5-'))).toBe(true);
      expect(r.stdout).toMatch(
        new RegExp(`${lines.length} checks naming \\d+ requirements would run \\(nothing was sent\\)`),
      );
      expect(connections).toBe(0);
      expect(existsSync(reports)).toBe(false);
    } finally {
      await new Promise<void>((r) => counter.close(() => r()));
    }
  });

  it('prints the seed and progress, exits 0 on a conformant payee and 1 on a broken one', async () => {
    const good = await startPayee();
    const bad = await startPayee({ serveTwice: true });
    servers.push(good, bad);
    const cfgGood = await writeConfig({ payee: { base_url: good.url, harness_url: `${good.url}/harness` } });
    const ok = await cprcRun(['--config', cfgGood.configPath, '--reports', join(cfgGood.dir, 'reports')]);
    expect(ok.stdout).toMatch(/seed (\d+) \(reproduce with --seed \1\)/);
    expect(ok.stdout).toContain('✓ [CPR-5-TOKEN-REUSE-ERROR]');
    expect(ok.stdout).toMatch(
      /SPEC conformance: +PASS \(spec\): \d+ of \d+ applicable MUST requirements exercised/,
    );
    expect(ok.stdout).toMatch(/PROFILE conformance: PASS \(profile\)/);
    expect(ok.stdout).toContain('level asked: profile');
    expect(ok.code).toBe(0);
    const badLevel = await cprcRun(['--config', cfgGood.configPath, '--level', 'strict']);
    expect(badLevel.code).toBe(2);
    expect(badLevel.stderr).toMatch(/--level.*spec, profile/);
    const cfgBad = await writeConfig({ payee: { base_url: bad.url, harness_url: `${bad.url}/harness` } });
    const ko = await cprcRun([
      '--config',
      cfgBad.configPath,
      '--reports',
      join(cfgBad.dir, 'reports'),
      '--seed',
      '99',
    ]);
    expect(ko.stdout).toContain('✗ [CPR-5-TOKEN-REUSE-ERROR]');
    expect(ko.stdout).toMatch(/seed 99\b/);
    expect(ko.code).toBe(1);
  });

  it('--grep matching no check exits 2 (a vacuous pass would hide a typo); --bail stops at the first failure', async () => {
    const bad = await startPayee({ serveTwice: true });
    servers.push(bad);
    const { configPath, dir } = await writeConfig({
      payee: { base_url: bad.url, harness_url: `${bad.url}/harness` },
    });
    const none = await cprcRun([
      '--config',
      configPath,
      '--reports',
      join(dir, 'r1'),
      '--grep',
      'NO-SUCH-ID',
    ]);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no check ran .*--grep "NO-SUCH-ID"/);
    const bail = await cprcRun(['--config', configPath, '--reports', join(dir, 'r2'), '--bail']);
    expect(bail.code).toBe(1);
    const bailed = JSON.parse(readFileSync(join(dir, 'r2', 'results.json'), 'utf8'));
    expect(bailed.tests).toHaveLength(1);
    // the event stream is the runner's working state: not left in the reports folder
    expect(readdirSync(join(dir, 'r2')).sort()).toEqual([
      'junit.xml',
      'report.html',
      'results.json',
      'summary.md',
    ]);
    expect(bail.stdout).toContain('✗ [CPR-5-TOKEN-REUSE-ERROR]');
  });

  it('a wallet command that does not exist exits 2 naming it', async () => {
    const { configPath, dir } = await writeConfig({ wallet: { command: ['./no-such-wallet', '--stdio'] } });
    const r = await cprcRun(['--config', configPath, '--reports', join(dir, 'reports')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/"wallet\.command": program ".*no-such-wallet" not found/);
  });

  it('SIGINT mid-run stops the run and still writes the reports, marked incomplete', async () => {
    let cli: ChildProcess | undefined;
    // requests 1-2: preflight; 3-5: the first check (POST, GET, GET); 6: the second check hangs
    const payee = await startPayee({ hangFrom: 6, onHang: () => cli?.kill('SIGINT') });
    servers.push(payee);
    const { configPath, dir } = await writeConfig({
      payee: { base_url: payee.url, harness_url: `${payee.url}/harness` },
    });
    const reports = join(dir, 'reports');
    const r = await cprcRun(['--config', configPath, '--reports', reports], (child) => {
      cli = child;
    });
    expect(r.code).toBe(130);
    expect(r.stdout).toContain('✓ [CPR-5-TOKEN-REUSE-ERROR]');
    expect(r.stdout).toMatch(/INCOMPLETE: interrupted \(SIGINT\)/);
    const results = JSON.parse(readFileSync(join(reports, 'results.json'), 'utf8'));
    // written from the events recorded before the interruption (no end event: not finished)
    expect(results.tests.length).toBeGreaterThan(0);
    expect(results.finished_at).toBeUndefined();
    expect(readdirSync(reports).sort()).toEqual(['junit.xml', 'report.html', 'results.json', 'summary.md']);
    expect(results.incomplete).toBe(true);
    expect(results.incomplete_reason).toMatch(/SIGINT/);
    expect(results.verdict).toBe('fail');
    for (const f of ['junit.xml', 'summary.md', 'report.html'])
      expect(existsSync(join(reports, f))).toBe(true);
  });
});
