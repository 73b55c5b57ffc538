import { execFileSync, spawn } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeInlineUri, encodeReferenceUri, renderQrPng } from '../../src/codec/index.js';
import { createLoopbackPki } from '../../src/loopback/tls.js';
import { validateCprText } from '../../src/validator/index.js';

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

/** Spawns the built CLI, optionally feeding stdin, with `env` added to the environment. */
function cprc(args: string[], stdin?: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
    });
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
  // `npm test` builds first; rebuilding here would remove dist/ under the other test files' feet
  expect(existsSync(join(ROOT, 'dist', 'src', 'cli', 'validate.js')), 'run "npm run build" first').toBe(true);
  dir = mkdtempSync(join(tmpdir(), 'cprc-validate-'));
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
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

  it('--json prints an array of {input, valid, findings} as validateCprText returns them', async () => {
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
    const expected = validateCprText(readFileSync(fixture('timestamps-offset-fail'), 'utf8'), {
      mode: 'payee',
      now: new Date(NOW),
    });
    expect(JSON.parse(r.stdout)).toEqual([{ input: fixture('timestamps-offset-fail'), ...expected }]);
  });

  it('--mode wallet accepts an offset timestamp with a PRF-1-TIMESTAMP-Z warning', async () => {
    const r = await cprc(['validate', fixture('timestamps-offset-fail'), '--mode', 'wallet', '--now', NOW]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('warning PRF-1-TIMESTAMP-Z [PROFILE, profile 1] at /created_at');
  });

  it('judges expiry at --now (an expired request exits 1 with CPR-7-EXPIRED-REJECTED)', async () => {
    const r = await cprc(['validate', fixture('sepa-ct-ok'), '--now', '2026-06-03T00:00:00Z', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)[0].findings.map((f: { requirement: string }) => f.requirement)).toEqual([
      'CPR-7-EXPIRED-REJECTED',
    ]);
  });

  it('reads the document from stdin with -', async () => {
    const r = await cprc(
      ['validate', '-', '--now', NOW, '--json'],
      readFileSync(fixture('no-payer-data-payer-fail'), 'utf8'),
    );
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)[0].findings[0].requirement).toBe('CPR-INV-1-NO-PAYER-DATA');
  });

  it('reports malformed JSON as PRF-1-JSON-UTF8 (exit 1)', async () => {
    const r = await cprc(['validate', '-', '--json'], '{"cpr_version": ');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)[0].findings[0]).toMatchObject({ requirement: 'PRF-1-JSON-UTF8', path: '' });
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
    expect(JSON.parse(r.stdout)[0].findings.map((f: { requirement: string }) => f.requirement)).toContain(
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
        if (req.url?.startsWith('/redirect/')) {
          res.writeHead(302, { location: `http://127.0.0.1:1/cpr/${t}` });
          res.end();
          return;
        }
        if (req.url?.startsWith('/drip/')) {
          // headers at once, then one byte every 100 ms, forever
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{');
          const timer = setInterval(() => res.write(' '), 100);
          res.on('close', () => clearInterval(timer));
          return;
        }
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
      expect(r.stderr).toContain('is larger than the max-bytes limit of 1048576 bytes');
      expect(r.stderr).toContain('--max-bytes');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
    });

    it('refuses a redirect (to plain http) with "redirect refused" (exit 2)', async () => {
      const r = await cprc([
        'validate',
        encodeReferenceUri('e'.repeat(32), `${base}/redirect`),
        '--ca',
        caFile,
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^cprc: redirect refused: .* answered 302 to http:\/\/127\.0\.0\.1:1\//);
      expect(r.stderr).not.toContain('works once');
    });

    it('ends a dripping endpoint at --timeout with one line naming the limit (exit 2)', async () => {
      const t0 = Date.now();
      const r = await cprc([
        'validate',
        encodeReferenceUri('f'.repeat(32), `${base}/drip`),
        '--ca',
        caFile,
        '--timeout',
        '600',
      ]);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('did not send its whole answer within 600 ms (the --timeout limit)');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toContain('internal error');
      expect(Date.now() - t0).toBeLessThan(8000);
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

describe('cprc validate with many inputs', () => {
  const write = (path: string, doc: unknown): void => {
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, `${JSON.stringify(doc)}\n`);
  };
  const withId = (name: string, id: string): Record<string, unknown> => ({ ...load(name), request_id: id });

  it('validates files, a folder (recursive *.json) and a glob in one process; prints invalid ones and a summary; exit 1', async () => {
    const root = join(dir, 'many');
    write(join(root, 'a', 'one.json'), withId('sepa-ct-ok', '00000000-0000-4000-8000-000000000001'));
    write(
      join(root, 'a', 'deeper', 'two.json'),
      withId('bic-malformed-fail', '00000000-0000-4000-8000-000000000002'),
    );
    write(join(root, 'a', 'notes.txt'), { ignored: true });
    write(join(root, 'b', 'three.json'), withId('pix-ok', '00000000-0000-4000-8000-000000000003'));
    write(join(root, 'c.json'), withId('ach-ok', '00000000-0000-4000-8000-000000000004'));
    const r = await cprc([
      'validate',
      join(root, 'a'),
      join(root, 'b', '*.json'),
      join(root, 'c.json'),
      '--now',
      NOW,
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${join(root, 'a', 'deeper', 'two.json')}\n`);
    expect(r.stdout).toContain('CPR-2.6-BIC-VALID');
    expect(r.stdout).not.toContain('one.json');
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      'invalid: 4 documents, 3 valid, 1 invalid, 0 warnings (wallet reading)',
    );
  });

  it('--json prints one array element per document, --ndjson one line each; all valid exits 0', async () => {
    const root = join(dir, 'json-out');
    write(join(root, 'x.json'), withId('sepa-ct-ok', '00000000-0000-4000-8000-000000000011'));
    write(join(root, 'y.json'), withId('upi-ok', '00000000-0000-4000-8000-000000000012'));
    const a = await cprc(['validate', root, '--now', NOW, '--json']);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.stdout)).toEqual([
      { input: join(root, 'x.json'), valid: true, findings: [] },
      { input: join(root, 'y.json'), valid: true, findings: [] },
    ]);
    const b = await cprc(['validate', root, '--now', NOW, '--ndjson']);
    expect(b.code).toBe(0);
    expect(
      b.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).input),
    ).toEqual([join(root, 'x.json'), join(root, 'y.json')]);
  });

  it('applies request_id uniqueness across the whole set of inputs', async () => {
    const root = join(dir, 'dupes');
    write(join(root, '1.json'), withId('sepa-ct-ok', '00000000-0000-4000-8000-000000000021'));
    write(join(root, '2.json'), withId('pix-ok', '00000000-0000-4000-8000-000000000021'));
    const r = await cprc(['validate', join(root, '1.json'), join(root, '2.json'), '--now', NOW, '--json']);
    expect(r.code).toBe(1);
    const [first, second] = JSON.parse(r.stdout);
    expect(first.valid).toBe(true);
    expect(second.findings.map((f: { requirement: string }) => f.requirement)).toEqual([
      'CPR-2.1-REQUEST-ID-UNIQUE',
    ]);
  });

  it('an unreadable input among others is reported on stderr, the others are validated, exit 2', async () => {
    const root = join(dir, 'partial');
    write(join(root, 'ok.json'), withId('sepa-ct-ok', '00000000-0000-4000-8000-000000000031'));
    const r = await cprc([
      'validate',
      join(root, 'missing.json'),
      join(root, 'ok.json'),
      '--now',
      NOW,
      '--ndjson',
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot read .*missing\.json: no such file/);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ valid: false, error: expect.stringContaining('no such file') });
    expect(lines[1]).toEqual({ input: join(root, 'ok.json'), valid: true, findings: [] });
  });

  it('an empty folder or a glob matching nothing exits 2', async () => {
    mkdirSync(join(dir, 'empty'), { recursive: true });
    const a = await cprc(['validate', join(dir, 'empty')]);
    expect(a.code).toBe(2);
    expect(a.stderr).toContain('no document found');
    const b = await cprc(['validate', join(dir, 'empty', '*.json')]);
    expect(b.code).toBe(2);
    expect(b.stderr).toContain('no file matches this glob');
  });

  it('payee reading reports a byte order mark and duplicate member names in files (text rules)', async () => {
    const r = await cprc([
      'validate',
      fixture('json-text-bom-fail'),
      fixture('json-text-duplicate-member-fail'),
      '--mode',
      'payee',
      '--now',
      NOW,
      '--ndjson',
    ]);
    expect(r.code).toBe(1);
    const ids = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).findings.map((f: { requirement: string }) => f.requirement));
    expect(ids[0]).toContain('PRF-1-JSON-NO-BOM');
    expect(ids[1]).toContain('PRF-1-JSON-UNIQUE-MEMBER-NAMES');
  });
});

describe('cprc validate with worker threads (CPRC_VALIDATE_THREADS)', () => {
  /** A folder of every kind of file a folder or glob can hold, 150 documents in all (several batches). */
  async function mixedFolder(): Promise<string> {
    const root = join(dir, 'threads');
    const names = fixtureNames();
    const put = (rel: string, data: string | Buffer): void => {
      mkdirSync(join(root, rel, '..'), { recursive: true });
      writeFileSync(join(root, rel), data);
    };
    for (let i = 0; i < 140; i++) {
      const doc = load(names[i % names.length] as string);
      // the same request_id far apart (another batch), and next to each other
      const id = i === 3 || i === 120 ? 'shared' : i === 50 || i === 51 ? 'pair' : `${i}`;
      doc.request_id = `00000000-0000-4000-8000-${id.padStart(12, '0').replace(/[a-z]/g, 'a')}`;
      put(`d/${String(i).padStart(3, '0')}.json`, JSON.stringify(doc, null, i % 2 === 0 ? 2 : undefined));
    }
    put('d/010-not-json.json', '{"cpr_version": ');
    put('d/011-nul.json', Buffer.alloc(16));
    put('d/012-latin1.json', Buffer.from([0x7b, 0x22, 0xe9, 0x22, 0x3a, 0x31, 0x7d]));
    put('d/013-bom-dup.json', `\uFEFF{"memo":"a","memo":"b"}`);
    put('d/014-array.json', '[1,2]');
    put('d/015-big.json', JSON.stringify({ memo: 'x'.repeat(5000) }));
    put('d/016-uri.json', `${encodeInlineUri(load('sepa-ct-ok'))}\n`);
    const qr = await renderQrPng(encodeInlineUri(load('rail-address-disagrees-fail')));
    if (!qr.ok) throw new Error('render failed');
    put('d/017-qr.json', qr.png);
    put('d/sub/018.json', JSON.stringify(load('pix-ok')));
    put('d/019-lines.txt', '{"a":1}\n{"b":2}\n');
    execFileSync('ln', ['-s', join(root, 'nowhere.json'), join(root, 'd', '020-dangling.json')]);
    return root;
  }

  /** Names of the fixtures that parse as a JSON object, sorted. */
  function fixtureNames(): string[] {
    return execFileSync('ls', [FIXTURES], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => f.endsWith('.json'))
      .map((f) => f.slice(0, -'.json'.length))
      .filter((name) => {
        try {
          const doc = load(name);
          return typeof doc === 'object' && doc !== null && !Array.isArray(doc);
        } catch {
          return false; // a fixture of the text rules (a byte order mark)
        }
      });
  }

  it('prints the same bytes, exit code and errors with 0, 1 and 3 threads, in every output form and reading', async () => {
    const root = await mixedFolder();
    const inputs = [join(root, 'd'), join(root, 'd', '*'), join(root, 'nothing-*.json')];
    for (const extra of [[], ['--json'], ['--ndjson'], ['--mode', 'payee', '--ndjson']]) {
      const args = ['validate', ...inputs, '--now', NOW, '--max-bytes', '4096', ...extra];
      const serial = await cprc(args, undefined, { CPRC_VALIDATE_THREADS: '0' });
      expect(serial.code).toBe(2); // the dangling link, the big file and the glob matching nothing
      expect(serial.stderr).toContain('020-dangling.json: no such file');
      expect(serial.stderr).toContain('max-bytes limit of 4096 bytes');
      expect(serial.stdout).toContain('CPR-2.1-REQUEST-ID-UNIQUE');
      for (const threads of ['1', '3']) {
        const parallel = await cprc(args, undefined, { CPRC_VALIDATE_THREADS: threads });
        expect(parallel, `${threads} threads, ${extra.join(' ')}`).toEqual(serial);
      }
    }
  });

  it('refuses a CPRC_VALIDATE_THREADS that is no whole number (exit 2)', async () => {
    const r = await cprc(['validate', fixture('sepa-ct-ok'), '--now', NOW], undefined, {
      CPRC_VALIDATE_THREADS: 'two',
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('CPRC_VALIDATE_THREADS "two" must be a whole number');
  });
});

describe('cprc validate limits (max-bytes, timeout)', () => {
  it('/dev/zero ends at the max-bytes limit: exit 2, one line naming the limit', async () => {
    const r = await cprc(['validate', '/dev/zero', '--max-bytes', '65536']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      'cprc: /dev/zero is larger than the max-bytes limit of 65536 bytes; a cpr is far smaller (raise it with --max-bytes)\n',
    );
  });

  it('a FIFO fed without end stops at the limit; a FIFO nobody writes to stops at --timeout', async () => {
    const fifo = join(dir, 'feed.fifo');
    execFileSync('mkfifo', [fifo]);
    const writer = spawn('sh', ['-c', `yes '{"a":1}' > '${fifo}'`], { stdio: 'ignore' });
    try {
      const r = await cprc(['validate', fifo, '--max-bytes', '4096']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('is larger than the max-bytes limit of 4096 bytes');
    } finally {
      writer.kill();
    }
    const idle = join(dir, 'idle.fifo');
    execFileSync('mkfifo', [idle]);
    const r = await cprc(['validate', idle, '--timeout', '300']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`no data from ${idle} within 300 ms`);
  });

  it('reads a FIFO whose writer came first (blocked in its open) or comes after the reader, to its end', async () => {
    // the writer already waits in open(2): the reader's open lets it write and end at once, so a
    // look at the FIFO before the read (opened and closed) would drop its data and leave no writer
    const early = join(dir, 'early.fifo');
    execFileSync('mkfifo', [early]);
    const writer = spawn('sh', ['-c', `exec cat '${fixture('sepa-ct-ok')}' > '${early}'`], {
      stdio: 'ignore',
    });
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      const r = await cprc(['validate', early, '--mode', 'payee', '--now', NOW, '--timeout', '5000']);
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    } finally {
      writer.kill();
    }
    // the reader first: no writer yet is no end of input; the document comes in two writes
    const late = join(dir, 'late.fifo');
    execFileSync('mkfifo', [late]);
    const text = readFileSync(fixture('sepa-ct-ok'), 'utf8');
    const half = Math.floor(text.length / 2);
    const run = cprc(['validate', late, '--mode', 'payee', '--now', NOW, '--timeout', '5000']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    // non-blocking: ENXIO until the reader has the FIFO open (a blocking open could hang the test)
    let fd: number | undefined;
    for (let tries = 0; fd === undefined; tries++) {
      try {
        fd = openSync(late, constants.O_WRONLY | constants.O_NONBLOCK);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENXIO' || tries > 100) throw err;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    try {
      writeSync(fd, text.slice(0, half));
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeSync(fd, text.slice(half));
    } finally {
      closeSync(fd);
    }
    const r = await run;
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('an NDJSON input without line breaks stops at the max-bytes limit of one line', async () => {
    const file = join(dir, 'one-line.ndjson');
    writeFileSync(file, 'x'.repeat(200_000));
    const r = await cprc(['validate', file, '--max-bytes', '10000']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `cprc: line 1 of ${file} is larger than the max-bytes limit of 10000 bytes; a cpr is far smaller (raise it with --max-bytes)\n`,
    );
    const piped = await cprc(['validate', '-', '--max-bytes', '10000'], `${'y'.repeat(50_000)}`);
    expect(piped.code).toBe(2);
    expect(piped.stderr).toContain('stdin is larger than the max-bytes limit of 10000 bytes');
  });

  it('a regular file above --max-bytes is refused before it is read; --max-bytes raises the limit', async () => {
    const big = fixture('sepa-ct-ok');
    const small = await cprc(['validate', big, '--max-bytes', '100']);
    expect(small.code).toBe(2);
    expect(small.stderr).toContain('max-bytes limit of 100 bytes');
    const raised = await cprc(['validate', big, '--max-bytes', '100000', '--now', NOW]);
    expect(raised.code).toBe(0);
  });

  it('a NUL-filled file is "not json text (nul bytes)", an invalid document (exit 1)', async () => {
    const file = join(dir, 'zeros.json');
    writeFileSync(file, Buffer.alloc(512));
    const r = await cprc(['validate', file, '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)[0].findings).toEqual([
      {
        requirement: 'PRF-1-JSON-UTF8',
        level: 'PROFILE',
        severity: 'error',
        path: '',
        message: `${file} is not json text (nul bytes)`,
      },
    ]);
  });

  it('refuses a bad --max-bytes (exit 2)', async () => {
    const r = await cprc(['validate', fixture('sepa-ct-ok'), '--max-bytes', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--max-bytes "lots" must be a positive whole number of bytes');
  });
});

describe('cprc validate NDJSON inputs', () => {
  it('a *.ndjson file is read line by line: invalid lines printed, a summary, exit 1', async () => {
    const ok = JSON.stringify(load('sepa-ct-ok'));
    const ach = JSON.stringify(load('ach-ok'));
    const lines = [ok, JSON.stringify(load('bic-malformed-fail')), '', '{not json', ach, ok].join('\n');
    const file = join(dir, 'mixed.ndjson');
    writeFileSync(file, `${lines}\n`);
    const r = await cprc(['validate', file, '--now', NOW]);
    expect(r.code).toBe(1);
    expect(r.stdout).not.toMatch(/^line 1 of/m);
    expect(r.stdout).toMatch(/^line 2 of .*mixed\.ndjson$/m);
    expect(r.stdout).toContain('CPR-2.6-BIC-VALID');
    expect(r.stdout).toMatch(/^line 4 of .*mixed\.ndjson$/m);
    expect(r.stdout).toContain('PRF-1-JSON-UTF8');
    expect(r.stdout).not.toMatch(/^line 5 of/m);
    expect(r.stdout).toMatch(/^line 6 of .*mixed\.ndjson$/m); // the same request_id as line 1
    expect(r.stdout).toContain('CPR-2.1-REQUEST-ID-UNIQUE');
    expect(r.stdout.trim().split('\n').at(-1)).toBe(
      'invalid: 5 documents, 2 valid, 3 invalid, 0 warnings (wallet reading)',
    );
  });

  it('NDJSON on stdin is recognised (first line a whole document); --ndjson prints one line per document', async () => {
    const r = await cprc(
      ['validate', '-', '--ndjson', '--now', NOW],
      `${JSON.stringify(load('pix-ok'))}\n${JSON.stringify(load('ach-ok'))}\n`,
    );
    expect(r.code).toBe(0);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    ).toEqual([
      { input: '-:1', valid: true, findings: [] },
      { input: '-:2', valid: true, findings: [] },
    ]);
  });

  it('a pretty-printed document on stdin stays one document', async () => {
    const r = await cprc(['validate', '-', '--json', '--now', NOW], JSON.stringify(load('pix-ok'), null, 2));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([{ input: '-', valid: true, findings: [] }]);
  });
});
