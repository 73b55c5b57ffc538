import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chainKey,
  decodeJsonBytes,
  isPayerDataName,
  isValidUnderEveryRule,
  JSON_TEXT_REQUIREMENTS,
  parseJsonText,
  scanJsonText,
  validateCpr,
  validateCprBytes,
  validateCprText,
} from '../../src/validator/index.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');
const text = (name: string): string => readFileSync(join(FIXTURES, `${name}.json`), 'utf8');

describe('parseJsonText: the duplicate-name shortcut (members counted) agrees with the full scan', () => {
  const texts = [
    '{}',
    '[]',
    '"s"',
    '{"a":1,"a":2}',
    '{ "a" : 1 ,\n\t"b"\r\n:\n{"a":[{"a":1},{"a":2,"a":3}]}}',
    '{"s":"\\"a\\":","t":"x\\\\","u":"\\\\\\"","s":0}',
    '{"k":"a\\": 1, \\"k\\": 2"}',
    '{"a":{},"b":[[],{}],"c":[{"x":{"y":{"z":{"z":1}}}}]}',
    '{"a":1,"\\u0061":2}',
    '\uFEFF{"a":1,"a":2}',
    '{"__proto__":1,"__proto__":2}',
    '[{"a":1},{"a":1},{"b":{"b":1,"c":{"b":2}}}]',
    '{"a":"é","b":"💶","a":"\\ud83d"}',
  ];
  it.each(texts)('%s', (t) => {
    const expected = scanJsonText(t).duplicates.map((d) => d.path);
    const got = parseJsonText(t, 'payee').findings.filter(
      (f) => f.requirement === 'PRF-1-JSON-UNIQUE-MEMBER-NAMES',
    );
    expect(got.map((f) => f.path)).toEqual(expected);
  });

  it('the fixtures: same text findings as the full scan, in both readings', () => {
    for (const name of ['sepa-ct-ok']) {
      const t = text(name);
      expect(parseJsonText(t, 'payee').findings).toEqual([]);
      expect(
        parseJsonText(`${t.slice(0, -2)},"cpr_version":"CPR-1.0"}`, 'wallet').findings.map((f) => f.path),
      ).toEqual(['/cpr_version']);
    }
  });
});

