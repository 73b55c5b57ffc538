import { describe, expect, it } from 'vitest';
import { railHintEnum } from '../../../src/validator/rules/rail-hint-enum.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.4 and invariant 7: a payee emits one of the eight values (error); a wallet tolerates
// any other string (warning); a non-string is an error in both readings.
const REQ = 'CPR-2.4-RAIL-HINT-ENUM';
const HINTS = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI', 'SWIFT', 'OPEN'];

describe('rail-hint-enum', () => {
  it('accepts the eight values and an absent rail_hint', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(railHintEnum, {}, [], { mode });
      for (const h of HINTS) expectFindings(railHintEnum, { rail_hint: h }, [], { mode });
    }
  });

  it('payee: refuses any other string, naming it; wallet: warns', () => {
    for (const h of ['on_chain', 'SEPA', 'FEDNOW', '', ' ACH', 'ACH ']) {
      const [f] = expectFindings(railHintEnum, { rail_hint: h }, [[REQ, '/rail_hint']], { mode: 'payee' });
      expect(f?.message).toContain(JSON.stringify(h));
      expect(f?.message).toContain(HINTS.join(', ')); // names the allowed values
      expectFindings(railHintEnum, { rail_hint: h }, [[REQ, '/rail_hint', 'warning']], { mode: 'wallet' });
    }
  });

  it('refuses a non-string in both readings', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      for (const h of [null, 1, true, ['ACH'], {}])
        expectFindings(railHintEnum, { rail_hint: h }, [[REQ, '/rail_hint']], { mode });
    }
  });
});
