import { describe, expect, it } from 'vitest';
import { finding } from '../../src/model/finding.js';
import type { RuleContext } from '../../src/validator/types.js';
import {
  codePointLength,
  describe as describeValue,
  findingsOf,
  listText,
  member,
  pointer,
  pointerSegments,
} from '../../src/validator/util.js';

describe('pointer and pointerSegments (RFC 6901)', () => {
  it('writes each segment, "~" as "~0" and "/" as "~1"', () => {
    expect(pointer([])).toBe('');
    expect(pointer(['payee', 'rail_address', 'iban'])).toBe('/payee/rail_address/iban');
    expect(pointer(['a/b', 'c~d', '~1', 0, ''])).toBe('/a~1b/c~0d/~01/0/');
    expect(pointer(['/~'])).toBe('/~1~0');
  });

  it('reads them back, "~1" before "~0"', () => {
    expect(pointerSegments('')).toEqual([]);
    expect(pointerSegments('/')).toEqual(['']);
    expect(pointerSegments('/payee/rail_address/iban')).toEqual(['payee', 'rail_address', 'iban']);
    expect(pointerSegments('/a~1b/c~0d/~01/0/')).toEqual(['a/b', 'c~d', '~1', '0', '']);
    expect(pointerSegments('/~0~1//x')).toEqual(['~/', '', 'x']);
    for (const segs of [['a/b', 'c~d', '~1', '', '~0/~1']])
      expect(pointerSegments(pointer(segs))).toEqual(segs);
  });
});

describe('member', () => {
  it('is an own member of an object, else undefined', () => {
    expect(member({ a: 1 }, 'a')).toBe(1);
    expect(member({ a: null }, 'a')).toBeNull();
    expect(member(Object.create({ a: 1 }), 'a')).toBeUndefined();
    expect(member({}, 'toString')).toBeUndefined();
    for (const v of [undefined, null, 'abc', 5, true]) expect(member(v, 'length')).toBeUndefined();
    expect(member(['x'], '0')).toBeUndefined();
  });
});

describe('codePointLength (profile section 2: Unicode code points)', () => {
  it('counts a surrogate pair once and a lone surrogate once', () => {
    expect(codePointLength('')).toBe(0);
    expect(codePointLength('abc')).toBe(3);
    expect(codePointLength('\u{1F600}')).toBe(1);
    expect(codePointLength('a\u{1F600}b\u{1F600}')).toBe(4);
    expect(codePointLength('\u{1F600}\u{1F600}')).toBe(2);
    expect(codePointLength('\ud83d')).toBe(1);
    expect(codePointLength('a\ud83d')).toBe(2);
    expect(codePointLength('\ude00')).toBe(1);
    expect(codePointLength('\ude00\ud83d')).toBe(2);
    expect(codePointLength('\ud83d\ud83d\ude00')).toBe(2);
    expect(codePointLength('\ud83dx')).toBe(2);
    // the bounds of both ranges
    expect(codePointLength('\ud800\udc00')).toBe(1);
    expect(codePointLength('\udbff\udfff')).toBe(1);
    expect(codePointLength('\ud7ff\udc00')).toBe(2);
    expect(codePointLength('\udc00\udc00')).toBe(2);
    expect(codePointLength('\ud800\udbff')).toBe(2);
    expect(codePointLength('\ud800\ue000')).toBe(2);
    for (const s of ['x\u{10FFFF}y', '\u{10000}', 'é', '\ud800\ud800\udc00\udc00'])
      expect(codePointLength(s)).toBe([...s].length);
  });
});

describe('describe (a value in a message)', () => {
  it('writes JSON, cut to 60 characters', () => {
    expect(describeValue('abc')).toBe('"abc"');
    expect(describeValue(5)).toBe('5');
    expect(describeValue(null)).toBe('null');
    expect(describeValue({ a: [1] })).toBe('{"a":[1]}');
    const s58 = 'x'.repeat(58);
    expect(describeValue(s58)).toBe(`"${s58}"`);
    const s59 = 'x'.repeat(59);
    expect(describeValue(s59)).toBe(`"${'x'.repeat(56)}...`);
    expect(describeValue(s59)).toHaveLength(60);
  });

  it('names a value JSON cannot write', () => {
    expect(describeValue(undefined)).toBe('undefined');
    expect(describeValue(Symbol('s'))).toBe('Symbol(s)');
    expect(describeValue(10n)).toBe('[object BigInt]');
    const loop: Record<string, unknown> = {};
    loop.self = loop;
    expect(describeValue(loop)).toBe('[object Object]');
  });
});

describe('listText (items in a message)', () => {
  it('lists none, one, two and more items, with "and" or "or" before the last', () => {
    expect(listText([])).toBe('');
    expect(listText(['iban'])).toBe('iban');
    expect(listText(['iban', 'account'])).toBe('iban and account');
    expect(listText(['iban', 'account', 'instant-key'])).toBe('iban, account and instant-key');
    expect(listText(['a', 'b', 'c', 'd'], 'or')).toBe('a, b, c or d');
    expect(listText(['a'], 'or')).toBe('a');
  });
});

describe('findingsOf', () => {
  it('collects into a new array', () => {
    const f = finding('CPR-2.1-VERSION', '/cpr_version', 'x');
    const ctx = { doc: {}, mode: 'payee', nowMs: 0, maxValiditySeconds: 1 } as RuleContext;
    const got = findingsOf((c, out) => {
      expect(c).toBe(ctx);
      out.push(f);
    }, ctx);
    expect(got).toEqual([f]);
    expect(findingsOf(() => {}, ctx)).toEqual([]);
  });
});