describe('decodeJsonBytes: ASCII read as latin1, anything else strictly', () => {
  it('gives the text UTF-8 decoding gives, for ASCII, UTF-8 and a byte order mark', () => {
    for (const t of ['{"a":1}', '{"a":"é"}', '\uFEFF{"a":1}', '']) {
      const bytes = Buffer.from(t, 'utf8');
      expect(decodeJsonBytes(bytes, 'x')).toEqual({ text: t });
      expect(decodeJsonBytes(new Uint8Array(bytes), 'x')).toEqual({ text: t });
      // a view into a larger buffer
      const big = Buffer.concat([Buffer.from('zz'), bytes, Buffer.from('zz')]);
      expect(decodeJsonBytes(big.subarray(2, 2 + bytes.length), 'x')).toEqual({ text: t });
    }
    // refuses exactly what a fatal UTF-8 TextDecoder refuses
    const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
    for (const bytes of [
      [0x7b, 0xff, 0x7d],
      [0xc0, 0x80], // overlong
      [0xe0, 0x80, 0x80], // overlong
      [0xed, 0xa0, 0x80], // a surrogate
      [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF
      [0xe2, 0x82], // cut short
      [0x80],
      [0xf0, 0x9f, 0x92, 0xb6], // U+1F4B6
      [0xef, 0xbf, 0xbf], // U+FFFF
      [0xed, 0x9f, 0xbf], // U+D7FF
    ]) {
      const u8 = new Uint8Array(bytes);
      let expected: unknown;
      try {
        expected = { text: strict.decode(u8) };
      } catch {
        expected = { finding: expect.objectContaining({ message: 'x is not utf-8 text' }) };
      }
      expect(decodeJsonBytes(u8, 'x'), bytes.join(' ')).toEqual(expected);
    }
  });
});

describe('scanJsonText (duplicate member names, byte order mark)', () => {
  it('finds a repeated name per object, with its pointer, and only there', () => {
    const scan = scanJsonText('{"a":1,"b":{"a":2,"c":[{"x":1,"x":2}]},"a":3,"s":"\\"a\\":","d":{"a":1}}');
    expect(scan.bom).toBe(false);
    expect(scan.duplicates).toEqual([
      { path: '/b/c/0/x', name: 'x' },
      { path: '/a', name: 'a' },
    ]);
  });

  it('decodes escaped names before comparing them ("a" and "\\u0061" are the same name)', () => {
    expect(scanJsonText('{"a":1,"\\u0061":2}').duplicates).toEqual([{ path: '/a', name: 'a' }]);
    expect(scanJsonText('{"a/b":1,"a~b":2,"a/b":3}').duplicates).toEqual([{ path: '/a~1b', name: 'a/b' }]);
  });

  it('reports the byte order mark', () => {
    expect(scanJsonText('\uFEFF{}').bom).toBe(true);
  });

  it('walks 200,000 levels of nesting without recursion', () => {
    const depth = 200_000;
    const deep = `${'{"k":'.repeat(depth)}{"z":1,"z":2}${'}'.repeat(depth)}`;
    const scan = scanJsonText(deep);
    expect(scan.duplicates).toHaveLength(1);
    expect(scan.duplicates[0]?.path.split('/').length).toBe(depth + 2);
  });
});

describe('scanJsonText: every edge of the scan', () => {
  const dups = (t: string) => scanJsonText(t).duplicates;

  it('reports each repetition once, whether the name comes back second, third or later', () => {
    expect(dups('{"a":1,"a":2,"a":3}')).toEqual([
      { path: '/a', name: 'a' },
      { path: '/a', name: 'a' },
    ]);
    expect(dups('{"a":1,"b":2,"a":3}')).toEqual([{ path: '/a', name: 'a' }]);
    expect(dups('{"a":1,"b":2,"b":3}')).toEqual([{ path: '/b', name: 'b' }]);
    expect(dups('{"a":1,"b":2,"c":3,"b":4,"c":5}')).toEqual([
      { path: '/b', name: 'b' },
      { path: '/c', name: 'c' },
    ]);
    expect(dups('{"a":1,"b":2,"c":3}')).toEqual([]);
    expect(dups('{"a":1}')).toEqual([]);
  });

  it('string values and array elements are not member names', () => {
    expect(dups('{"a":"a","b":"a"}')).toEqual([]);
    expect(dups('{"a":["a","a"],"b":{"c":"a","d":"a"}}')).toEqual([]);
    expect(dups('["a","a",{"a":1}]')).toEqual([]);
    expect(dups('"a"')).toEqual([]);
  });

  it('points into arrays by index and into each object on the way', () => {
    expect(dups('[0,[1,2],{"x":1,"x":2}]')).toEqual([{ path: '/2/x', name: 'x' }]);
    expect(dups('{"p":[{"q":1},{"r":{"s":1,"s":2}}]}')).toEqual([{ path: '/p/1/r/s', name: 's' }]);
    expect(dups('{"a":{},"b":{"c":{"d":1,"d":2}}}')).toEqual([{ path: '/b/c/d', name: 'd' }]);
    // names are compared per object: the same name in two sibling objects is no repetition
    expect(dups('[{"a":1,"b":1},{"a":1,"b":1}]')).toEqual([]);
  });

  it('reads escaped quotes and backslashes inside strings, and decodes escaped names', () => {
    expect(dups('{"a\\\\":1,"a\\\\":2}')).toEqual([{ path: '/a\\', name: 'a\\' }]);
    expect(dups('{"a\\\\":1,"a":2}')).toEqual([]);
    expect(dups('{"\\"":1,"\\"":2}')).toEqual([{ path: '/"', name: '"' }]);
    expect(dups('{"x":"\\\\\\\\","y":1,"y":2}')).toEqual([{ path: '/y', name: 'y' }]);
    expect(dups('{"x":"{[\\"","y":1,"y":2}')).toEqual([{ path: '/y', name: 'y' }]);
    expect(dups('{"\\u0062":1,"b":2}')).toEqual([{ path: '/b', name: 'b' }]);
  });

  it('stops quietly at text it cannot read on (JSON.parse reports the syntax)', () => {
    expect(dups('{"a":1,"a":2,"b')).toEqual([{ path: '/a', name: 'a' }]);
    expect(dups('{"a":1,"a":"b')).toEqual([{ path: '/a', name: 'a' }]);
    expect(dups('{"a":1,"\\x":2,"a":3}')).toEqual([]);
    expect(dups('}]{"a":1,"a":2}')).toEqual([{ path: '/a', name: 'a' }]);
    expect(dups(',1,{"a":1,"a":2}')).toEqual([{ path: '/a', name: 'a' }]);
  });

  it('passes over a byte order mark, and reports one only at the very start', () => {
    expect(scanJsonText('\uFEFF{"a":1,"a":2}')).toEqual({
      bom: true,
      duplicates: [{ path: '/a', name: 'a' }],
    });
    expect(scanJsonText(' \uFEFF{}').bom).toBe(false);
    expect(scanJsonText('{}').bom).toBe(false);
  });
});

describe('parseJsonText', () => {
  it('names the input and says why for text that is not JSON, with no document', () => {
    const bad = parseJsonText('{"a":', 'payee', 'file.json');
    expect('doc' in bad).toBe(false);
    expect(bad.findings).toEqual([
      expect.objectContaining({ requirement: 'PRF-1-JSON-UTF8', path: '', severity: 'error' }),
    ]);
    expect(bad.findings[0]?.message).toContain('file.json is not valid json');
    // the parser's own explanation, its first letter in lower case as every message of the project
    let why = '';
    try {
      JSON.parse('{"a":');
    } catch (err) {
      why = (err as Error).message;
    }
    expect(bad.findings[0]?.message).toContain(`(${why.charAt(0).toLowerCase()}${why.slice(1)})`);
    expect(parseJsonText('nope', 'wallet').findings[0]?.message).toContain('the input');
    for (const t of ['{"a":1}\u0000', '\u0000{"a":1}']) {
      const nul = parseJsonText(t, 'wallet', 'stdin');
      expect(nul.findings.map((f) => f.message)).toEqual(['stdin is not json text (nul bytes)']);
    }
  });

  it('payee: a byte order mark and each repeated name are errors; wallet: the mark is ignored, a repetition a warning', () => {
    const text = '\uFEFF{"a":1,"b":{"c":1,"c":2}}';
    const payee = parseJsonText(text, 'payee', 'x');
    expect(payee.doc).toEqual({ a: 1, b: { c: 2 } });
    expect(payee.findings.map((f) => [f.requirement, f.path, f.severity])).toEqual([
      ['PRF-1-JSON-NO-BOM', '', 'error'],
      ['PRF-1-JSON-UNIQUE-MEMBER-NAMES', '/b/c', 'error'],
    ]);
    expect(payee.findings[0]?.message).toContain('byte order mark');
    expect(payee.findings[1]?.message).toContain('"c"');
    const wallet = parseJsonText(text, 'wallet', 'x');
    expect(wallet.doc).toEqual({ a: 1, b: { c: 2 } });
    expect(wallet.findings.map((f) => [f.requirement, f.path, f.severity])).toEqual([
      ['PRF-1-READER-REFUSES-DUPLICATES', '/b/c', 'warning'],
    ]);
    expect(wallet.findings[0]?.message).toContain('"c"');
  });

  it('a byte order mark is reported with or without a comma in the text; a clean text has no finding', () => {
    expect(parseJsonText('\uFEFF{}', 'payee').findings.map((f) => f.requirement)).toEqual([
      'PRF-1-JSON-NO-BOM',
    ]);
    expect(parseJsonText('\uFEFF[1,2]', 'payee').findings.map((f) => f.requirement)).toEqual([
      'PRF-1-JSON-NO-BOM',
    ]);
    expect(parseJsonText('{"a":[1,2]}', 'payee')).toEqual({ doc: { a: [1, 2] }, findings: [] });
    expect(parseJsonText('{"a":1}', 'payee')).toEqual({ doc: { a: 1 }, findings: [] });
    expect(parseJsonText('null', 'payee')).toEqual({ doc: null, findings: [] });
  });

  it('every requirement a finding of the module carries is listed', () => {
    expect([...JSON_TEXT_REQUIREMENTS].sort()).toEqual([
      'PRF-1-JSON-NO-BOM',
      'PRF-1-JSON-UNIQUE-MEMBER-NAMES',
      'PRF-1-JSON-UTF8',
      'PRF-1-READER-REFUSES-DUPLICATES',
    ]);
  });
});

describe('decodeJsonBytes', () => {
  it('decodes UTF-8 and keeps a byte order mark; NUL bytes anywhere and invalid UTF-8 are findings naming the input', () => {
    expect(decodeJsonBytes(Buffer.from('{"é":1}'), 'x')).toEqual({ text: '{"é":1}' });
    expect(decodeJsonBytes(Buffer.from('\uFEFF{}'), 'x')).toEqual({ text: '\uFEFF{}' });
    for (const bytes of [Uint8Array.from([0]), Buffer.from('{"a":1}\u0000'), Buffer.from('\u0000{}')]) {
      const r = decodeJsonBytes(bytes, 'my.json');
      expect('finding' in r && r.finding.message).toBe('my.json is not json text (nul bytes)');
      expect('finding' in r && r.finding.requirement).toBe('PRF-1-JSON-UTF8');
    }
    const bad = decodeJsonBytes(Uint8Array.from([0x7b, 0xc3, 0x7d]), 'my.json');
    expect('finding' in bad && bad.finding.message).toBe('my.json is not utf-8 text');
    expect('finding' in bad && bad.finding.severity).toBe('error');
  });
});

describe('validateCprText / validateCprBytes', () => {
  it('reads in the wallet reading by default; a byte order mark in bytes is reported in the payee reading', () => {
    const bomText = `\uFEFF${text('sepa-ct-ok')}`;
    expect(validateCprText(bomText, { now: NOW })).toEqual({ valid: true, findings: [] });
    const bytes = validateCprBytes(Buffer.from(bomText), { mode: 'payee', now: NOW });
    expect(bytes.valid).toBe(false);
    expect(bytes.findings.map((f) => f.requirement)).toEqual(['PRF-1-JSON-NO-BOM']);
    expect(validateCprBytes(Buffer.from(text('sepa-ct-ok')), { mode: 'payee', now: NOW })).toEqual({
      valid: true,
      findings: [],
    });
  });

  it('a text that is not JSON is invalid with that one finding, naming the document', () => {
    const r = validateCprText('{', { mode: 'payee', now: NOW });
    expect(r.valid).toBe(false);
    expect(r.findings).toHaveLength(1);
    expect(r.findings[0]?.message).toContain('the document');
    expect(validateCprBytes(new Uint8Array(3)).valid).toBe(false);
  });

  it('a warning alone leaves the text valid; the text findings come first', () => {
    const dup = '{"a":1,"a":2}';
    const r = validateCprText(dup, { now: NOW });
    expect(r.valid).toBe(false);
    expect(r.findings[0]?.requirement).toBe('PRF-1-READER-REFUSES-DUPLICATES');
    expect(r.findings.length).toBeGreaterThan(1);
    const warnOnly = validateCprText(text('sepa-ct-ok').replace('{', '{"cpr_version":"CPR-1.0",'), {
      mode: 'wallet',
      now: NOW,
    });
    expect(warnOnly.findings.map((f) => f.severity)).toEqual(['warning']);
    expect(warnOnly.valid).toBe(true);
  });
});

describe('validateCprText / validateCprBytes (fixtures)', () => {
  it('gives the same verdict as validateCpr for clean text, plus text findings for BOM and duplicates', () => {
    const clean = text('sepa-ct-ok');
    expect(validateCprText(clean, { mode: 'payee', now: NOW })).toEqual(
      validateCpr(JSON.parse(clean), { mode: 'payee', now: NOW }),
    );
    const bom = validateCprText(text('json-text-bom-fail'), { mode: 'payee', now: NOW });
    expect(bom.valid).toBe(false);
    expect(bom.findings.map((f) => f.requirement)).toEqual(['PRF-1-JSON-NO-BOM']);
    expect(validateCprText(text('json-text-bom-fail'), { mode: 'wallet', now: NOW }).findings).toEqual([]);
    const dup = validateCprText(text('json-text-duplicate-nested-fail'), { mode: 'wallet', now: NOW });
    expect(dup.valid).toBe(true);
    expect(dup.findings).toEqual([
      expect.objectContaining({
        requirement: 'PRF-1-READER-REFUSES-DUPLICATES',
        severity: 'warning',
        path: '/payee/rail_address/iban',
        message: expect.stringContaining('422 INVALID_STRUCTURE'),
      }),
    ]);
  });

  it('NUL bytes are "not json text (nul bytes)"; invalid UTF-8 is "not utf-8 text"', () => {
    expect(validateCprBytes(new Uint8Array(64)).findings).toEqual([
      expect.objectContaining({
        requirement: 'PRF-1-JSON-UTF8',
        message: 'the document is not json text (nul bytes)',
      }),
    ]);
    expect(validateCprBytes(Uint8Array.from([0x7b, 0xff, 0x7d])).findings[0]?.message).toBe(
      'the document is not utf-8 text',
    );
  });
});

describe('no payer data at any depth (iterative walk)', () => {
  it('finds a payer member 50,000 levels down, with its pointer', () => {
    let node: Record<string, unknown> = { payer_name: 'Alice' };
    for (let i = 0; i < 50_000; i++) node = { n: node };
    const doc = { ...JSON.parse(text('sepa-ct-ok')), extensions: { 'com.example:deep': node } };
    const r = validateCpr(doc, { now: NOW });
    const hit = r.findings.find((f) => f.requirement === 'CPR-INV-1-NO-PAYER-DATA');
    expect(hit?.path.endsWith('/n/payer_name')).toBe(true);
    expect(hit?.path.split('/').length).toBe(50_000 + 4);
  });

  it('recognises every name of profile section 2, case- and separator-insensitive, after a namespace prefix', () => {
    const anyDepth = [
      'payer',
      'Payer-Email',
      'payer_id',
      'com.example:payerId',
      'debtor',
      'DebtorAccount',
      'authorization',
      'signed_tx',
      'signedTx',
      'RAW-TX',
      'permit',
      'foundation:Permit',
      'mandate',
      'mandate_reference',
      'execution_date',
      'executionDate',
      'state',
      'STATUS',
      'settlement',
      'settlement_date',
      'org.acme.settlementRef',
    ];
    for (const name of anyDepth) {
      expect(isPayerDataName(name, false), name).toBe(true);
      expect(isPayerDataName(name, true), name).toBe(true);
    }
    for (const name of ['signature', 'request', 'rail', 'com.example:Signature']) {
      expect(isPayerDataName(name, true), name).toBe(true);
      expect(isPayerDataName(name, false), name).toBe(false);
    }
    for (const name of [
      'payee',
      'beneficiary_name',
      'txid',
      'end_to_end_id',
      'rail_hint',
      'rail_address',
      'request_id',
      'statement',
      'estate',
    ]) {
      expect(isPayerDataName(name, true), name).toBe(false);
    }
  });
});

describe('chain identifiers', () => {
  it('maps eip155:N, 0x-hex and decimal to one key; other strings stay themselves', () => {
    expect(chainKey('8453')).toBe('8453');
    expect(chainKey('eip155:8453')).toBe('8453');
    expect(chainKey('0x2105')).toBe('8453');
    expect(chainKey('0X2105')).toBe('8453');
    expect(chainKey('008453')).toBe('8453');
    expect(chainKey('solana:mainnet')).toBe('solana:mainnet');
    expect(chainKey('')).toBeNull();
    expect(chainKey(8453)).toBeNull();
  });
});

describe('isValidUnderEveryRule', () => {
  it('is true only with no error and no warning in both readings', () => {
    expect(isValidUnderEveryRule(JSON.parse(text('sepa-ct-ok')), { now: NOW })).toBe(true);
    // a warning only (lower-case EVM address), an error in the payee reading only, a wallet warning only
    expect(isValidUnderEveryRule(JSON.parse(text('receiver-address-lowercase-ok')), { now: NOW })).toBe(
      false,
    );
    expect(isValidUnderEveryRule(JSON.parse(text('payee-display-name-empty-fail')), { now: NOW })).toBe(
      false,
    );
    expect(isValidUnderEveryRule(JSON.parse(text('chain-id-asset-disagrees-fail')), { now: NOW })).toBe(
      false,
    );
    expect(isValidUnderEveryRule(JSON.parse(text('purpose-code-unlisted-ok')), { now: NOW })).toBe(false);
    expect(isValidUnderEveryRule('not a document')).toBe(false);
  });
});
