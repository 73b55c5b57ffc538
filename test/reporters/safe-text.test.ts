/**
 * The artefact escapes (src/reporters/safe-text.ts) scan for unsafe characters with a plain class
 * of code units and judge each as a code point: the same output as a replace with the Unicode
 * property classes, which is the oracle here, on random code units and on every boundary.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonSafe, terminalLine, visibleEscape, visibleText } from '../../src/reporters/safe-text.js';

const UNSAFE = /[\p{Cc}\p{Bidi_Control}\p{Noncharacter_Code_Point}\u2028\u2029\uFEFF\uD800-\uDFFF]/gu;

function oracleVisible(text: string, keep: boolean): string {
  return text.replace(UNSAFE, (c) =>
    keep && (c === '\n' || c === '\t') ? c : visibleEscape(c.codePointAt(0) ?? 0),
  );
}

function oracleJson(jsonText: string): string {
  return jsonText
    .replace(/(\\+)u(d[89a-f][0-9a-f]{2})/gi, (m, slashes: string, hex: string) =>
      slashes.length % 2 === 1 ? `${slashes}\\u${hex.toUpperCase()}` : m,
    )
    .replace(UNSAFE, (c) => {
      if (c === '\n' || c === '\t') return c;
      const cp = c.codePointAt(0) ?? 0;
      if (cp >= 0xd800 && cp <= 0xdfff) return visibleEscape(cp).replace('\\', '\\\\');
      const unit = (u: number): string => `\\u${u.toString(16).padStart(4, '0')}`;
      if (cp <= 0xffff) return unit(cp);
      const v = cp - 0x10000;
      return unit(0xd800 + (v >> 10)) + unit(0xdc00 + (v & 0x3ff));
    });
}

/** Each side of every range the escapes name, and pairs: plain, noncharacter, at the planes' ends. */
const BOUNDARIES = [
  '\x00',
  '\x08',
  '\t',
  '\n',
  '\x0b',
  '\r',
  '\x1f',
  ' ',
  'a',
  '~',
  '\x7f',
  '\x9f',
  '\xa0',
  'é',
  '\u061b',
  '\u061c',
  '\u061d',
  '\u200d',
  '\u200e',
  '\u200f',
  '\u2010',
  '\u2027',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u202f',
  '\u2065',
  '\u2066',
  '\u2069',
  '\u206a',
  '\ufdcf',
  '\ufdd0',
  '\ufdef',
  '\ufdf0',
  '\ufefe',
  '\ufeff',
  '\uff00',
  '\ufffd',
  '\ufffe',
  '\uffff',
  '\ud800',
  '\udbff',
  '\udc00',
  '\udfff',
  '\ud83d\ude00',
  '\ud800\udc00',
  '\ud83f\udffd',
  '\ud83f\udffe',
  '\ud83f\udfff',
  '\udbff\udfff',
  '\\',
  '"',
  '\\ud800',
  '\\\\ud800',
];
const texts = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: fc.constantFrom(...BOUNDARIES), maxLength: 40 }),
);

describe('artefact escapes', () => {
  it('visibleText and terminalLine give what a replace over code points gives', () => {
    fc.assert(
      fc.property(texts, (t) => {
        expect(visibleText(t)).toBe(oracleVisible(t, true));
        expect(visibleText(t, { keepLineBreaks: false })).toBe(oracleVisible(t, false));
        expect(terminalLine(t)).toBe(oracleVisible(t, false));
      }),
      { numRuns: 2000 },
    );
  });

  it('jsonSafe gives what a replace over code points gives, and reads back to the same strings', () => {
    fc.assert(
      fc.property(fc.array(texts, { maxLength: 4 }), (strings) => {
        const json = JSON.stringify({ strings, [strings[0] ?? 'k']: 1 }, null, 2);
        const safe = jsonSafe(json);
        expect(safe).toBe(oracleJson(json));
        expect(oracleVisible(safe, true)).toBe(safe); // nothing unsafe left raw
        JSON.parse(safe);
      }),
      { numRuns: 2000 },
    );
  });

  it('escapes each kind of unsafe character, and returns safe text as it is', () => {
    expect(visibleText('a\u202Eb\u001B[31m\u{1FFFE}\ud800x')).toBe('a\\u202Eb\\u001B[31m\\u{1FFFE}\\uD800x');
    expect(jsonSafe('"\u2028\u{10FFFF}"')).toBe('"\\u2028\\udbff\\udfff"');
    const plain = 'line\n\ttab, é, \u{1F600}';
    expect(visibleText(plain)).toBe(plain);
  });
});
