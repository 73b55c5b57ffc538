import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/paths.js';
import { runSuites } from '../../src/runner/run.js';
import type { TestEvent } from '../../src/runner/types.js';
import { operatorSection, type Started, startOperator, startPayee, startWallet, writeConfig } from './fixtures.js';

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
    const { configPath } = await writeConfig({ payee: { base_url: payee.url, harness_url: `${payee.url}/harness` } });
    const reportsDir = mkdtempSync(join(tmpdir(), 'cprc-reports-'));
    const lines: string[] = [];
    const r = await runSuites({ configPath, reportsDir, suitesRoot: SMOKE, seed: 7, onProgress: (l) => lines.push(l) });
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
    expect(reuse.id).toMatch(/^[0-9a-f]{16}$/);
    expect(reuse.file).toBe('payee/authentication.js');
  });
});
