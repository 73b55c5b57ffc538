import { describe, expect, it } from 'vitest';
import { SUB_INTERFACES } from '../../../src/reference/wallet/rails.js';

// The field tables of spec 2.5-2.8, written out here as the spec gives them (rail_hint, required of
// an on-chain request, is a base member the wallet reads apart and never copies as a field), and
// the rails each sub-interface serves (profile section 2).
const SPEC = {
  onchain: {
    section: '2.5',
    required: ['chain_id', 'receiver_address'],
    optional: ['domain_separator', 'order_reference', 'acquirer_id', 'contract_address'],
    rails: ['ON_CHAIN'],
  },
  iban: {
    section: '2.6',
    required: ['iban', 'beneficiary_name'],
    optional: ['bic', 'remittance_info', 'end_to_end_id', 'purpose_code'],
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT'],
  },
  account: {
    section: '2.7',
    required: ['account_number', 'beneficiary_name'],
    optional: ['routing_code', 'routing_code_type', 'bank_name', 'remittance_info', 'end_to_end_id'],
    rails: ['ACH'],
  },
  'instant-key': {
    section: '2.8',
    required: ['key_type', 'key_value'],
    optional: ['beneficiary_name', 'txid'],
    rails: ['PIX', 'UPI'],
  },
};

describe('SUB_INTERFACES, the field tables the wallet derives by', () => {
  it.each(Object.keys(SPEC))('%s: the required and optional fields of the spec, each once', (sub) => {
    const expected = SPEC[sub as keyof typeof SPEC];
    const actual = SUB_INTERFACES[sub as keyof typeof SUB_INTERFACES];
    expect(actual.section).toBe(expected.section);
    expect([...actual.required].sort()).toEqual([...expected.required].sort());
    expect([...actual.optional].sort()).toEqual([...expected.optional].sort());
    expect([...actual.rails].sort()).toEqual([...expected.rails].sort());
  });

  it('has exactly the four sub-interfaces', () => {
    expect(Object.keys(SUB_INTERFACES).sort()).toEqual(Object.keys(SPEC).sort());
  });
});
