/**
 * The token randomness tests of the payee suite (suites/payee/_support/randomness.ts): CSPRNG tokens of
 * the profile's shapes never trip them, and each kind of pattern does.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { base32Lower } from '../../../src/reference/payee/index.js';
import { randomnessProblems, tokenBits } from '../../../suites/payee/_support/randomness.js';

const SAMPLE = 200;
const base32Tokens = (bytes: number) => Array.from({ length: SAMPLE }, () => base32Lower(randomBytes(bytes)));
const hexTokens = (bytes: number) => Array.from({ length: SAMPLE }, () => randomBytes(bytes).toString('hex'));

/** base32 of consecutive values of a counter starting at `start`, `bytes` wide, step `step`. */
function counterTokens(start: bigint, step: bigint, bytes = 20): string[] {
  return Array.from({ length: SAMPLE }, (_, i) =>
    base32Lower(Buffer.from((start + BigInt(i) * step).toString(16).padStart(bytes * 2, '0'), 'hex')),
  );
}

describe('token randomness tests', () => {
  it('pass CSPRNG tokens of every shape the profile allows (50 samples of 200 each)', () => {
    for (let i = 0; i < 50; i++) {
      expect(randomnessProblems(base32Tokens(20))).toEqual([]); // 160 bits, the reference
      expect(randomnessProblems(base32Tokens(16))).toEqual([]); // 128 bits, 26 chars with 2 pad bits
      expect(randomnessProblems(hexTokens(16))).toEqual([]); // 128 bits of hex
    }
  });

  it('read RFC 4648 bits and drop the padding bits of a partial byte', () => {
    expect(tokenBits('mzxw6ytboi', false)).toBe(
      Buffer.from('foobar').reduce((s, b) => s + b.toString(2).padStart(8, '0'), ''),
    );
    expect(tokenBits('ff00', true)).toBe('1111111100000000');
  });

  it('trip on a counter (shared prefix, adjacent difference of 1)', () => {
    const problems = randomnessProblems(counterTokens(BigInt(`0x${randomBytes(19).toString('hex')}`), 1n));
    expect(problems.join('\n')).toMatch(/share their first \d+ bits/);
    expect(problems.join('\n')).toMatch(/differ by 1 as integers/);
  });

  it('trip on a fixed large stride', () => {
    const problems = randomnessProblems(counterTokens(12345n, 2n ** 150n + 7n));
    expect(problems.join('\n')).toMatch(/fixed stride/);
  });

  it('trip on a repeated token', () => {
    const tokens = base32Tokens(20);
    tokens[150] = tokens[3] as string;
    expect(randomnessProblems(tokens).join('\n')).toMatch(/was issued twice/);
  });

  it('trip on biased bits (monobit) and on alternating bits (runs)', () => {
    const biased = Array.from({ length: SAMPLE }, () => {
      const b = randomBytes(20);
      for (let i = 0; i < b.length; i++) b[i] = (b[i] ?? 0) | ((randomBytes(1)[0] ?? 0) & 0x11); // more ones
      return base32Lower(b);
    });
    expect(randomnessProblems(biased).join('\n')).toMatch(/monobit test/);
    const alternating = Array.from({ length: SAMPLE }, () => {
      const b = randomBytes(20);
      for (let i = 0; i < b.length; i++) if (i % 2 === 0) b[i] = 0x55; // half the bytes 01010101
      return base32Lower(b);
    });
    expect(randomnessProblems(alternating).join('\n')).toMatch(/runs test/);
  });

  it('say so when the tokens are in neither alphabet', () => {
    expect(randomnessProblems(['ABC', 'DEF'])).toEqual([
      'the tokens are neither all lowercase hex nor all lowercase base32, so their bits cannot be read',
    ]);
  });
});
