import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeInlineUri, encodeReferenceUri, renderQrPng } from '../../src/codec/index.js';
import { createLoopbackPki } from '../../src/reference/tls.js';
import { validateCpr } from '../../src/validator/index.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
const FIXTURES = join(ROOT, 'test', 'validator', 'fixtures');
const NOW = '2026-06-01T12:00:00Z';
const fixture = (name: string): string => join(FIXTURES, `${name}.json`);
const load = (name: string): Record<string, unknown> => JSON.parse(readFileSync(fixture(name), 'utf8'));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Spawns the built CLI, optionally feeding stdin. */
function cprc(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

let dir: string;

beforeAll(() => {
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe' });
  } catch {
    // another area's type errors make tsc exit non-zero although it emitted; the checks below decide
  }
  expect(existsSync(join(ROOT, 'dist', 'src', 'cli', 'validate.js'))).toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'cprc-validate-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('cprc validate <file>', () => {
  it('exits 0 and prints a one-line verdict for a valid CPR', async () => {
    const r = await cprc(['validate', fixture('sepa-ct-ok'), '--mode', 'payee', '--now', NOW]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toBe('valid (payee reading): 0 warnings');
  });

  it('exits 1 and lists each finding with requirement, level, section, path, severity and message', async () => {
    const r = await cprc(['validate', fixture('iban-checksum-fail'), '--now', NOW]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('error   CPR-2.6-IBAN-VALID [SPEC, CPR-1.0 2.6] at /iban');
    expect(r.stdout).toContain('iban fails the ISO 13616 mod-97 checksum');
    expect(r.stdout.trim().split('\n').at(-1)).toBe('invalid (wallet reading): 2 errors, 0 warnings');
  });

  it('--json prints exactly {valid, findings} as validateCpr returns them', async () => {
    const r = await cprc([
      'validate',
      fixture('timestamps-offset-fail'),
      '--mode',
      'payee',
      '--now',
      NOW,
      '--json',
    ]);
    expect(r.code).toBe(1);
    const expected = validateCpr(load('timestamps-offset-fail'), { mode: 'payee', now: new Date(NOW) });
    expect(JSON.parse(r.stdout)).toEqual(expected);
  });

  it('--mode wallet accepts an offset timestamp with a PRF-1-TIMESTAMP-Z warning', async () => {
    const r = await cprc(['validate', fixture('timestamps-offset-fail'), '--mode', 'wallet', '--now', NOW]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning PRF-1-TIMESTAMP-Z [PROFILE, profile 1] at /created_at');
  });

  it('judges expiry at --now (an expired request exits 1 with CPR-7-EXPIRED-REJECTED)', async () => {
    const r = await cprc(['validate', fixture('sepa-ct-ok'), '--now', '2026-06-03T00:00:00Z', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { requirement: string }) => f.requirement)).toEqual([
      'CPR-7-EXPIRED-REJECTED',
    ]);
  });

  it('reads the document from stdin with -', async () => {
    const r = await cprc(
      ['validate', '-', '--now', NOW, '--json'],
      readFileSync(fixture('no-payer-data-payer-fail'), 'utf8'),
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings[0].requirement).toBe('CPR-INV-1-NO-PAYER-DATA');
  });

  it('reports malformed JSON as PRF-1-JSON-UTF8 (exit 1)', async () => {
    const r = await cprc(['validate', '-', '--json'], '{"cpr_version": ');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings[0]).toMatchObject({ requirement: 'PRF-1-JSON-UTF8', path: '' });
  });

  it('exits 2 with what to do when the file is missing', async () => {
    const r = await cprc(['validate', join(dir, 'missing.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*missing\.json: no such file; give a json file/);
    expect(r.stdout).toBe('');
  });

  it('exits 2 on a bad --now or --mode', async () => {
    const a = await cprc(['validate', fixture('sepa-ct-ok'), '--now', 'tomorrow']);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('--now "tomorrow" is not an RFC 3339 date-time');
    const b = await cprc(['validate', fixture('sepa-ct-ok'), '--mode', 'merchant']);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('Allowed choices are payee, wallet');
  });
});

describe('cprc validate cpr://... and PNG', () => {
  it('decodes and validates an inline URI', async () => {
    const r = await cprc(['validate', encodeInlineUri(load('pix-ok')), '--mode', 'payee', '--now', NOW]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('uri (inline uri)');
  });

  it('reads a QR code from a PNG and validates the CPR it carries', async () => {
    const qr = await renderQrPng(encodeInlineUri(load('rail-address-disagrees-fail')));
    if (!qr.ok) throw new Error('render failed');
    const file = join(dir, 'cpr.png');
    writeFileSync(file, qr.png);
    const r = await cprc(['validate', file, '--now', NOW, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).findings.map((f: { requirement: string }) => f.requirement)).toContain(
      'PRF-2-RAIL-ADDRESS-AGREES',
    );
  });

  it('exits 2 with what to do for a PNG without a QR code', async () => {
    const png = new PNG({ width: 64, height: 64 });
    png.data.fill(255);
    const file = join(dir, 'blank.png');
    writeFileSync(file, PNG.sync.write(png));
    const r = await cprc(['validate', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cannot read a qr code from');
    expect(r.stderr).toContain('give a sharp png holding one cpr qr code');
  });

  describe('reference URIs over HTTPS', () => {
    let server: Server;
    let base: string;
    let caFile: string;
    const served = new Set<string>();
    const token = 'a'.repeat(32);

    beforeAll(async () => {
      const pki = await createLoopbackPki();
      caFile = join(dir, 'ca.pem');
      writeFileSync(caFile, pki.ca.certPem);
      server = createServer({ cert: pki.server.certPem, key: pki.server.keyPem }, (req, res) => {
        const t = req.url?.split('/').at(-1) ?? '';
        if (req.url?.startsWith('/slow/')) return; // never answers
        if (req.url?.startsWith('/huge/')) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(`{"pad":"${'x'.repeat(2 * 1024 * 1024)}"}`);
          return;
        }
        if (served.has(t)) {
          res.writeHead(410, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { code: 'TOKEN_CONSUMED', message: 'used' } }));
          return;
        }
        served.add(t);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(readFileSync(fixture('onchain-ok')));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });

    afterAll(async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('retrieves the CPR once with --ca and validates it; a second use exits 2 naming TOKEN_CONSUMED', async () => {
      const uri = encodeReferenceUri(token, base);
      const first = await cprc(['validate', uri, '--ca', caFile, '--mode', 'payee', '--now', NOW]);
      expect(first.stderr).toBe('');
      expect(first.code).toBe(0);
      expect(first.stdout).toContain(`retrieved from ${base}/cpr/${token}`);
      const second = await cprc(['validate', uri, '--ca', caFile]);
      expect(second.code).toBe(2);
      expect(second.stderr).toContain('answered 410 TOKEN_CONSUMED');
    });

    it('without the CA the retrieval fails with a hint to pass --ca (exit 2)', async () => {
      const r = await cprc(['validate', encodeReferenceUri('b'.repeat(32), base)]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--ca FILE');
    });

    it('refuses a response above the size cap (exit 2)', async () => {
      const r = await cprc(['validate', encodeReferenceUri('c'.repeat(32), `${base}/huge`), '--ca', caFile]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is larger than 1048576 bytes');
    });

    it('gives up after --timeout when the endpoint never answers (exit 2)', async () => {
      const r = await cprc([
        'validate',
        encodeReferenceUri('d'.repeat(32), `${base}/slow`),
        '--ca',
        caFile,
        '--timeout',
        '300',
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('within 300 ms');
    });
  });
});

describe('cprc validate --ndjson', () => {
  it('prints only invalid lines and a summary, and exits 1 when any line is invalid', async () => {
    const ok = JSON.stringify(load('sepa-ct-ok'));
    const ach = JSON.stringify(load('ach-ok'));
    const lines = [ok, JSON.stringify(load('bic-malformed-fail')), '', '{not json', ach, ok].join('\n');
    const file = join(dir, 'mixed.ndjson');
    writeFileSync(file, `${lines}\n`);
    const r = await cprc(['validate', '--ndjson', file, '--now', NOW]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/^line 1:/m);
    expect(r.stdout).toMatch(/^line 2: invalid/m);
    expect(r.stdout).toContain('CPR-2.6-BIC-VALID');
    expect(r.stdout).toMatch(/^line 4: invalid/m);
    expect(r.stdout).toContain('PRF-1-JSON-UTF8');
    expect(r.stdout).not.toMatch(/^line 5:/m);
    expect(r.stdout).toMatch(/^line 6: invalid/m); // the same request_id as line 1
    expect(r.stdout).toContain('CPR-2.1-REQUEST-ID-UNIQUE');
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      'invalid: 5 documents, 2 valid, 3 invalid (wallet reading)',
    );
  });

  it('--json with --ndjson prints one JSON object per invalid line and a summary object; exit 0 when all valid', async () => {
    const r = await cprc(
      ['validate', '--ndjson', '-', '--json', '--now', NOW],
      `${JSON.stringify(load('pix-ok'))}\n${JSON.stringify(load('ach-ok'))}\n`,
    );
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([{ summary: { documents: 2, valid: 2, invalid: 0 } }]);
  });

  it('exits 2 when the ndjson file is missing', async () => {
    const r = await cprc(['validate', '--ndjson', join(dir, 'none.ndjson')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no such file');
  });
});
