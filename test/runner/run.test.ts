import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestEvent } from '../../src/model/results.js';
import { packageRoot } from '../../src/paths.js';
import { runSuites } from '../../src/runner/run.js';
import { testScratchDir } from '../_support/scratch.js';
import {
  FAKE_JWK,
  operatorSection,
  type Started,
  startOperator,
  startPayee,
  startWallet,
  writeConfig,
} from './fixtures.js';

const SMOKE = join(packageRoot(), 'dist', 'suites', 'smoke');

function tests(events: readonly { type: string }[]): TestEvent[] {
  return events.filter((e): e is TestEvent => e.type === 'test');
}

function byId(events: readonly { type: string }[], id: string): TestEvent {
  const t = tests(events).find((e) => e.requirements.includes(id));
  if (!t) throw new Error(`no test for ${id}`);
  return t;
}

describe('runSuites over the smoke suites', () => {
  const servers: Started[] = [];
  beforeAll(() => {
    if (!existsSync(join(SMOKE, 'payee', 'authentication.js'))) {
      throw new Error(`the smoke suites are not compiled (${SMOKE}); run "npm run build" first`);
    }
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('a conformant payee passes: every check passed, exit 0, reports written', async () => {
    const payee = await startPayee();
    servers.push(payee);
    const { configPath } = await writeConfig({
      payee: { base_url: payee.url, harness_url: `${payee.url}/harness` },
    });
    const reportsDir = testScratchDir('reports');
    const lines: string[] = [];
    const r = await runSuites({
      configPath,
      reportsDir,
      suitesRoot: SMOKE,
      seed: 7,
      onProgress: (l) => lines.push(l),
    });
    expect(r.exitCode).toBe(0);
    expect(r.incomplete).toBe(false);
    expect(byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR').state).toBe('passed');
    expect(byId(r.events, 'PRF-2-TOKEN-CONSUMED-410').state).toBe('passed');
    const plain = byId(r.events, 'CPR-5-PAYLOAD-TLS-ONLY');
    expect(plain.state).toBe('skipped');
    expect(plain.skip_reason).toMatch(/plain_http_url/);
    expect(r.events[0]).toMatchObject({ type: 'start', seed: 7, targets: ['payee'] });
    expect(r.events.at(-1)).toMatchObject({ type: 'end' });
    expect(lines.some((l) => l.includes('✓ [CPR-5-TOKEN-REUSE-ERROR]'))).toBe(true);
    expect(lines.some((l) => l.includes('- [CPR-5-PAYLOAD-TLS-ONLY]') && l.includes('skipped'))).toBe(true);
    for (const f of ['junit.xml', 'results.json', 'summary.md', 'report.html']) {
      expect(existsSync(join(reportsDir, f))).toBe(true);
    }
    const reuse = byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR');
    expect(reuse.exchanges.map((e) => e.method)).toEqual(['POST', 'GET', 'GET']);
    expect(reuse.exchanges[2]?.status).toBe(410);
    expect(reuse.id).toMatch(/^payee\/[a-z0-9/-]+$/);
    expect(reuse.file).toBe('payee/authentication.js');
  });
});

describe('classification of results', () => {
  const servers: Started[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  async function runPayee(
    faults: Parameters<typeof startPayee>[0],
    extra: Record<string, unknown> = {},
    level?: 'spec' | 'profile',
    more: { baselineFile?: string; failOnSkip?: boolean } = {},
  ) {
    const payee = await startPayee(faults);
    servers.push(payee);
    const { configPath } = await writeConfig({
      payee: { base_url: payee.url, harness_url: `${payee.url}/harness` },
      ...extra,
    });
    return runSuites({
      configPath,
      reportsDir: testScratchDir('reports'),
      suitesRoot: SMOKE,
      seed: 3,
      ...(level ? { level } : {}),
      ...more,
    });
  }

  it('at level spec a failing PROFILE MUST and a failing SHOULD are warnings; the run exits 0 and the PROFILE verdict is FAIL', async () => {
    const r = await runPayee({ reuseAs404: true, tokenTtlSeconds: 3600 }, {}, 'spec');
    expect(byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR').state).toBe('passed');
    const profile = byId(r.events, 'PRF-2-TOKEN-CONSUMED-410');
    expect(profile.state).toBe('warning');
    expect(profile.failure_level).toBe('profile');
    expect(profile.message).toMatch(/expected error code TOKEN_CONSUMED, got TOKEN_UNKNOWN/);
    const should = byId(r.events, 'CPR-5-TOKEN-WINDOW-15-MIN');
    expect(should.state).toBe('warning');
    expect(should.failure_level).toBe('advisory');
    expect(should.message).toMatch(/more than 15 minutes/);
    expect(r.exitCode).toBe(0);
    expect(r.reports.counts.warning).toBe(2);
    expect(r.reports.verdicts.spec.verdict).toBe('pass');
    expect(r.reports.verdicts.spec.summary).toMatch(
      /^PASS \(spec\): \d+ of \d+ applicable MUST requirements exercised; \d+ skipped/,
    );
    expect(r.reports.verdicts.profile.verdict).toBe('fail');
  });

  it('at level profile (the default) a failing PROFILE MUST is failed and the run exits 1; a SHOULD stays a warning', async () => {
    const r = await runPayee({ reuseAs404: true, tokenTtlSeconds: 3600 });
    expect(r.level).toBe('profile');
    expect(byId(r.events, 'PRF-2-TOKEN-CONSUMED-410').state).toBe('failed');
    expect(byId(r.events, 'CPR-5-TOKEN-WINDOW-15-MIN').state).toBe('warning');
    expect(r.exitCode).toBe(1);
    expect(r.reports.verdict).toBe('fail');
    expect(r.reports.verdicts.spec.verdict).toBe('pass');
  });

  it('--baseline: a listed failure is expected (exit 0); a listed check that passes is stale (exit 1); a bad file is a usage error', async () => {
    const dir = testScratchDir('baseline');
    const baseline = join(dir, 'baseline.json');
    writeFileSync(
      baseline,
      JSON.stringify({
        entries: [{ check: 'payee/repeated-use-same-token-returns-error', reason: 'TICKET-1: being fixed' }],
      }),
    );
    const expected = await runPayee({ serveTwice: true }, {}, undefined, { baselineFile: baseline });
    const must = byId(expected.events, 'CPR-5-TOKEN-REUSE-ERROR');
    expect(must.state).toBe('failed');
    expect(expected.reports.counts.expected_failure).toBeGreaterThanOrEqual(1);
    // the same fault also fails the PROFILE 410 check, which the baseline does not list
    expect(expected.exitCode).toBe(1);
    const listed = await runPayee({ serveTwice: true }, {}, 'spec', { baselineFile: baseline });
    expect(listed.reports.verdicts.spec.failed).toBe(0);
    expect(listed.exitCode).toBe(0);
    const stale = await runPayee({}, {}, undefined, { baselineFile: baseline });
    expect(stale.exitCode).toBe(1);
    expect(stale.reports.verdicts.profile.summary).toMatch(/1 baseline entries are stale/);
    writeFileSync(baseline, JSON.stringify({ entries: [{ reason: 'names nothing' }] }));
    await expect(runPayee({}, {}, undefined, { baselineFile: baseline })).rejects.toThrow(
      /--baseline [\s\S]*names neither "check" nor "requirement"/,
    );
  });

  it('--fail-on-skip: a skipped check fails the run', async () => {
    const r = await runPayee({}, {}, undefined, { failOnSkip: true });
    expect(r.reports.counts.skipped).toBeGreaterThan(0);
    expect(r.exitCode).toBe(1);
    expect(r.reports.verdicts.profile.summary).toMatch(/checks were skipped \(--fail-on-skip\)/);
  });

  it('a failing MUST check is failed and makes the run exit 1', async () => {
    const r = await runPayee({ serveTwice: true });
    const must = byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR');
    expect(must.state).toBe('failed');
    expect(must.message).toMatch(/the second retrieval: expected an error, got a success/);
    expect(r.exitCode).toBe(1);
    expect(r.reports.verdict).toBe('fail');
  });

  it('a transport failure (timeout) is an error, not a failure, and makes the run exit 1', async () => {
    // requests 1 and 2 are the preflight (base_url, harness_url); the first check's request hangs
    const r = await runPayee({ hangFrom: 3 }, { timeouts: { request_ms: 300 } });
    const t = byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR');
    expect(t.state).toBe('error');
    expect(t.message).toMatch(/timeout/);
    expect(t.exchanges[0]?.error).toMatch(/timeout/);
    expect(r.exitCode).toBe(1);
  });

  it('--grep runs only the checks naming the ID', async () => {
    const payee = await startPayee();
    servers.push(payee);
    const { configPath } = await writeConfig({
      payee: { base_url: payee.url, harness_url: `${payee.url}/harness` },
    });
    const r = await runSuites({
      configPath,
      reportsDir: testScratchDir('reports'),
      suitesRoot: SMOKE,
      grep: 'PRF-2-TOKEN-CONSUMED-410',
    });
    expect(tests(r.events).map((t) => t.requirements)).toEqual([['PRF-2-TOKEN-CONSUMED-410']]);
  });

  it('runs wallet checks through each channel, labelled by channel; a mock payee serves reference URIs', async () => {
    const wallet = await startWallet();
    servers.push(wallet);
    const script = join(import.meta.dirname, '..', 'drivers', 'fixtures', 'stdio-wallet.mjs');
    const { configPath } = await writeConfig(
      { wallet: { harness_url: `${wallet.url}/harness`, command: [process.execPath, script, 'accept'] } },
      { suiteCa: true },
    );
    const lines: string[] = [];
    const r = await runSuites({
      configPath,
      reportsDir: testScratchDir('reports'),
      suitesRoot: SMOKE,
      onProgress: (l) => lines.push(l),
    });
    const results = tests(r.events).map((t) => [t.channel, t.requirements[0], t.state]);
    expect(results).toEqual([
      ['http', 'CPR-7-EXPIRED-REJECTED', 'passed'],
      ['http', 'CPR-4.3-WALLET-RESOLVES-URI', 'passed'],
      // the stdio fixture in "accept" mode pays an expired request and never fetches a URI
      ['stdio', 'CPR-7-EXPIRED-REJECTED', 'failed'],
      ['stdio', 'CPR-4.3-WALLET-RESOLVES-URI', 'failed'],
    ]);
    const resolved = tests(r.events)[1];
    // the mock payee's exchange completes (and is recorded) inside the derive exchange
    expect(resolved?.exchanges.map((e) => e.url)).toEqual([
      expect.stringMatching(/^mock-payee \/cpr\/[0-9a-f]{32}$/),
      `${wallet.url}/harness/derive`,
    ]);
    expect(tests(r.events)[3]?.message).toMatch(/retrieved the CPR 0 times/);
    expect(tests(r.events)[2]?.exchanges[0]?.kind).toBe('stdio');
    expect(lines.some((l) => l.startsWith('  ✗ [CPR-7-EXPIRED-REJECTED]') && l.includes('(stdio)'))).toBe(
      true,
    );
    expect(r.exitCode).toBe(1);
  });

  it('skips checks needing a mock payee when no suite CA is configured', async () => {
    const wallet = await startWallet();
    servers.push(wallet);
    const { configPath } = await writeConfig({ wallet: { harness_url: `${wallet.url}/harness` } });
    const r = await runSuites({
      configPath,
      reportsDir: testScratchDir('reports'),
      suitesRoot: SMOKE,
    });
    const t = byId(r.events, 'CPR-4.3-WALLET-RESOLVES-URI');
    expect(t.state).toBe('skipped');
    expect(t.skip_reason).toMatch(/suite_ca_cert_file/);
    expect(r.exitCode).toBe(0);
  });

  it('records seed, path and counterexample of a failed property; secrets stay out of every report', async () => {
    const op = await startOperator({ statusAlways200: true });
    servers.push(op);
    const { configPath } = await writeConfig({ operator: operatorSection(op.url) });
    const reportsDir = testScratchDir('reports');
    const r = await runSuites({ configPath, reportsDir, suitesRoot: SMOKE, seed: 1234, runs: 5 });
    expect(byId(r.events, 'CP-4-WELL-KNOWN-POLICY').state).toBe('passed');
    const prop = byId(r.events, 'PRF-4-STATUS-UNKNOWN-404');
    expect(prop.state).toBe('failed');
    expect(prop.failure_level).toBe('profile');
    expect(prop.property).toMatchObject({ seed: 1234, num_runs: 5 });
    expect(prop.property?.path).toMatch(/^\d+(:\d+)*$/);
    expect(prop.property?.counterexample).toMatch(/^\["[0-9a-f-]{36}"\]$/);
    expect(prop.property?.error).toMatch(/returned false|false/i);
    expect(prop.message).toMatch(/seed 1234/);
    // the evidence is the counterexample's own exchange, marked failing
    expect(prop.exchanges).toHaveLength(1);
    expect(prop.exchanges[0]).toMatchObject({ counterexample: true, failing: true });
    expect(prop.exchanges[0]?.url).toContain(JSON.parse(prop.property?.counterexample ?? '[""]')[0]);
    expect(prop.exchanges[0]?.request_headers?.authorization).toBe('[redacted]');
    // a fixed seed against a deterministic target: the same verdict, path and counterexample
    const again = await runSuites({
      configPath,
      reportsDir: testScratchDir('reports'),
      suitesRoot: SMOKE,
      seed: 1234,
      runs: 5,
    });
    const prop2 = byId(again.events, 'PRF-4-STATUS-UNKNOWN-404');
    expect([prop2.state, prop2.property?.path, prop2.property?.counterexample]).toEqual([
      prop.state,
      prop.property?.path,
      prop.property?.counterexample,
    ]);
    for (const f of ['junit.xml', 'results.json', 'summary.md', 'report.html']) {
      const text = readFileSync(join(reportsDir, f), 'utf8');
      for (const secret of [
        'op-credential-secret',
        'idtoken-sufficient-secret',
        'funded-credential-secret',
        FAKE_JWK.d,
      ]) {
        expect(text, `${f} leaks a secret`).not.toContain(secret);
      }
    }
  });
});

describe('custom drivers and run bounds', () => {
  const servers: Started[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });

  it('--driver: a module exporting createDrivers replaces the payee driver; PROFILE status checks skip without a status', async () => {
    const payee = await startPayee(); // only reached by the preflight
    servers.push(payee);
    const { configPath, dir } = await writeConfig({ payee: { base_url: payee.url } });
    const driverFile = join(dir, 'my-driver.mjs');
    writeFileSync(
      driverFile,
      `export function createDrivers(config, { recorder }) {
        const uses = new Map();
        return {
          payee: {
            async retrieve(uri) {
              const n = (uses.get(uri) ?? 0) + 1;
              uses.set(uri, n);
              recorder.record({ kind: 'http', method: 'QUERY', url: 'graphql:' + uri, duration_ms: 0 });
              return n === 1 ? { ok: true, cpr: { cpr_version: 'CPR-1.0' } } : { ok: false, error: { code: 'TOKEN_CONSUMED', message: 'used' } };
            },
            harness: {
              async createRequest() { return { ok: true, value: { uri: 'cpr://t' + Math.random().toString(16).slice(2) + '?endpoint=x', request_id: 'r' } }; },
              async fulfill() { return { ok: true, value: null }; },
            },
          },
        };
      }`,
    );
    const r = await runSuites({
      configPath,
      reportsDir: testScratchDir('reports'),
      suitesRoot: SMOKE,
      driverModule: driverFile,
    });
    expect(byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR').state).toBe('passed');
    expect(byId(r.events, 'CPR-5-TOKEN-REUSE-ERROR').exchanges[0]?.method).toBe('QUERY');
    const profile = byId(r.events, 'PRF-2-TOKEN-CONSUMED-410');
    expect(profile.state).toBe('skipped');
    expect(profile.skip_reason).toMatch(/no HTTP status/);
    expect(payee.requests).toBe(1); // the preflight only
  });

  it('--driver: a module without createDrivers stops the run with a clear error', async () => {
    const payee = await startPayee();
    servers.push(payee);
    const { configPath, dir } = await writeConfig({ payee: { base_url: payee.url } });
    const driverFile = join(dir, 'wrong.mjs');
    writeFileSync(driverFile, 'export const drivers = {};\n');
    await expect(
      runSuites({
        configPath,
        reportsDir: testScratchDir('reports'),
        suitesRoot: SMOKE,
        driverModule: driverFile,
      }),
    ).rejects.toThrow(/does not export a function "createDrivers/);
  });

  it('the wall-clock bound stops a hung run and reports it incomplete', async () => {
    const payee = await startPayee({ hangFrom: 3 }); // the first check hangs
    servers.push(payee);
    const { configPath } = await writeConfig({
      payee: { base_url: payee.url, harness_url: `${payee.url}/harness` },
    });
    const reportsDir = testScratchDir('reports');
    const r = await runSuites({
      configPath,
      reportsDir,
      suitesRoot: SMOKE,
      // room for the child to start and reach the hanging check on a loaded machine (at a load
      // of 10 it once took more than 1.5 s); the hang outlasts any bound
      maxDurationMs: 4000,
      graceMs: 500,
    });
    expect(r.incomplete).toBe(true);
    expect(r.incompleteReason).toMatch(/wall-clock bound of 4000 ms/);
    expect(r.exitCode).toBe(1);
    expect(JSON.parse(readFileSync(join(reportsDir, 'results.json'), 'utf8')).incomplete).toBe(true);
  });
});

describe('work that checks share (sharedWork)', () => {
  it('is built once for the checks declaring it; a check using it undeclared is a suite error naming the declaration', async () => {
    const payee = await startPayee();
    const { configPath } = await writeConfig({ payee: { base_url: payee.url } });
    try {
      const r = await runSuites({
        configPath,
        reportsDir: testScratchDir('reports'),
        suitesRoot: join(SMOKE, 'shared-work'),
      });
      const t = tests(r.events);
      expect(t.map((x) => x.state)).toEqual(['passed', 'passed', 'error']);
      expect(t[2]?.message).toMatch(
        /check "undeclared-user-is-a-suite-error" uses the work "smoke:work" .*does not declare it \(sharedState\("smoke:work"/,
      );
    } finally {
      await payee.close();
    }
  });
});

describe('classification of suite faults', () => {
  for (const level of ['profile', 'spec'] as const) {
    it(`assertion, suite bug, timeout, skip, levels, warn, plain it and a failing hook each get their state (level ${level})`, async () => {
      const payee = await startPayee();
      const { configPath } = await writeConfig({ payee: { base_url: payee.url } });
      try {
        const reportsDir = testScratchDir('reports');
        const r = await runSuites({
          configPath,
          reportsDir,
          suitesRoot: join(SMOKE, 'faults'),
          timeoutMs: 500,
          level,
        });
        const states = tests(r.events).map((t) => [t.requirements.join(' '), t.state, t.failure_level]);
        expect(states).toEqual([
          ['CPR-5-TOKEN-WINDOW-15-MIN', 'warning', 'advisory'],
          ['CPR-5-TOKEN-REUSE-ERROR', 'error', undefined],
          ['CPR-5-TLS-ONLY', 'error', undefined],
          ['CPR-5-TOKEN-EXPIRY', 'skipped', undefined],
          ['CPR-5-TOKEN-SINGLE-USE', 'failed', 'spec'],
          ['PRF-2-TOKEN-FORMAT', level === 'profile' ? 'failed' : 'warning', 'profile'],
          ['CPR-5-TOKEN-SINGLE-USE', 'warning', 'advisory'],
          ['CPR-5-TOKEN-SINGLE-USE', 'passed', undefined],
          ['CPR-5-TOKEN-SINGLE-USE', 'failed', 'spec'],
          ['CPR-5-TOKEN-SINGLE-USE', 'error', undefined],
          ['', 'error', undefined],
        ]);
        const t = tests(r.events);
        expect(t[0]?.message).toMatch(/one is not two/);
        expect(t[1]?.message).toMatch(/^suite error: .*(undefined|field)/);
        expect(t[2]?.message).toMatch(/did not finish within 500 ms \(--timeout\)/);
        expect(t[3]?.skip_reason).toBe('not applicable to this payee');
        // the shrunk counterexample is 10, and the message says which assertion failed on it
        expect(t[8]?.message).toMatch(/^the value 10 is below 10 \[property: counterexample \[10\]/);
        expect(t[8]?.property).toMatchObject({ counterexample: '[10]', error: 'the value 10 is below 10' });
        expect(t[9]?.message).toMatch(/not registered with check\(\).*plain it failed/);
        expect(t[10]?.message).toMatch(/before all.*the before hook broke/);
        expect(r.exitCode).toBe(1);
        expect(r.level).toBe(level);
        const results = JSON.parse(readFileSync(join(reportsDir, 'results.json'), 'utf8'));
        expect(results.level).toBe(level);
        expect(results.verdicts.spec.verdict).toBe('fail');
        expect(results.verdicts.profile.failed).toBe(3);
        expect(results.verdicts.spec.failed).toBe(2);
      } finally {
        await payee.close();
      }
    });
  }
});
