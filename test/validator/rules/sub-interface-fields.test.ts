import { describe, expect, it } from 'vitest';
import { subInterfaceFields } from '../../../src/validator/rules/sub-interface-fields.js';
import { type Expected, expectFindings } from './run-rule.js';

// CPR-1.0 2.4-2.8 and profile section 2: a named rail_hint selects the sub-interface whose
// required fields must sit at the top level; with OPEN or no rail_hint exactly one of the IBAN,
// account and instant-key sets is complete (on-chain needs ON_CHAIN); whatever the rail_hint, a
// document completing none or two is invalid.

const EXACTLY_ONE = 'PRF-2-EXACTLY-ONE-SUB-INTERFACE';
const OPEN = 'PRF-2-OPEN-SUB-INTERFACE';
const ANY_HINT = 'PRF-2-ONE-SUB-INTERFACE-ANY-HINT';
const ONCHAIN = 'CPR-2.5-ONCHAIN-FIELDS';
const IBAN = 'CPR-2.6-IBAN-FIELDS';
const ACCOUNT = 'CPR-2.7-ACCOUNT-FIELDS';
const KEY = 'CPR-2.8-INSTANT-KEY-FIELDS';
const BY_HINT = 'CPR-2.4-SUB-INTERFACE-BY-HINT';
const TOP_LEVEL = 'CPR-2.4-SUB-INTERFACE-TOP-LEVEL';

