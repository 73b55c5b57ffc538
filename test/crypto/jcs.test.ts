import { describe, expect, it } from 'vitest';
import { canonicalBytes, canonicalize } from '../../src/crypto/jcs.js';
import { isCprcError } from '../../src/errors.js';

/** IEEE 754 double from its 16-hex-digit bit pattern (RFC 8785 appendix B lists samples this way). */
function fromBits(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

describe('RFC 8785 JSON Canonicalization Scheme', () => {
  it('section 3.2.2 example: numbers, string escaping and literals', () => {
    const input = JSON.parse(
      '{"numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],' +
        ' "string": "\\u20ac$\\u000F\\u000aA\'\\u0042\\u0022\\u005c\\\\\\"\\/",' +
        ' "literals": [null, true, false]}',
    );
    expect(canonicalize(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],' +
        '"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('section 3.2.3 example: members sorted by UTF-16 code units', () => {
    const input = JSON.parse(
      '{"\\u20ac": "Euro Sign", "\\r": "Carriage Return", "\\ufb33": "Hebrew Letter Dalet With Dagesh",' +
        ' "1": "One", "\\ud83d\\ude00": "Emoji: Grinning Face", "\\u0080": "Control",' +
        ' "\\u00f6": "Latin Small Letter O With Diaeresis"}',
    );
    // Compared as text: re-parsing would let JS move the integer-like key "1" to the front.
    expect(canonicalize(input)).toBe(
      '{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With Diaeresis",' +
        '"\u20ac":"Euro Sign","\ud83d\ude00":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}',
    );
  });

  it('section 3.2.4 example: UTF-8 bytes of the canonical form', () => {
    const bytes = canonicalBytes({ '€': '😀' });
    expect(Buffer.from(bytes).toString('hex')).toBe('7b22e282ac223a22f09f9880227d');
  });

  it('appendix B: number serialisation samples', () => {
    const samples: [string, string][] = [
      ['0000000000000000', '0'],
      ['8000000000000000', '0'],
      ['0000000000000001', '5e-324'],
      ['8000000000000001', '-5e-324'],
      ['7fefffffffffffff', '1.7976931348623157e+308'],
      ['ffefffffffffffff', '-1.7976931348623157e+308'],
      ['4340000000000000', '9007199254740992'],
      ['c340000000000000', '-9007199254740992'],
      ['4430000000000000', '295147905179352830000'],
      ['44b52d02c7e14af5', '9.999999999999997e+22'],
      ['44b52d02c7e14af6', '1e+23'],
      ['44b52d02c7e14af7', '1.0000000000000001e+23'],
      ['444b1ae4d6e2ef4e', '999999999999999700000'],
      ['444b1ae4d6e2ef4f', '999999999999999900000'],
      ['444b1ae4d6e2ef50', '1e+21'],
      ['3eb0c6f7a0b5ed8c', '9.999999999999997e-7'],
      ['3eb0c6f7a0b5ed8d', '0.000001'],
      ['41b3de4355555553', '333333333.3333332'],
      ['41b3de4355555554', '333333333.33333325'],
      ['41b3de4355555555', '333333333.3333333'],
      ['41b3de4355555556', '333333333.3333334'],
      ['41b3de4355555557', '333333333.33333343'],
      ['becbf647612f3696', '-0.0000033333333333333333'],
      ['43143ff3c1cb0959', '1424953923781206.2'],
    ];
    for (const [bits, expected] of samples) {
      expect(canonicalize(fromBits(bits)), bits).toBe(expected);
    }
  });

  it('serialises -0 as 0 and 1e30 as 1e+30', () => {
    expect(canonicalize(JSON.parse('[-0, 1e30, 333333333.33333329]'))).toBe('[0,1e+30,333333333.3333333]');
  });

  it('omits undefined object members like JSON.stringify', () => {
    expect(canonicalize({ b: undefined, a: 1 })).toBe('{"a":1}');
  });

  it.each([
    ['NaN', Number.NaN, '""'],
    ['Infinity', { a: Number.POSITIVE_INFINITY }, '"/a"'],
    ['bigint', { n: 1n }, '"/n"'],
    ['function', { f: () => 1 }, '"/f"'],
    ['undefined at the root', undefined, '""'],
    ['undefined in an array', [1, undefined], '"/1"'],
    ['lone surrogate', { s: '\ud800x' }, '"/s"'],
    ['Date object', { d: new Date(0) }, '"/d"'],
  ])('rejects %s with CPRC_INPUT_INVALID naming the member', (_name, value, pointer) => {
    let caught: unknown;
    try {
      canonicalize(value);
    } catch (error) {
      caught = error;
    }
    expect(isCprcError(caught, 'CPRC_INPUT_INVALID')).toBe(true);
    expect((caught as Error).message).toContain(`value at ${pointer}`);
  });

  it('rejects a circular structure', () => {
    const a: Record<string, unknown> = {};
    a.self = a;
    expect(() => canonicalize(a)).toThrow(/circular/);
  });
});
