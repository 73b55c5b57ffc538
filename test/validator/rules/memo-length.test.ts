import { describe, expect, it } from 'vitest';
import { memoLength } from '../../../src/validator/rules/memo-length.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.1 and 8: memo is a string of at most 140 characters, counted in Unicode code points
// (profile section 2), not UTF-16 units.
const REQ = 'CPR-2.1-MEMO-LENGTH';
const TYPES = 'CPR-2.1-FIELD-TYPES';
const PILE = '\u{1F4A9}'; // one code point, two UTF-16 units

describe('memo-length', () => {
  it('accepts an absent memo and memos up to 140 code points, whatever their UTF-16 length', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(memoLength, {}, [], { mode });
      for (const memo of [
        '',
        'x',
        'a'.repeat(139),
        'a'.repeat(140),
        PILE.repeat(140),
        `${'é'.repeat(70)}${PILE.repeat(70)}`,
      ]) {
        expectFindings(memoLength, { memo }, [], { mode });
      }
    }
  });

  it('refuses 141 code points and more, naming the count and the bound', () => {
    for (const memo of ['a'.repeat(141), PILE.repeat(141), `${'a'.repeat(140)}${PILE}`, 'a'.repeat(1000)]) {
      const [f] = expectFindings(memoLength, { memo }, [[REQ, '/memo']]);
      expect(f?.message).toContain('140');
    }
    const [f] = expectFindings(memoLength, { memo: PILE.repeat(141) }, [[REQ, '/memo']], { mode: 'wallet' });
    expect(f?.message).toContain('141');
  });

  it('refuses a memo that is not a string', () => {
    for (const memo of [null, 1, true, {}, ['x']]) expectFindings(memoLength, { memo }, [[TYPES, '/memo']]);
  });
});
