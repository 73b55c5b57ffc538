/**
 * The mock payee's certificates in a `cprc run --jobs` child (`sharedDir` in the run context):
 * the run's processes share one set, issued by the first process to need one, read by the others.
 */
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { afterAll, describe, expect, it } from 'vitest';
import { Recorder } from '../../src/drivers/recorder.js';
import {
  createCertificateAuthority,
  issueServerCertificate,
  LOOPBACK_HOSTS,
} from '../../src/loopback/tls.js';
import { type RunContext, setRunContext } from '../../src/runner/context.js';
import { startMockPayee } from '../../suites/_lib/mock-payee.js';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A suite CA in a folder of its own (the mock caches certificates per CA file) and a shared folder. */
async function setUp(): Promise<{ ca: { certPem: string; keyPem: string }; shared: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'cprc-mock-shared-'));
  dirs.push(dir);
  const ca = await createCertificateAuthority({ commonName: 'mock payee shared test CA' });
  writeFileSync(join(dir, 'ca.pem'), ca.certPem);
  writeFileSync(join(dir, 'ca.key'), ca.keyPem);
  const shared = join(dir, 'run');
  mkdirSync(shared);
  setRunContext({
    config: { tls: { suite_ca_cert_file: join(dir, 'ca.pem'), suite_ca_key_file: join(dir, 'ca.key') } },
    recorder: new Recorder(),
    sharedDir: shared,
  } as unknown as RunContext);
  return { ca, shared };
}

/** The fingerprint of the certificate the server at `origin` presents. */
function presented(origin: string): Promise<string> {
  const u = new URL(origin);
  return new Promise((resolve, reject) => {
    const s = connect({ host: u.hostname, port: Number(u.port), rejectUnauthorized: false }, () => {
      resolve(s.getPeerX509Certificate()?.fingerprint256 ?? '');
      s.end();
    });
    s.on('error', reject);
  });
}

const fingerprint = (pem: string): string => new X509Certificate(pem).fingerprint256;

describe('mock payee: certificates shared by the processes of a --jobs run', () => {
  it('the first process to need one issues every kind into the shared folder, the one it needs first', async () => {
    const { shared } = await setUp();
    const mock = await startMockPayee();
    try {
      expect(mock).toBeDefined();
      const valid = JSON.parse(readFileSync(join(shared, 'mock-payee-valid.json'), 'utf8')) as {
        certPem: string;
      };
      expect(await presented(mock?.baseUrl as string)).toBe(fingerprint(valid.certPem));
      const kinds = ['untrusted-ca', 'other-host', 'localhost-only', 'ip-only', 'expired', 'not-yet-valid'];
      for (let i = 0; i < 200 && !kinds.every((k) => existsSync(join(shared, `mock-payee-${k}.json`))); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      for (const k of kinds) expect(existsSync(join(shared, `mock-payee-${k}.json`)), k).toBe(true);
    } finally {
      await mock?.close();
    }
  }, 30_000);

  it('another process reads what the issuer wrote, waiting for it while the issuer holds the lock', async () => {
    const { ca, shared } = await setUp();
    writeFileSync(join(shared, 'mock-payee-certificates.lock'), '1');
    const theirs = await issueServerCertificate(ca, { hosts: [...LOOPBACK_HOSTS] });
    // the issuer writes it a little later
    setTimeout(() => writeFileSync(join(shared, 'mock-payee-valid.json'), JSON.stringify(theirs)), 200);
    const mock = await startMockPayee();
    try {
      expect(await presented(mock?.baseUrl as string)).toBe(fingerprint(theirs.certPem));
    } finally {
      await mock?.close();
    }
  }, 30_000);

  it('issues its own at once when the issuer gave up (its lock gone, no file), not after the whole wait', async () => {
    const { shared } = await setUp();
    writeFileSync(join(shared, 'mock-payee-certificates.lock'), '1');
    setTimeout(() => rmSync(join(shared, 'mock-payee-certificates.lock')), 200);
    const started = Date.now();
    const mock = await startMockPayee();
    try {
      expect(mock).toBeDefined();
      expect(Date.now() - started).toBeLessThan(15_000); // the wait for the issuer is 30 s
      expect(existsSync(join(shared, 'mock-payee-valid.json'))).toBe(false); // its own, not shared
    } finally {
      await mock?.close();
    }
  }, 40_000);
});
