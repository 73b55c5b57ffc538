import { describe, expect, it } from 'vitest';
import { railAddressAgrees } from '../../../src/validator/rules/rail-address-agrees.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.2 (payee.rail_address carries the rail's address fields: SPEC error when an
// identifying one is missing) and profile section 2 (top-level fields are authoritative; every
// address field present in both places agrees: PROFILE error). EVM hex and IBAN/BIC letters
// compare without case; chain_id is compared as a chain by chain-id-agrees, not here.

const CARRIES = 'CPR-2.2-RAIL-ADDRESS';
const AGREES = 'PRF-2-RAIL-ADDRESS-AGREES';
const R = '/payee/rail_address';
const EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

const SETS: Record<string, Record<string, unknown>> = {
  ON_CHAIN: { chain_id: '1', receiver_address: EVM },
  SEPA_CT: { iban: 'DE89370400440532013000', bic: 'DEUTDEFF' },
  ACH: { account_number: '000123456789', routing_code: '021000021', routing_code_type: 'ABA' },
  PIX: { key_type: 'EMAIL', key_value: 'Pay@example.com' },
};
const doc = (
  hint: string,
  ra: unknown,
  top: Record<string, unknown> = SETS[hint] as Record<string, unknown>,
): Record<string, unknown> => ({
  rail_hint: hint,
  beneficiary_name: 'x',
  ...top,
  payee: { rail_address: ra },
});
const without = (o: Record<string, unknown>, k: string): Record<string, unknown> => {
  const c = { ...o };
  delete c[k];
  return c;
};

