import { describe, expect, it } from 'vitest';
import { payeeDisplayName } from '../../../src/validator/rules/payee-display-name.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.2 (AMB-1: a missing display_name is a payee warning) and profile section 2 (a present
// display_name is not empty nor only white space: a payee PROFILE error; a wallet accepts both).
const PRESENT = 'CPR-2.2-OPTIONAL-FIELD-PRESENT';
const BLANK = 'PRF-2-DISPLAY-NAME-NOT-BLANK';
const AT = '/payee/display_name';
const doc = (display_name: unknown): Record<string, unknown> => ({
  payee: { display_name, rail_address: {} },
});

describe('payee-display-name', () => {
  it('payee: accepts a name with any visible character', () => {
    for (const name of ['Example GmbH', 'x', ' x ', '\u00a0x', '0'])
      expectFindings(payeeDisplayName, doc(name), []);
  });

  it('payee: warns on a missing display_name', () => {
    expectFindings(payeeDisplayName, { payee: { rail_address: {} } }, [[PRESENT, AT, 'warning']]);
  });

  it('payee: refuses an empty or white-space-only name (Unicode White_Space), two messages', () => {
    for (const name of ['', ' ', '   ', '\t\n', '\u00a0', '\u2003', '\u3000', ' \u2028 ']) {
      const [f] = expectFindings(payeeDisplayName, doc(name), [[BLANK, AT]]);
      expect(f?.message).toContain(JSON.stringify(name));
    }
  });

  it('payee: leaves a non-string name to the schema, and a missing payee object', () => {
    for (const v of [null, 1, ['x'], [], [' '], {}]) expectFindings(payeeDisplayName, doc(v), []);
    expectFindings(payeeDisplayName, {}, []);
    expectFindings(payeeDisplayName, { payee: 'x' }, []);
  });

  it('wallet: reports nothing', () => {
    for (const d of [doc(''), doc(' '), { payee: {} }])
      expectFindings(payeeDisplayName, d, [], { mode: 'wallet' });
  });
});