const SETS = {
  onchain: { chain_id: '1', receiver_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' },
  iban: { iban: 'DE89370400440532013000', beneficiary_name: 'Example GmbH' },
  account: { account_number: '000123456789', beneficiary_name: 'Example LLC' },
  'instant-key': { key_type: 'EMAIL', key_value: 'pay@example.com' },
} as const;
const only = (field: string): Record<string, unknown> => ({ [field]: 'x' });
const run = (doc: Record<string, unknown>, expected: readonly Expected[]): void => {
  for (const mode of ['payee', 'wallet'] as const)
    expectFindings(subInterfaceFields, doc, expected, { mode });
};

describe('sub-interface-fields: a named rail_hint', () => {
  const HINTS: [string, keyof typeof SETS, string][] = [
    ['ON_CHAIN', 'onchain', ONCHAIN],
    ['SEPA_CT', 'iban', IBAN],
    ['SEPA_INST', 'iban', IBAN],
    ['SWIFT', 'iban', IBAN],
    ['ACH', 'account', ACCOUNT],
    ['PIX', 'instant-key', KEY],
    ['UPI', 'instant-key', KEY],
  ];

  it('accepts each hint with its own set complete', () => {
    for (const [hint, sub] of HINTS) run({ rail_hint: hint, ...SETS[sub] }, []);
  });

  it('reports each missing (or null) required field at its top-level path', () => {
    for (const [hint, sub, req] of HINTS) {
      const fields = Object.keys(SETS[sub]);
      run(
        { rail_hint: hint },
        fields.map((f) => [req, `/${f}`] as Expected),
      );
      for (const f of fields) {
        const partial: Record<string, unknown> = { rail_hint: hint, ...SETS[sub] };
        delete partial[f];
        run(partial, [[req, `/${f}`]]);
        run({ ...partial, [f]: null }, [[req, `/${f}`]]);
      }
    }
  });

  it('reads the fields at the top level only; one found in payee.rail_address only also breaks CPR-2.4-SUB-INTERFACE-TOP-LEVEL', () => {
    run({ rail_hint: 'SEPA_CT', payee: { rail_address: { ...SETS.iban } } }, [
      [IBAN, '/iban'],
      [TOP_LEVEL, '/iban'],
      [IBAN, '/beneficiary_name'],
      [TOP_LEVEL, '/beneficiary_name'],
    ]);
    // at the top level and in rail_address: no finding; in rail_address as null or absent: the missing field only
    run(
      { rail_hint: 'PIX', ...SETS['instant-key'], payee: { rail_address: { ...SETS['instant-key'] } } },
      [],
    );
    run({ rail_hint: 'PIX', key_type: 'EMAIL', payee: { rail_address: { key_value: null } } }, [
      [KEY, '/key_value'],
    ]);
    run({ rail_hint: 'PIX', key_type: 'EMAIL', payee: { rail_address: { key_type: 'EMAIL' } } }, [
      [KEY, '/key_value'],
    ]);
    run({ rail_hint: 'ON_CHAIN', chain_id: '1', payee: { rail_address: SETS.onchain } }, [
      [ONCHAIN, '/receiver_address'],
      [TOP_LEVEL, '/receiver_address'],
    ]);
    // a rail_address that is no object, or a payee that is none
    run({ rail_hint: 'ACH', payee: { rail_address: [SETS.account] } }, [
      [ACCOUNT, '/account_number'],
      [ACCOUNT, '/beneficiary_name'],
    ]);
    run({ rail_hint: 'ACH', payee: 'x' }, [
      [ACCOUNT, '/account_number'],
      [ACCOUNT, '/beneficiary_name'],
    ]);
  });

  it('refuses a document that also completes another address set, naming it', () => {
    const [f] = expectFindings(subInterfaceFields, { rail_hint: 'SEPA_CT', ...SETS.iban, ...SETS.account }, [
      [ANY_HINT, ''],
    ]);
    expect(f?.message).toContain('account_number + beneficiary_name'); // names the other set's fields
    const [g] = expectFindings(
      subInterfaceFields,
      { rail_hint: 'ACH', ...SETS.account, ...SETS.iban, ...SETS['instant-key'] },
      [[ANY_HINT, '']],
    );
    expect(g?.message).toContain('iban + beneficiary_name');
    expect(g?.message).toContain('key_type + key_value');
    const [h] = expectFindings(
      subInterfaceFields,
      { rail_hint: 'PIX', ...SETS['instant-key'], ...SETS.iban },
      [[ANY_HINT, '']],
    );
    expect(h?.message).toContain('PIX');
    run({ rail_hint: 'ACH', ...SETS.account, ...SETS['instant-key'] }, [[ANY_HINT, '']]);
    run({ rail_hint: 'ON_CHAIN', ...SETS.onchain, ...SETS['instant-key'] }, [[ANY_HINT, '']]);
    run({ rail_hint: 'PIX', ...SETS['instant-key'], ...SETS.iban, account_number: '1' }, [[ANY_HINT, '']]);
    // its own set incomplete and another complete: the rail_hint decides (CPR-2.4-SUB-INTERFACE-BY-HINT)
    const [, , b] = expectFindings(subInterfaceFields, { rail_hint: 'PIX', ...SETS.iban }, [
      [KEY, '/key_type'],
      [KEY, '/key_value'],
      [BY_HINT, '/rail_hint'],
    ]);
    expect(b?.message).toContain('iban + beneficiary_name');
    run({ rail_hint: 'SEPA_CT', ...SETS.account }, [
      [IBAN, '/iban'],
      [BY_HINT, '/rail_hint'],
    ]);
    run({ rail_hint: 'ACH', iban: 'DE89370400440532013000', beneficiary_name: 'x', account_number: null }, [
      [ACCOUNT, '/account_number'],
      [BY_HINT, '/rail_hint'],
    ]);
    // its own set incomplete and no other complete: the missing fields only
    run({ rail_hint: 'SEPA_CT', account_number: '1' }, [
      [IBAN, '/iban'],
      [IBAN, '/beneficiary_name'],
    ]);
  });

  it('does not count the selected set itself nor an incomplete other set', () => {
    run({ rail_hint: 'SEPA_CT', ...SETS.iban, account_number: '1' }, [[ANY_HINT, '']]); // account + beneficiary_name
    run({ rail_hint: 'SEPA_CT', ...SETS.iban, key_type: 'EMAIL' }, []);
    run({ rail_hint: 'ON_CHAIN', ...SETS.onchain, key_value: 'x', iban: null }, []);
  });
});

describe('sub-interface-fields: OPEN or no rail_hint', () => {
  for (const hint of [undefined, 'OPEN']) {
    const h = (doc: Record<string, unknown>): Record<string, unknown> =>
      hint === undefined ? doc : { rail_hint: hint, ...doc };

    it(`${hint ?? 'absent'}: accepts exactly one complete address set`, () => {
      run(h({ ...SETS.iban }), []);
      run(h({ ...SETS.account }), []);
      run(h({ ...SETS['instant-key'] }), []);
      run(h({ ...SETS['instant-key'], iban: 'x' }), []);
    });

    it(`${hint ?? 'absent'}: refuses none complete (PRF-2-OPEN when on-chain fields are there)`, () => {
      run(h({}), [[EXACTLY_ONE, '']]);
      run(h(only('iban')), [[EXACTLY_ONE, '']]);
      run(h({ key_type: 'EMAIL', beneficiary_name: 'x' }), [[EXACTLY_ONE, '']]);
      run(h({ ...SETS.onchain }), [[OPEN, '']]);
      run(h({ receiver_address: '0x00' }), [[OPEN, '']]);
      run(h({ chain_id: '1' }), [[EXACTLY_ONE, '']]);
    });

    it(`${hint ?? 'absent'}: refuses two or three complete sets, naming them`, () => {
      const [f] = expectFindings(subInterfaceFields, h({ ...SETS.iban, ...SETS['instant-key'] }), [
        [EXACTLY_ONE, ''],
      ]);
      expect(f?.message).toContain('iban');
      expect(f?.message).toContain('instant-key');
      run(h({ ...SETS.iban, ...SETS.account }), [[EXACTLY_ONE, '']]);
      run(h({ ...SETS.iban, ...SETS.account, ...SETS['instant-key'], ...SETS.onchain }), [[EXACTLY_ONE, '']]);
    });
  }

  it('says which reading it applied (OPEN or no rail_hint)', () => {
    const [open] = expectFindings(subInterfaceFields, { rail_hint: 'OPEN' }, [[EXACTLY_ONE, '']]);
    const [none] = expectFindings(subInterfaceFields, {}, [[EXACTLY_ONE, '']]);
    expect(open?.message).toContain('OPEN');
    expect(none?.message).not.toContain('OPEN');
    expect(none?.message).toContain('no rail_hint');
  });
});

describe('sub-interface-fields: an unknown rail_hint', () => {
  it('accepts exactly one complete set, refuses none or two', () => {
    for (const hint of ['BOGUS', 'sepa_ct', '', 42, null]) {
      run({ rail_hint: hint, ...SETS.account }, []);
      const [none] = expectFindings(subInterfaceFields, { rail_hint: hint }, [[ANY_HINT, '']]);
      const [two] = expectFindings(
        subInterfaceFields,
        { rail_hint: hint, ...SETS.account, ...SETS['instant-key'] },
        [[ANY_HINT, '']],
      );
      expect(none?.message).not.toEqual(two?.message);
      // the none message names the sets that would do; the two message the sets that are complete
      for (const set of [
        'iban + beneficiary_name',
        'account_number + beneficiary_name',
        'key_type + key_value',
      ]) {
        expect(none?.message).toContain(set);
      }
      // any one of them would do
      expect(none?.message).toContain('or key_type + key_value');
      expect(two?.message).toContain('account');
      expect(two?.message).toContain('instant-key');
      expect(two?.message).not.toContain('none');
      // on-chain fields do not complete a set without ON_CHAIN
      run({ rail_hint: hint, ...SETS.onchain }, [[ANY_HINT, '']]);
    }
  });
});