describe('rail-address-agrees', () => {
  it('accepts a rail_address repeating the top-level fields, in both readings', () => {
    for (const [hint, set] of Object.entries(SETS)) {
      expectFindings(railAddressAgrees, doc(hint, { ...set }), []);
      expectFindings(railAddressAgrees, doc(hint, { ...set }), [], { mode: 'wallet' });
    }
  });

  it('checks nothing without a rail_address object or without a sub-interface that applies', () => {
    expectFindings(railAddressAgrees, doc('SEPA_CT', undefined), []);
    expectFindings(railAddressAgrees, doc('SEPA_CT', 'DE89'), []);
    expectFindings(railAddressAgrees, doc('SEPA_CT', null), []);
    expectFindings(railAddressAgrees, { ...(SETS.SEPA_CT as object), payee: { rail_address: {} } }, []); // OPEN, no beneficiary_name: none applies
    expectFindings(railAddressAgrees, doc('BOGUS', {}, SETS.SEPA_CT), []);
  });

  it('refuses a rail_address missing an identifying field the top level has (SPEC)', () => {
    const cases: [string, string[]][] = [
      ['ON_CHAIN', ['receiver_address', 'chain_id']],
      ['SEPA_CT', ['iban']],
      ['ACH', ['account_number']],
      ['PIX', ['key_type', 'key_value']],
    ];
    for (const [hint, primary] of cases) {
      const set = SETS[hint] as Record<string, unknown>;
      const found = expectFindings(
        railAddressAgrees,
        doc(hint, {}),
        primary.map((f) => [CARRIES, `${R}/${f}`]),
      );
      for (const [i, f] of primary.entries()) expect(found[i]?.message).toContain(f);
      for (const f of primary)
        expectFindings(railAddressAgrees, doc(hint, without(set, f)), [[CARRIES, `${R}/${f}`]]);
    }
    // a field the top level lacks too is the sub-interface rule's finding, not this one's
    expectFindings(
      railAddressAgrees,
      doc('ON_CHAIN', { receiver_address: EVM }, { receiver_address: EVM }),
      [],
    );
    // the other address fields (bic, routing_code) are not required in rail_address
    expectFindings(railAddressAgrees, doc('SEPA_CT', { iban: 'DE89370400440532013000' }), []);
    expectFindings(railAddressAgrees, doc('ACH', { account_number: '000123456789' }), []);
  });

  it('refuses every address field that differs from the top level (PROFILE), naming both values', () => {
    const [f] = expectFindings(
      railAddressAgrees,
      doc('ON_CHAIN', { chain_id: '1', receiver_address: '0x27b1fdb04752bbc536007a920d24acb045561c26' }),
      [[AGREES, `${R}/receiver_address`]],
    );
    expect(f?.message).toContain('0x27b1fdb04752bbc536007a920d24acb045561c26');
    expect(f?.message).toContain(EVM);
    expectFindings(railAddressAgrees, doc('SEPA_CT', { iban: 'GB82WEST12345698765432', bic: 'DEUTDEFF' }), [
      [AGREES, `${R}/iban`],
    ]);
    expectFindings(
      railAddressAgrees,
      doc('SEPA_CT', { iban: 'DE89370400440532013000', bic: 'DEUTDEFF500' }),
      [[AGREES, `${R}/bic`]],
    );
    expectFindings(
      railAddressAgrees,
      doc('ACH', { account_number: '123456789', routing_code: '021000021', routing_code_type: 'ABA' }),
      [[AGREES, `${R}/account_number`]],
    );
    expectFindings(
      railAddressAgrees,
      doc('ACH', { account_number: '000123456789', routing_code: '021000022', routing_code_type: 'aba' }),
      [
        [AGREES, `${R}/routing_code`],
        [AGREES, `${R}/routing_code_type`],
      ],
    );
    expectFindings(railAddressAgrees, doc('PIX', { key_type: 'PHONE', key_value: 'pay@example.com' }), [
      [AGREES, `${R}/key_type`],
      [AGREES, `${R}/key_value`],
    ]);
    expectFindings(railAddressAgrees, doc('ACH', { ...SETS.ACH, account_number: 123456789 }), [
      [AGREES, `${R}/account_number`],
    ]);
    expectFindings(
      railAddressAgrees,
      doc('ACH', { ...SETS.ACH, account_number: 1 }, { ...SETS.ACH, account_number: 1 }),
      [],
    );
    expectFindings(
      railAddressAgrees,
      doc('ACH', { ...SETS.ACH, account_number: 1 }, { ...SETS.ACH, account_number: 2 }),
      [[AGREES, `${R}/account_number`]],
    );
  });

  it('compares EVM addresses, IBANs and BICs without case; every other field exactly', () => {
    expectFindings(
      railAddressAgrees,
      doc('ON_CHAIN', { chain_id: '1', receiver_address: EVM.toLowerCase() }),
      [],
    );
    expectFindings(
      railAddressAgrees,
      doc('SEPA_CT', { iban: 'de89370400440532013000', bic: 'deutdeff' }),
      [],
    );
    expectFindings(railAddressAgrees, doc('ACH', { ...SETS.ACH, routing_code_type: 'aba' }), [
      [AGREES, `${R}/routing_code_type`],
    ]);
    expectFindings(railAddressAgrees, doc('PIX', { key_type: 'email', key_value: 'pay@example.com' }), [
      [AGREES, `${R}/key_type`],
      [AGREES, `${R}/key_value`],
    ]);
  });

  it('compares only fields present in both places; non-strings exactly', () => {
    expectFindings(
      railAddressAgrees,
      doc('SEPA_CT', { iban: 'DE89370400440532013000', bic: 'DEUTDEFF' }, { iban: 'DE89370400440532013000' }),
      [],
    );
    expectFindings(
      railAddressAgrees,
      doc('ACH', { ...SETS.ACH, routing_code_type: 'IFSC' }, { account_number: '000123456789' }),
      [],
    );
    expectFindings(railAddressAgrees, doc('SEPA_CT', { iban: 5, bic: 7 }, { iban: 5, bic: 7 }), []);
    expectFindings(
      railAddressAgrees,
      doc('SEPA_CT', { iban: 'x', bic: null }, { iban: 5, bic: 'DEUTDEFF' }),
      [
        [AGREES, `${R}/iban`],
        [AGREES, `${R}/bic`],
      ],
    );
    expectFindings(
      railAddressAgrees,
      doc('ON_CHAIN', { chain_id: '1', receiver_address: 1 }, { chain_id: '1', receiver_address: 1 }),
      [],
    );
  });

  it('leaves chain_id to chain-id-agrees', () => {
    expectFindings(railAddressAgrees, doc('ON_CHAIN', { chain_id: '137', receiver_address: EVM }), []);
    expectFindings(railAddressAgrees, doc('ON_CHAIN', { chain_id: 'eip155:1', receiver_address: EVM }), []);
  });
});
