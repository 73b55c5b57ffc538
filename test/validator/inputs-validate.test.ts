/**
 * `validateInputs` (src/validator/inputs/validate-inputs.ts), the loader behind `cprc validate`:
 * how each kind of input is read (JSON file, NDJSON by name or by content, stdin, a PNG with a
 * QR code, a file holding a cpr:// uri, an inline uri), how each result is named, the max-bytes
 * limit at its edge, and request_id uniqueness over the whole run.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { encodeInlineUri, readQrPng, renderQrPng } from '../../src/codec/index.js';
import { DEFAULT_MAX_BYTES, type InputResult, validateInputs } from '../../src/validator/inputs/index.js';
import { testScratchDir } from '../_support/scratch.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');
const load = (name: string): Record<string, unknown> =>
  JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8'));
const id = (n: number): string => `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`;
/** A valid document with its own request_id, as one line of JSON. */
const doc = (n: number, name = 'sepa-ct-ok'): string => JSON.stringify({ ...load(name), request_id: id(n) });

async function all(
  inputs: string[],
  opts: Parameters<typeof validateInputs>[1] = {},
): Promise<InputResult[]> {
  const out: InputResult[] = [];
  for await (const r of validateInputs(inputs, { now: NOW, ...opts })) out.push(r);
  return out;
}

const summary = (rs: InputResult[]): [string, boolean, string[]][] =>
  rs.map((r) => [r.input, r.valid, r.findings.map((f) => f.requirement)]);

