/**
 * A target that is down before the run and a config whose key pair does not match: `cprc run`
 * exits 2 either way, with minimal valid reports for the first (a CI page shows the cause) and a
 * message naming the principal, never the key, for the second.
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCertificateAuthority, issueServerCertificate } from '../../src/loopback/tls.js';
import { packageRoot } from '../../src/paths.js';
import { loadRunConfig } from '../../src/runner/config.js';
import { FAKE_JWK, operatorSection, startServer, writeConfig } from '../runner/fixtures.js';
import { reportProblems } from './reports.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cprc(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  // asynchronous: servers of this process must keep answering while the CLI runs
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(packageRoot(), 'bin', 'cprc.js'), ...args], {
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
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

async function deadUrl(): Promise<string> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const url = `https://127.0.0.1:${(s.address() as AddressInfo).port}`;
  await new Promise<void>((r) => s.close(() => r()));
  return url;
}

describe('a run that cannot start', () => {
  it('preflight failure: exit 2 naming every unreachable URL, and minimal valid reports (one errored case per URL)', async () => {
    const payee = await deadUrl();
    const operator = await deadUrl();
    const { dir, configPath } = await writeConfig({
      payee: { base_url: payee, harness_url: `${payee}/harness` },
      operator: operatorSection(operator),
      timeouts: { request_ms: 500 },
    });
    dirs.push(dir);
    const reports = join(dir, 'reports');
    const r = await cprc(['run', '--config', configPath, '--reports', reports]);
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/payee\.base_url .*connection refused/);
    expect(r.stderr).toMatch(/operator\.base_url .*connection refused/);
    expect(r.stderr).toContain(reports);
    const { problems, tests, results } = await reportProblems(reports, [FAKE_JWK.d, 'op-credential-secret']);
    expect(problems).toEqual([]);
    expect(tests.map((t) => [t.id, t.state])).toEqual([
      ['operator/preflight/operator-base-url', 'error'],
      ['payee/preflight/payee-base-url', 'error'],
      ['payee/preflight/payee-harness-url', 'error'],
    ]);
    for (const t of tests)
      expect(t.message).toMatch(
        /^preflight failed, no check was run: \w+\.\w+ https:\/\/127\.0\.0\.1:\d+\S* connection refused/,
      );
    expect(results).toMatchObject({ incomplete: true, verdict: 'fail' });
    const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
    expect(junit.match(/<testcase /g)).toHaveLength(3);
    expect(readFileSync(join(reports, 'summary.md'), 'utf8')).toMatch(/FAIL[\s\S]*connection refused/);
  }, 60_000);

  it('a wrong certificate is a preflight failure naming the TLS error, with reports', async () => {
    const other = await createCertificateAuthority({ commonName: 'not the configured CA' });
    const cert = await issueServerCertificate(other, { hosts: ['127.0.0.1'] });
    const server = await startServer(() => undefined);
    // a server presenting a certificate of another CA
    const { createServer: createHttps } = await import('node:https');
    const wrong = createHttps({ cert: cert.certPem, key: cert.keyPem }, (_q, s) => s.end('{}'));
    await new Promise<void>((r) => wrong.listen(0, '127.0.0.1', r));
    const url = `https://127.0.0.1:${(wrong.address() as AddressInfo).port}`;
    try {
      const { dir, configPath } = await writeConfig({
        payee: { base_url: url },
        timeouts: { request_ms: 2000 },
      });
      dirs.push(dir);
      const reports = join(dir, 'reports');
      const r = await cprc(['run', '--config', configPath, '--reports', reports]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/payee\.base_url .*TLS error/);
      const { problems, tests } = await reportProblems(reports, []);
      expect(problems).toEqual([]);
      expect(tests).toHaveLength(1);
      expect(tests[0]?.message).toMatch(/TLS error.*tls\.ca_file/);
    } finally {
      wrong.close();
      await server.close();
    }
  }, 60_000);

  it('a principal whose private key does not match its public key is refused at load (exit 2), naming the principal, never the key', async () => {
    const other = { ...FAKE_JWK, d: 'AnotherPrivateKeyOfSomeoneElse'.padEnd(43, 'Q') };
    const section = operatorSection('https://127.0.0.1:1') as {
      principals: { low_balance: Record<string, unknown> };
    };
    section.principals.low_balance.private_key_jwk = other;
    const { dir, configPath } = await writeConfig({ operator: section });
    dirs.push(dir);
    expect(() => loadRunConfig(configPath)).toThrow(
      /"operator\.principals\.low_balance\.private_key_jwk": the private key "d" does not belong to the public key "x" of principal "low_balance"/,
    );
    const r = await cprc(['run', '--config', configPath, '--reports', join(dir, 'reports')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/principal "low_balance"/);
    expect(r.stderr + r.stdout).not.toContain(other.d);
    expect(r.stderr + r.stdout).not.toContain(FAKE_JWK.x);
    // the matching pair of the fixtures loads
    const good = await writeConfig({ operator: operatorSection('https://127.0.0.1:1') });
    dirs.push(good.dir);
    expect(() => loadRunConfig(good.configPath)).not.toThrow();
  }, 60_000);
});
