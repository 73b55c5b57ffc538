import { describe, expect, it } from 'vitest';
import { remittanceLength } from '../../../src/validator/rules/remittance-length.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.6, 2.7 and 8: remittance_info is a string of at most 140 code points, reported under
// the applied sub-interface's requirement (2.7 for the account one, 2.6 otherwise).
const IBAN = 'CPR-2.6-REMITTANCE-LENGTH';
const ACCOUNT = 'CPR-2.7-REMITTANCE-LENGTH';
const PILE = '\u{1F4A9}';
const iban = (remittance_info: unknown): Record<string, unknown> => ({
  rail_hint: 'SEPA_CT',
  iban: 'DE89370400440532013000',
  beneficiary_name: 'x',
  remittance_info,
});
const account = (remittance_info: unknown): Record<string, unknown> => ({
  rail_hint: 'ACH',
  account_number: '1',
  beneficiary_name: 'x',
  remittance_info,
});

describe('remittance-length', () => {
  it('accepts an absent remittance_info and up to 140 code points', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(remittanceLength, { rail_hint: 'ACH' }, [], { mode });
      for (const text of ['', 'a'.repeat(140), PILE.repeat(140)]) {
        expectFindings(remittanceLength, iban(text), [], { mode });
        expectFindings(remittanceLength, account(text), [], { mode });
      }
    }
  });

  it('refuses 141 code points under the applied sub-interface requirement, naming the bound', () => {
    for (const text of ['a'.repeat(141), PILE.repeat(141)]) {
      const [f] = expectFindings(remittanceLength, iban(text), [[IBAN, '/remittance_info']]);
      expect(f?.message).toContain('140');
      expectFindings(remittanceLength, account(text), [[ACCOUNT, '/remittance_info']]);
      expectFindings(remittanceLength, { remittance_info: text }, [[IBAN, '/remittance_info']]);
      expectFindings(
        remittanceLength,
        { rail_hint: 'OPEN', account_number: '1', beneficiary_name: 'x', remittance_info: text },
        [[ACCOUNT, '/remittance_info']],
      );
    }
  });

  it('refuses a non-string remittance_info', () => {
    for (const v of [null, 7, {}, ['x']]) {
      expectFindings(remittanceLength, iban(v), [[IBAN, '/remittance_info']]);
      expectFindings(remittanceLength, account(v), [[ACCOUNT, '/remittance_info']]);
    }
  });
});