describe('files', () => {
  it('a JSON file is one document, named by its path; an invalid one lists its findings', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'ok.json'), doc(1));
    writeFileSync(join(dir, 'bad.json'), '{"a":');
    const rs = await all([join(dir, 'ok.json'), join(dir, 'bad.json')]);
    expect(summary(rs)).toEqual([
      [join(dir, 'ok.json'), true, []],
      [join(dir, 'bad.json'), false, ['PRF-1-JSON-UTF8']],
    ]);
    expect(rs[0]?.source).toBe(join(dir, 'ok.json'));
    expect(rs[0]?.error).toBeUndefined();
    expect(rs[1]?.findings[0]?.message).toContain(join(dir, 'bad.json'));
  });

  it('a warning alone leaves the document valid', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'w.json'), JSON.stringify(load('rail-hint-unknown-fail'))); // wallet reading: a warning only
    const [r] = await all([join(dir, 'w.json')]);
    expect(r?.findings.length).toBeGreaterThan(0);
    expect(r?.findings.every((f) => f.severity === 'warning')).toBe(true);
    expect(r?.valid).toBe(true);
  });

  it('reads in the wallet reading by default and in the payee reading when asked (text rules included)', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'bom.json'), `\uFEFF${doc(1)}`);
    expect(summary(await all([join(dir, 'bom.json')]))).toEqual([[join(dir, 'bom.json'), true, []]]);
    expect(summary(await all([join(dir, 'bom.json')], { mode: 'payee' }))).toEqual([
      [join(dir, 'bom.json'), false, ['PRF-1-JSON-NO-BOM']],
    ]);
  });

  it('NUL bytes and invalid UTF-8 are findings on the file, not read errors', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'zeros.json'), Buffer.alloc(32));
    writeFileSync(join(dir, 'latin1.json'), Buffer.from([0x7b, 0xe9, 0x7d]));
    const rs = await all([join(dir, 'zeros.json'), join(dir, 'latin1.json')]);
    expect(summary(rs)).toEqual([
      [join(dir, 'zeros.json'), false, ['PRF-1-JSON-UTF8']],
      [join(dir, 'latin1.json'), false, ['PRF-1-JSON-UTF8']],
    ]);
    expect(rs.every((r) => r.error === undefined)).toBe(true);
  });

  it('a file of exactly max-bytes is read, one byte more is an error naming the file and the limit, and the run goes on', async () => {
    const dir = testScratchDir('inputs');
    const text = doc(1);
    writeFileSync(join(dir, 'at.json'), text);
    writeFileSync(join(dir, 'over.json'), `${text} `);
    const rs = await all([join(dir, 'over.json'), join(dir, 'at.json')], { maxBytes: text.length });
    expect(rs.map((r) => [r.input, r.valid])).toEqual([
      [join(dir, 'over.json'), false],
      [join(dir, 'at.json'), true],
    ]);
    expect(rs[0]?.error).toContain(join(dir, 'over.json'));
    expect(rs[0]?.error).toContain(`${text.length} bytes`);
    expect(rs[0]?.source).toBe(join(dir, 'over.json'));
    expect(rs[0]?.findings).toEqual([]);
  });

  it('the default limit is 1 MiB', async () => {
    const dir = testScratchDir('inputs');
    const pad = (n: number): string => `{"pad":"${'x'.repeat(n - 10)}"}`;
    writeFileSync(join(dir, 'at.json'), pad(DEFAULT_MAX_BYTES));
    writeFileSync(join(dir, 'over.json'), pad(DEFAULT_MAX_BYTES + 1));
    const rs = await all([join(dir, 'at.json'), join(dir, 'over.json')]);
    expect(DEFAULT_MAX_BYTES).toBe(1024 * 1024);
    expect(rs[0]?.error).toBeUndefined();
    expect(rs[1]?.error).toContain(`${DEFAULT_MAX_BYTES} bytes`);
  });

  it('a missing input is an error naming it, and the inputs after it are still read', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'ok.json'), doc(1));
    const rs = await all([join(dir, 'missing.json'), `${dir}/*.none`, join(dir, 'ok.json')]);
    expect(rs.map((r) => [r.input, r.valid])).toEqual([
      [join(dir, 'missing.json'), false],
      [`${dir}/*.none`, false],
      [join(dir, 'ok.json'), true],
    ]);
    expect(rs[0]?.error).toContain('no such file');
    expect(rs[1]?.error).toContain('no file matches');
  });

  it('reads more files than it reads ahead, all in name order', async () => {
    const dir = testScratchDir('inputs');
    const names = Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, '0')}.json`);
    names.forEach((n, i) => {
      writeFileSync(join(dir, n), doc(100 + i));
    });
    const rs = await all([dir]);
    expect(rs.map((r) => r.input)).toEqual(names.map((n) => join(dir, n)));
    expect(rs.every((r) => r.valid)).toBe(true);
  });
});

describe('request_id uniqueness over the run (spec 2.1)', () => {
  it('a request_id repeated in a later document is an error on that document only, at /request_id', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'a.json'), doc(7));
    writeFileSync(join(dir, 'b.json'), doc(7, 'pix-ok'));
    writeFileSync(join(dir, 'c.json'), doc(8));
    writeFileSync(join(dir, 'd.json'), doc(7));
    const rs = await all([dir]);
    expect(summary(rs)).toEqual([
      [join(dir, 'a.json'), true, []],
      [join(dir, 'b.json'), false, ['CPR-2.1-REQUEST-ID-UNIQUE']],
      [join(dir, 'c.json'), true, []],
      [join(dir, 'd.json'), false, ['CPR-2.1-REQUEST-ID-UNIQUE']],
    ]);
    const f = rs[1]?.findings[0];
    expect(f?.path).toBe('/request_id');
    expect(f?.severity).toBe('error');
    expect(f?.message).toContain(id(7));
  });

  it('a document that is not JSON, or has no string request_id, takes no id', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'a.json'), JSON.stringify({ ...load('sepa-ct-ok'), request_id: 5 }));
    writeFileSync(join(dir, 'b.json'), JSON.stringify({ ...load('sepa-ct-ok'), request_id: 5 }));
    writeFileSync(join(dir, 'c.json'), `"${id(3)}"`);
    writeFileSync(join(dir, 'd.json'), 'null');
    writeFileSync(join(dir, 'e.json'), `[${doc(3)}]`);
    writeFileSync(join(dir, 'f.json'), doc(3));
    const rs = await all([dir]);
    const unique = rs.map((r) => r.findings.some((f) => f.requirement === 'CPR-2.1-REQUEST-ID-UNIQUE'));
    expect(unique).toEqual([false, false, false, false, false, false]);
    expect(rs.map((r) => r.valid)).toEqual([false, false, false, false, false, true]);
    expect(rs.every((r) => r.error === undefined)).toBe(true);
  });
});

describe('NDJSON', () => {
  it('a *.ndjson or *.JSONL file is read line by line, each line named path:line, blank lines skipped', async () => {
    const dir = testScratchDir('inputs');
    const nd = join(dir, 'batch.ndjson');
    writeFileSync(nd, `${doc(1)}\n \n\t\n\r\r\n${doc(2)}\r\n{"a":\n`);
    const jl = join(dir, 'batch.JSONL');
    writeFileSync(jl, `${doc(3)}\n`);
    const rs = await all([nd, jl]);
    expect(summary(rs)).toEqual([
      [`${nd}:1`, true, []],
      [`${nd}:5`, true, []],
      [`${nd}:6`, false, ['PRF-1-JSON-UTF8']],
      [`${jl}:1`, true, []],
    ]);
    expect(rs[1]?.source).toBe(`line 5 of ${nd}`);
    expect(rs[2]?.findings[0]?.message).toContain(`line 6 of ${nd}`);
  });

  it('a byte order mark before NDJSON leaves it NDJSON, the mark reported on line 1 in the payee reading', async () => {
    const dir = testScratchDir('inputs');
    const file = join(dir, 'bom.txt');
    writeFileSync(file, `\uFEFF${doc(1)}\n${doc(2)}\n`);
    expect(summary(await all([file], { mode: 'payee' }))).toEqual([
      [`${file}:1`, false, ['PRF-1-JSON-NO-BOM']],
      [`${file}:2`, true, []],
    ]);
  });

  it('a line above max-bytes ends the stream with an error naming that line; earlier lines stand', async () => {
    const dir = testScratchDir('inputs');
    const nd = join(dir, 'long.ndjson');
    const first = doc(1);
    writeFileSync(nd, `${first}\n${first}x${first}\n${doc(2)}\n`);
    const rs = await all([nd], { maxBytes: first.length });
    expect(rs.map((r) => [r.input, r.valid])).toEqual([
      [`${nd}:1`, true],
      [`${nd}:2`, false],
    ]);
    expect(rs[1]?.error).toContain(`line 2 of ${nd}`);
    expect(rs[1]?.error).toContain(`${first.length} bytes`);
  });

  it('a *.ndjson path that cannot be opened (a socket) is an error naming it', async () => {
    const dir = testScratchDir('inputs');
    const path = join(dir, 's.ndjson');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      const [r] = await all([path]);
      expect(r?.input).toBe(path);
      expect(r?.valid).toBe(false);
      expect(r?.error).toContain(path);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('a missing *.ndjson file is an error naming it', async () => {
    const dir = testScratchDir('inputs');
    const [r] = await all([join(dir, 'gone.ndjson')]);
    expect(r?.input).toBe(join(dir, 'gone.ndjson'));
    expect(r?.error).toContain('no such file');
  });

  it('a file not named *.json whose first line is a whole document is NDJSON; a *.json file never is', async () => {
    const dir = testScratchDir('inputs');
    ['lines.txt', 'lines', 'lines.json', 'LINES.JSON'].forEach((n, i) => {
      writeFileSync(join(dir, n), `${doc(10 * i + 1)}\n${doc(10 * i + 2)}\n`);
    });
    const rs = await all(['lines.txt', 'lines', 'lines.json', 'LINES.JSON'].map((n) => join(dir, n)));
    expect(summary(rs)).toEqual([
      [`${join(dir, 'lines.txt')}:1`, true, []],
      [`${join(dir, 'lines.txt')}:2`, true, []],
      [`${join(dir, 'lines')}:1`, true, []],
      [`${join(dir, 'lines')}:2`, true, []],
      [join(dir, 'lines.json'), false, ['PRF-1-JSON-UTF8']],
      [join(dir, 'LINES.JSON'), false, ['PRF-1-JSON-UTF8']],
    ]);
  });

  it('one document followed by white space, a pretty-printed document, or a first line that is not JSON stay one document', async () => {
    const dir = testScratchDir('inputs');
    const pretty = JSON.stringify({ ...load('sepa-ct-ok'), request_id: id(2) }, null, 2);
    const cases: [string, string, boolean][] = [
      ['trailing.txt', `${doc(1)}\n \r\n\t\n`, true],
      ['pretty.txt', pretty, true],
      ['blank-first.txt', `\n${doc(3)}\n${doc(4)}`, false],
      ['garbage-first.txt', `not json\n${doc(5)}\n`, false],
      ['one-line.txt', doc(6), true],
      ['number.txt', '12', false],
    ];
    for (const [n, text] of cases) writeFileSync(join(dir, n), text);
    const rs = await all(cases.map(([n]) => join(dir, n)));
    expect(rs.map((r) => [r.input, r.valid])).toEqual(cases.map(([n, , valid]) => [join(dir, n), valid]));
  });
});

describe('stdin', () => {
  it('one document, in any number of chunks, is named -', async () => {
    const text = doc(1);
    const stdin = Readable.from([text.slice(0, 10), text.slice(10, 200), text.slice(200), '\n']);
    const rs = await all(['-'], { stdin });
    expect(summary(rs)).toEqual([['-', true, []]]);
    expect(rs[0]?.source).toBe('stdin');
  });

  it('a pretty-printed document is one document', async () => {
    const stdin = Readable.from([JSON.stringify({ ...load('sepa-ct-ok'), request_id: id(1) }, null, 2)]);
    expect(summary(await all(['-'], { stdin }))).toEqual([['-', true, []]]);
  });

  it('NDJSON is recognised whether it arrives at once or line by line, blank lines skipped', async () => {
    const atOnce = await all(['-'], { stdin: Readable.from([`${doc(1)}\n\n${doc(2)}\n`]) });
    expect(summary(atOnce)).toEqual([
      ['-:1', true, []],
      ['-:3', true, []],
    ]);
    expect(atOnce[1]?.source).toBe('line 3 of -');
    const lineByLine = await all(['-'], {
      stdin: Readable.from([`${doc(1)}\n`, '\n', `${doc(2)}`, '\n', `${doc(3)}\n`]),
    });
    expect(summary(lineByLine)).toEqual([
      ['-:1', true, []],
      ['-:3', true, []],
      ['-:4', true, []],
    ]);
    // the second line decides only once it is there: a stream paused after the first line waits
    const paused = new PassThrough();
    paused.write(`${doc(1)}\n`);
    setTimeout(() => paused.end(`${doc(2)}\n`), 30);
    expect(summary(await all(['-'], { stdin: paused }))).toEqual([
      ['-:1', true, []],
      ['-:2', true, []],
    ]);
  });

  it('one document of exactly max-bytes is read; one byte more is an error naming stdin and the limit', async () => {
    const text = doc(1);
    const at = await all(['-'], {
      stdin: Readable.from([text.slice(0, 100), text.slice(100)]),
      maxBytes: text.length,
    });
    expect(summary(at)).toEqual([['-', true, []]]);
    for (const chunks of [[`${text} `], [text.slice(0, 100), `${text.slice(100)} `], [text, ' ', ' ']]) {
      const rs = await all(['-'], { stdin: Readable.from(chunks), maxBytes: text.length });
      expect(rs.map((r) => [r.input, r.valid])).toEqual([['-', false]]);
      expect(rs[0]?.error).toContain('stdin');
      expect(rs[0]?.error).toContain(`${text.length} bytes`);
      expect(rs[0]?.error).toContain('--max-bytes');
    }
  });

  it('a stdin without a line break far above max-bytes stops at the limit', async () => {
    let sent = 0;
    const endless = new Readable({
      read() {
        sent += 1000;
        this.push(sent > 1_000_000 ? null : Buffer.alloc(1000, 0x20));
      },
    });
    const rs = await all(['-'], { stdin: endless, maxBytes: 5000 });
    expect(rs.map((r) => [r.input, r.valid])).toEqual([['-', false]]);
    expect(rs[0]?.error).toContain('5000 bytes');
    expect(sent).toBeLessThan(100_000);
    expect(endless.destroyed).toBe(true);
  });

  it('an NDJSON line above max-bytes is an error naming its line', async () => {
    const short = doc(1);
    const rs = await all(['-'], {
      stdin: Readable.from([`${short}\n${short}\n${short}${short}\n`]),
      maxBytes: short.length,
    });
    expect(rs.map((r) => [r.input, r.valid])).toEqual([
      ['-:1', true],
      ['-:2', false],
      ['-:3', false],
    ]);
    expect(rs[1]?.findings.map((f) => f.requirement)).toEqual(['CPR-2.1-REQUEST-ID-UNIQUE']);
    expect(rs[2]?.error).toContain('line 3 of -');
  });

  it('a stream error is a read error on -, naming stdin, and the run goes on', async () => {
    const dir = testScratchDir('inputs');
    writeFileSync(join(dir, 'ok.json'), doc(1));
    for (const failAt of [0, 1]) {
      let n = 0;
      const broken = new Readable({
        read() {
          if (n++ === failAt) this.destroy(Object.assign(new Error('boom'), { code: 'EIO' }));
          else this.push(`${doc(2).slice(0, 40)}\n`);
        },
      });
      const rs = await all(['-', join(dir, 'ok.json')], { stdin: broken });
      expect(rs.map((r) => [r.input, r.valid])).toEqual([
        ['-', false],
        [join(dir, 'ok.json'), true],
      ]);
      expect(rs[0]?.error).toContain('cannot read stdin');
      expect(rs[0]?.error).toContain('boom');
    }
  });

  it('a first line that arrives in pieces, or of exactly max-bytes, is still read as NDJSON', async () => {
    const one = doc(1);
    const pieces = await all(['-'], {
      stdin: Readable.from([one.slice(0, 50), `${one.slice(50)}\n`, `${doc(2)}\n`]),
    });
    expect(summary(pieces)).toEqual([
      ['-:1', true, []],
      ['-:2', true, []],
    ]);
    const exact = await all(['-'], { stdin: Readable.from([one, `\n${doc(2)}\n`]), maxBytes: one.length });
    expect(summary(exact)).toEqual([
      ['-:1', true, []],
      ['-:2', true, []],
    ]);
  });

  it('a pretty-printed document in many pieces is one document, and is refused one byte past max-bytes', async () => {
    const pretty = JSON.stringify({ ...load('sepa-ct-ok'), request_id: id(1) }, null, 2);
    const pieces = (t: string): string[] => t.match(/[\s\S]{1,40}/g) ?? [];
    expect(summary(await all(['-'], { stdin: Readable.from(pieces(pretty)) }))).toEqual([['-', true, []]]);
    expect(
      summary(await all(['-'], { stdin: Readable.from(pieces(pretty)), maxBytes: pretty.length })),
    ).toEqual([['-', true, []]]);
    const [over] = await all(['-'], { stdin: Readable.from(pieces(`${pretty} `)), maxBytes: pretty.length });
    expect(over?.valid).toBe(false);
    expect(over?.error).toContain(`${pretty.length} bytes`);
  });

  it('NDJSON results come as lines arrive, before stdin ends', async () => {
    const stdin = new PassThrough();
    stdin.write(`${doc(1)}\n${doc(2)}\n`);
    const it = validateInputs(['-'], { now: NOW, stdin })[Symbol.asyncIterator]();
    const first = await Promise.race([it.next(), new Promise((r) => setTimeout(() => r('stalled'), 2000))]);
    expect(first).toMatchObject({ done: false, value: { input: '-:1', valid: true } });
    stdin.end(`${doc(3)}\n`);
    const rest: string[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value.input);
    expect(rest).toEqual(['-:2', '-:3']);
  });
});

describe('cpr:// uris, in arguments, files and QR codes', () => {
  it('an inline uri is decoded and validated; its text rules apply in the reading', async () => {
    const uri = encodeInlineUri({ ...load('sepa-ct-ok'), request_id: id(1) });
    const rs = await all([uri], { mode: 'payee' });
    expect(summary(rs)).toEqual([[uri, true, []]]);
    expect(rs[0]?.source).toBe('uri (inline uri)');
    const dupJson = `{"cpr_version":"CPR-1.0","cpr_version":"CPR-1.0"}`;
    const dup = `cpr://inline/${Buffer.from(dupJson).toString('base64url')}`;
    const [d] = await all([dup], { mode: 'payee' });
    expect(d?.findings.map((f) => f.requirement)).toContain('PRF-1-JSON-UNIQUE-MEMBER-NAMES');
    expect(d?.valid).toBe(false);
  });

  it("keeps the codec's warnings of a uri that decodes", async () => {
    const uri = encodeInlineUri({ ...load('sepa-ct-ok'), request_id: id(1) });
    const padded = `${uri}${'='.repeat((4 - ((uri.length - 'cpr://inline/'.length) % 4)) % 4 || 2)}`;
    const [r] = await all([padded]);
    expect(r?.findings.map((f) => [f.requirement, f.severity])).toEqual([['PRF-2-INLINE-URI', 'warning']]);
    expect(r?.valid).toBe(true);
  });

  it('a malformed uri gives its codec findings, not a read error', async () => {
    const [r] = await all(['cpr://inline/!!!']);
    expect(r?.error).toBeUndefined();
    expect(r?.valid).toBe(false);
    expect(r?.findings.length).toBeGreaterThan(0);
    expect(r?.findings.every((f) => /^(CPR|PRF)-/.test(f.requirement))).toBe(true);
  });

  it('a file holding a uri (and a line break) is read as that uri', async () => {
    const dir = testScratchDir('inputs');
    const uri = encodeInlineUri({ ...load('sepa-ct-ok'), request_id: id(1) });
    writeFileSync(join(dir, 'link.txt'), `${uri}\n`);
    writeFileSync(join(dir, 'almost.txt'), `cpr:/${uri.slice(6)}`);
    const rs = await all([join(dir, 'link.txt'), join(dir, 'almost.txt')]);
    expect(summary(rs)).toEqual([
      [join(dir, 'link.txt'), true, []],
      [join(dir, 'almost.txt'), false, ['PRF-1-JSON-UTF8']],
    ]);
    expect(rs[0]?.source).toBe(`${join(dir, 'link.txt')} (inline uri)`);
  });

  it('a PNG holding a QR code of a uri is read as that uri; a PNG without one is an error saying what to give', async () => {
    const dir = testScratchDir('inputs');
    const qr = await renderQrPng(encodeInlineUri({ ...load('sepa-ct-ok'), request_id: id(1) }));
    if (!qr.ok) throw new Error('render failed');
    writeFileSync(join(dir, 'cpr.png'), qr.png);
    const blank = new PNG({ width: 64, height: 64 });
    blank.data.fill(255);
    writeFileSync(join(dir, 'blank.png'), PNG.sync.write(blank));
    const rs = await all([join(dir, 'cpr.png'), join(dir, 'blank.png')], { mode: 'payee' });
    expect(rs.map((r) => [r.input, r.valid])).toEqual([
      [join(dir, 'cpr.png'), true],
      [join(dir, 'blank.png'), false],
    ]);
    expect(rs[0]?.source).toBe(`qr code in ${join(dir, 'cpr.png')} (inline uri)`);
    expect(rs[1]?.error).toContain(`cannot read a qr code from ${join(dir, 'blank.png')}`);
    expect(rs[1]?.error).toContain('png');
    const why = readQrPng(PNG.sync.write(blank));
    expect(why.ok).toBe(false);
    for (const f of why.findings) expect(rs[1]?.error).toContain(f.message);
  });

  it('a QR payload with white space around its uri (a trailing line break) is read as that uri', async () => {
    const dir = testScratchDir('inputs');
    const uri = encodeInlineUri({ ...load('sepa-ct-ok'), request_id: id(2) });
    const qr = await renderQrPng(` ${uri}\r\n`);
    if (!qr.ok) throw new Error('render failed');
    writeFileSync(join(dir, 'spaced.png'), qr.png);
    const [r] = await all([join(dir, 'spaced.png')], { mode: 'payee' });
    expect(r?.error).toBeUndefined();
    expect(r?.valid).toBe(true);
    expect(r?.source).toBe(`qr code in ${join(dir, 'spaced.png')} (inline uri)`);
  });

  it('the findings of the document a QR code carries are kept (payee: duplicate names)', async () => {
    const dir = testScratchDir('inputs');
    const json = `{"cpr_version":"CPR-1.0","cpr_version":"CPR-1.0"}`;
    const qr = await renderQrPng(`cpr://inline/${Buffer.from(json).toString('base64url')}`);
    if (!qr.ok) throw new Error('render failed');
    writeFileSync(join(dir, 'dup.png'), qr.png);
    const [r] = await all([join(dir, 'dup.png')], { mode: 'payee' });
    expect(r?.error).toBeUndefined();
    expect(r?.findings.map((f) => f.requirement)).toContain('PRF-1-JSON-UNIQUE-MEMBER-NAMES');
  });
});

describe('reading ahead', () => {
  it('reads at most a few files ahead of the one being validated', async () => {
    const dir = testScratchDir('inputs');
    const names = Array.from({ length: 60 }, (_, i) => `f${String(i).padStart(2, '0')}.json`);
    names.forEach((n, i) => {
      writeFileSync(join(dir, n), doc(200 + i));
    });
    const it = validateInputs([dir], { now: NOW })[Symbol.asyncIterator]();
    const first = await it.next();
    expect(first.value?.valid).toBe(true);
    // files removed now: those not read yet can no longer be read
    for (const n of names) rmSync(join(dir, n));
    const rest: InputResult[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(rest).toHaveLength(59);
    expect(rest.slice(30).every((r) => r.error?.includes('no such file'))).toBe(true);
  });
});

describe('options', () => {
  it('refuses invalid options before reading any input', async () => {
    let read = false;
    const stdin = new Readable({
      read() {
        read = true;
        this.push(null);
      },
    });
    await expect(all(['-'], { mode: 'merchant' as 'payee', stdin })).rejects.toThrow(/mode/);
    expect(read).toBe(false);
  });
});
