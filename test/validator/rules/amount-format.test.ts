import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/model/finding.js';
import { amountFormat } from '../../../src/validator/rules/amount-format.js';
import { type Expected, expectFindings, runRule } from './run-rule.js';

// CPR-1.0 2.3 (an integer count of the asset's smallest unit) and profile section 1 (a digit
// string, no sign, no leading zero, no fraction, 1 to 2^256 - 1; a JSON number: in wallet mode a
// safe integer >= 1 is a warning, any other number an error; in payee mode every number an error).

const UNIT = 'CPR-2.3-AMOUNT-SMALLEST-UNIT';
const FORMAT = 'PRF-1-AMOUNT-FORMAT';
const SAFE = 'PRF-1-AMOUNT-NUMBER-SAFE';
const UNSAFE = 'PRF-1-AMOUNT-NUMBER-UNSAFE';
const AT = '/value/amount';

const MAX = 2n ** 256n - 1n;
const doc = (amount: unknown): Record<string, unknown> => ({
  value: { amount, asset: { type: 'fiat', code: 'EUR' } },
});
const both = (amount: unknown, expected: readonly Expected[]): Finding[] => {
  expectFindings(amountFormat, doc(amount), expected, { mode: 'payee' });
  return expectFindings(amountFormat, doc(amount), expected, { mode: 'wallet' });
};

describe('amount-format: digit strings', () => {
  it('accepts an absent amount (open amount) and a document without value', () => {
    both(undefined, []);
    expectFindings(amountFormat, {}, []);
    expectFindings(amountFormat, { value: { asset: { type: 'fiat', code: 'EUR' } } }, []);
  });

  it('accepts 1, ordinary amounts and every length up to 78 digits within the bound', () => {
    for (const a of ['1', '9', '10', '1999', '123456789012345678901234567890']) both(a, []);
    both('9'.repeat(77), []); // 77 digits: always below 2^256 - 1
    both(MAX.toString(), []); // 78 digits: exactly the bound
    both((MAX - 1n).toString(), []);
    both(`1${'0'.repeat(77)}`, []); // 78 digits, the smallest
  });

  it('refuses a 78-digit string above 2^256 - 1 and any 79-digit one', () => {
    expect(MAX.toString()).toHaveLength(78);
    both((MAX + 1n).toString(), [[FORMAT, AT]]);
    both(`2${'0'.repeat(77)}`, [[FORMAT, AT]]);
    both('9'.repeat(78), [[FORMAT, AT]]);
    both(`1${'0'.repeat(78)}`, [[FORMAT, AT]]); // 79 digits
    both('9'.repeat(100), [[FORMAT, AT]]);
    const [f] = runRule(amountFormat, doc((MAX + 1n).toString()));
    expect(f?.message).toMatch(/2\^256/);
  });

  it('refuses zero and leading zeros (the form is canonical)', () => {
    const [zero] = both('0', [[FORMAT, AT]]);
    expect(zero?.message).toMatch(/\b1\b/); // names the bound
    const [lead] = both('01', [[FORMAT, AT]]);
    expect(lead?.message).toContain('"01"');
    both('00', [[FORMAT, AT]]);
    both('01', [[FORMAT, AT]]);
    both('0001999', [[FORMAT, AT]]);
    both(`0${MAX.toString()}`, [[FORMAT, AT]]); // 79 characters, leading zero
    both(`0${'0'.repeat(78)}`, [[FORMAT, AT]]);
  });

  it('refuses a fraction in any spelling as not a smallest-unit count (SPEC)', () => {
    for (const a of ['1.5', '1,5', '.5', '5.', '0.01', '+1.5', '-1.5', ' 1.5 ', '\t1.50\n', '10,00']) {
      both(a, [[UNIT, AT]]);
    }
  });

  it('refuses a negative amount as not a smallest-unit count (SPEC)', () => {
    for (const a of ['-1', '-0', '- 1', ' -5 ', '-123456']) both(a, [[UNIT, AT]]);
  });

  it('refuses every other non-digit string as a format error', () => {
    for (const a of [
      '',
      ' ',
      '.',
      ',',
      '-',
      '+1',
      ' 1',
      '1 ',
      '1 000',
      '1e3',
      '0x10',
      'abc',
      '1_000',
      'x1.5',
      '1.5x',
      '1.2.3',
      '1.5-',
      '--1',
      '-1-',
      'x-1',
      '-1x',
      '-a',
      '٣',
      '١٢',
    ]) {
      both(a, [[FORMAT, AT]]);
    }
  });
});

describe('amount-format: JSON numbers', () => {
  it('payee: any JSON number is a format error, a fraction or negative one a unit error', () => {
    for (const n of [1, 5, 1999, Number.MAX_SAFE_INTEGER, 0, 2 ** 53, 1e300]) {
      expectFindings(amountFormat, doc(n), [[FORMAT, AT]], { mode: 'payee' });
    }
    for (const n of [1.5, 0.1, -1, -1.5, -(2 ** 60)]) {
      expectFindings(amountFormat, doc(n), [[UNIT, AT]], { mode: 'payee' });
    }
  });

  it('wallet: a safe integer from 1 is accepted with a warning', () => {
    for (const n of [1, 2, 1999, Number.MAX_SAFE_INTEGER]) {
      const [f] = expectFindings(amountFormat, doc(n), [[SAFE, AT, 'warning']], { mode: 'wallet' });
      expect(f?.message).toContain(String(n));
    }
  });

  it('wallet: zero and integers beyond 2^53 - 1 are errors; fractions and negatives unit errors', () => {
    for (const n of [0, -0, 2 ** 53, 2 ** 53 + 2, 1e21, 1e300]) {
      expectFindings(amountFormat, doc(n), [[UNSAFE, AT]], { mode: 'wallet' });
    }
    for (const n of [0.5, 1.5, -1, -(2 ** 53), Number.NaN, Number.POSITIVE_INFINITY]) {
      expectFindings(amountFormat, doc(n), [[UNIT, AT]], { mode: 'wallet' });
    }
  });
});

describe('amount-format: other JSON values', () => {
  it('refuses true, null, an object and an array as not a smallest-unit count', () => {
    for (const v of [true, false, null, {}, [], ['1'], { amount: '1' }]) both(v, [[UNIT, AT]]);
  });
});
