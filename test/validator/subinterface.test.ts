import { describe, expect, it } from 'vitest';
import { beginDocumentMemo, endDocumentMemo } from '../../src/validator/memo.js';
import { appliedSubInterface, isCompleteIn, selectSubInterface } from '../../src/validator/subinterface.js';
import { viewOf } from '../../src/validator/view.js';

const ONCHAIN = { rail_hint: 'ON_CHAIN', chain_id: 'eip155:1', receiver_address: '0xabc' };
const IBAN = { iban: 'DE89370400440532013000', beneficiary_name: 'Shop' };
const ACCOUNT = { account_number: '123', beneficiary_name: 'Shop' };
const KEY = { key_type: 'EMAIL', key_value: 'a@b.c' };

describe('isCompleteIn: every required field of the sub-interface (CPR-1.0 2.5-2.8)', () => {
  const cases: [Parameters<typeof isCompleteIn>[1], Record<string, unknown>][] = [
    ['onchain', ONCHAIN],
    ['iban', IBAN],
    ['account', ACCOUNT],
    ['instant-key', KEY],
  ];
  it.each(cases)('%s: complete with each field, incomplete without any one, or with it null', (sub, full) => {
    expect(isCompleteIn(viewOf(full), sub)).toBe(true);
    for (const f of Object.keys(full)) {
      const { [f]: _, ...without } = full;
      expect(isCompleteIn(viewOf(without), sub), `${sub} without ${f}`).toBe(false);
      expect(isCompleteIn(viewOf({ ...full, [f]: null }), sub), `${sub} with ${f} null`).toBe(false);
      expect(isCompleteIn(viewOf({ ...full, [f]: undefined }), sub), `${sub} with ${f} undefined`).toBe(
        false,
      );
      // any other value counts as present (its form is other rules' matter)
      expect(isCompleteIn(viewOf({ ...full, [f]: '' }), sub)).toBe(true);
      expect(isCompleteIn(viewOf({ ...full, [f]: 0 }), sub)).toBe(true);
    }
    expect(isCompleteIn(viewOf(Object.create(full)), sub)).toBe(false);
  });

  it('one sub-interface complete says nothing of the others', () => {
    for (const [sub, full] of cases) {
      for (const [other] of cases)
        if (other !== sub) expect(isCompleteIn(viewOf(full), other), `${other} in ${sub}`).toBe(false);
    }
  });
});

describe('selectSubInterface (profile section 2)', () => {
  it.each([
    ['ON_CHAIN', 'onchain'],
    ['SEPA_CT', 'iban'],
    ['SEPA_INST', 'iban'],
    ['SWIFT', 'iban'],
    ['ACH', 'account'],
    ['PIX', 'instant-key'],
    ['UPI', 'instant-key'],
  ])('rail_hint %s names %s, whatever fields are there', (hint, sub) => {
    expect(selectSubInterface({ rail_hint: hint })).toEqual({ kind: 'named', hint, sub });
    expect(selectSubInterface({ rail_hint: hint, ...IBAN, ...KEY })).toEqual({ kind: 'named', hint, sub });
    expect(appliedSubInterface({ rail_hint: hint })).toBe(sub);
  });

  it('OPEN or no rail_hint: the complete ones among IBAN, account and instant-key, in that order', () => {
    for (const hint of [{}, { rail_hint: 'OPEN' }]) {
      expect(selectSubInterface({ ...hint })).toEqual({ kind: 'open', complete: [] });
      expect(selectSubInterface({ ...hint, ...IBAN })).toEqual({ kind: 'open', complete: ['iban'] });
      expect(selectSubInterface({ ...hint, ...ACCOUNT })).toEqual({ kind: 'open', complete: ['account'] });
      expect(selectSubInterface({ ...hint, ...KEY })).toEqual({ kind: 'open', complete: ['instant-key'] });
      expect(selectSubInterface({ ...hint, ...KEY, ...ACCOUNT, ...IBAN })).toEqual({
        kind: 'open',
        complete: ['iban', 'account', 'instant-key'],
      });
    }
    // on-chain needs rail_hint ON_CHAIN (spec 2.5)
    expect(selectSubInterface({ chain_id: 'eip155:1', receiver_address: '0xabc' })).toEqual({
      kind: 'open',
      complete: [],
    });
  });

  it('any other rail_hint, or one that is not a string, selects nothing', () => {
    for (const hint of [
      'WIRE',
      'open',
      'on_chain',
      '',
      'toString',
      'constructor',
      '__proto__',
      null,
      5,
      ['ACH'],
      { x: 1 },
    ]) {
      expect(selectSubInterface({ rail_hint: hint, ...IBAN }), JSON.stringify(hint)).toEqual({
        kind: 'unknown',
        hint,
      });
      expect(appliedSubInterface({ rail_hint: hint, ...IBAN })).toBeNull();
    }
  });

  it('a document that is not an object has no complete sub-interface', () => {
    for (const doc of [undefined, null, 'x', 42, [IBAN]]) {
      expect(selectSubInterface(doc)).toEqual({ kind: 'open', complete: [] });
      expect(appliedSubInterface(doc)).toBeNull();
    }
  });

  it('appliedSubInterface: the one complete sub-interface under OPEN, else none', () => {
    expect(appliedSubInterface(IBAN)).toBe('iban');
    expect(appliedSubInterface({ rail_hint: 'OPEN', ...ACCOUNT })).toBe('account');
    expect(appliedSubInterface(KEY)).toBe('instant-key');
    expect(appliedSubInterface({})).toBeNull();
    expect(appliedSubInterface({ ...IBAN, ...KEY })).toBeNull();
    expect(appliedSubInterface({ ...IBAN, ...ACCOUNT })).toBeNull();
  });

  it('is computed once per document within one validation', () => {
    const doc = { ...IBAN };
    expect(selectSubInterface(doc)).not.toBe(selectSubInterface(doc));
    beginDocumentMemo(doc);
    try {
      const s = selectSubInterface(doc);
      expect(selectSubInterface(doc)).toBe(s);
      expect(s).toEqual({ kind: 'open', complete: ['iban'] });
      const other = { ...KEY };
      expect(selectSubInterface(other)).toEqual({ kind: 'open', complete: ['instant-key'] });
    } finally {
      endDocumentMemo();
    }
  });
});
