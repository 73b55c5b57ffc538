import { describe, expect, it } from 'vitest';
import { bicValid } from '../../../src/validator/rules/bic-valid.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.6: bic (top level and payee.rail_address) is an ISO 9362 BIC: 4-letter institution,
// 2-letter country, 2-character location, optional 3-character branch.

const REQ = 'CPR-2.6-BIC-VALID';
const doc = (top: unknown, inner: unknown = top): Record<string, unknown> => ({
  rail_hint: 'SWIFT',
  bic: top,
  payee: { rail_address: { bic: inner } },
});

describe('bic-valid', () => {
  it('accepts 8- and 11-character BICs, and absent or non-string ones', () => {
    for (const bic of ['DEUTDEFF', 'DEUTDEFF500', 'NEDSZAJJXXX', 'BOFAUS3N'])
      expectFindings(bicValid, doc(bic), []);
    expectFindings(bicValid, {}, []);
    expectFindings(bicValid, doc(42, null), []);
    expectFindings(bicValid, { bic: 'DEUTDEFF', payee: 'x' }, []);
  });

  it('refuses a BIC of the wrong length or shape at both places, naming the member', () => {
    for (const bic of [
      '',
      'DEUTDEF',
      'DEUTDEFF5',
      'DEUTDEFF50',
      'DEUTDEFF5000',
      'DEU1DEFF',
      'DEUTXXFF',
      'DEUTDE',
    ]) {
      const found = expectFindings(bicValid, doc(bic), [
        [REQ, '/bic'],
        [REQ, '/payee/rail_address/bic'],
      ]);
      expect(found[0]?.message).toMatch(/^bic /);
      expect(found[1]?.message).toMatch(/^payee\.rail_address\.bic /);
    }
  });

  it('judges the rail_address copy on its own when it differs', () => {
    for (let i = 0; i < 2; i++) {
      expectFindings(bicValid, doc('DEUTDEFF', 'DEUTDEF'), [[REQ, '/payee/rail_address/bic']]);
      expectFindings(bicValid, doc('DEUTDEF', 'DEUTDEFF'), [[REQ, '/bic']]);
      expectFindings(bicValid, doc(undefined, 'DEUTDEF'), [[REQ, '/payee/rail_address/bic']]);
    }
  });
});
