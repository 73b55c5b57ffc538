import { describe, expect, it } from 'vitest';
import { purposeCode } from '../../../src/validator/rules/purpose-code.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.6 with profile section 2: purpose_code is 1 to 4 upper-case letters or digits (SPEC
// error otherwise, both readings); a code absent from the published list is a warning. Checked
// under the IBAN sub-interface or when none applies.
const REQ = 'CPR-2.6-PURPOSE-CODE';
const iban = (purpose_code: unknown, hint = 'SEPA_CT'): Record<string, unknown> => ({
  rail_hint: hint,
  iban: 'DE89370400440532013000',
  beneficiary_name: 'x',
  purpose_code,
});

describe('purpose-code', () => {
  it('accepts a listed code and an absent one', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const code of ['SUPP', 'SALA', 'GDDS']) expectFindings(purposeCode, iban(code), [], { mode });
      expectFindings(purposeCode, iban(undefined), [], { mode });
    }
  });

  it('warns on a well-formed code of 1 to 4 characters absent from the list, naming it', () => {
    for (const code of ['A', 'ZZ', 'Z9Z', 'ZZZZ', '0000']) {
      const [f] = expectFindings(purposeCode, iban(code), [[REQ, '/purpose_code', 'warning']]);
      expect(f?.message).toContain(code);
    }
  });

  it('refuses a malformed code or a non-string in both readings', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const code of [
        '',
        'supp',
        'Supp',
        'SUPPL',
        'SU P',
        ' SUP',
        'SUP ',
        'SU-P',
        'SUPP\n',
        7,
        null,
        ['SUPP'],
      ]) {
        expectFindings(purposeCode, iban(code), [[REQ, '/purpose_code']], { mode });
      }
    }
  });

  it('checks under the IBAN sub-interface or none; not under another', () => {
    expectFindings(purposeCode, iban('supp', 'SWIFT'), [[REQ, '/purpose_code']]);
    expectFindings(purposeCode, { purpose_code: 'supp' }, [[REQ, '/purpose_code']]);
    expectFindings(purposeCode, { rail_hint: 'BOGUS', purpose_code: 'supp' }, [[REQ, '/purpose_code']]);
    expectFindings(purposeCode, { rail_hint: 'ACH', purpose_code: 'supp' }, []);
    expectFindings(
      purposeCode,
      { rail_hint: 'PIX', key_type: 'EMAIL', key_value: 'x', purpose_code: 'supp' },
      [],
    );
    expectFindings(purposeCode, { rail_hint: 'ON_CHAIN', purpose_code: 'supp' }, []);
  });
});
