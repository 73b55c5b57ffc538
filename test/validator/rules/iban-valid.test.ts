import { describe, expect, it } from 'vitest';
import { ibanValid } from '../../../src/validator/rules/iban-valid.js';
import { expectFindings } from './run-rule.js';

// CPR-1.0 2.6: iban (top level and payee.rail_address) is the full IBAN of the receiving account:
// a known country, its length and BBAN format, the mod-97 checksum; electronic format.

const REQ = 'CPR-2.6-IBAN-VALID';
const TOP = '/iban';
const INNER = '/payee/rail_address/iban';
const GOOD = [
  'DE89370400440532013000',
  'GB82WEST12345698765432',
  'BE68539007547034',
  'ES9121000418450200051332',
  'NO9386011117947',
  'CH4431999123000889012',
];

const doc = (top: unknown, inner: unknown = top): Record<string, unknown> => ({
  rail_hint: 'SEPA_CT',
  iban: top,
  beneficiary_name: 'x',
  payee: { rail_address: { iban: inner } },
});
const bad = (value: string, about: RegExp): void => {
  const found = expectFindings(ibanValid, doc(value), [
    [REQ, TOP],
    [REQ, INNER],
  ]);
  expect(found[0]?.message).toMatch(/^iban /);
  expect(found[1]?.message).toMatch(/^payee\.rail_address\.iban /);
  for (const f of found) expect(f.message).toMatch(about);
};

describe('iban-valid', () => {
  it('accepts valid IBANs of several countries at both places, and absent or non-string ones', () => {
    for (const iban of GOOD) {
      expectFindings(ibanValid, doc(iban), []);
      expectFindings(ibanValid, doc(iban), [], { mode: 'wallet' });
    }
    expectFindings(ibanValid, {}, []);
    expectFindings(ibanValid, doc(42, null), []);
    expectFindings(ibanValid, { iban: GOOD[0], payee: 'x' }, []);
  });

  it('refuses a wrong checksum, a wrong length, a BBAN format, an unknown country, each named', () => {
    bad('DE00370400440532013000', /checksum/);
    bad('DE8937040044053201300', /length/);
    bad('DE89A70400440532013000', /format/);
    bad('XX89370400440532013000', /country/);
    bad('DEAB370400440532013000', /check digits/);
    bad('BE68539007547035', /national account checksum/);
    bad('', /empty/);
  });

  it('names each problem ibantools finds, joined', () => {
    const [f] = expectFindings(ibanValid, doc('DE8937040044053201300', GOOD[0]), [[REQ, TOP]]);
    expect(f?.message).toMatch(/length.*format.*checksum/);
  });

  it('refuses a lower-case or spaced IBAN (the electronic format is expected)', () => {
    bad('de89370400440532013000', /electronic/);
    bad('DE89370400440532013000'.replace('DE', 'De'), /electronic/);
    bad('DE89 3704 0044 0532 0130 00', /electronic/);
    bad('DE89370400440532013000 ', /electronic/);
    bad('\tDE89370400440532013000', /electronic/);
  });

  it('judges the rail_address copy on its own when it differs', () => {
    expectFindings(ibanValid, doc(GOOD[0], 'DE00370400440532013000'), [[REQ, INNER]]);
    expectFindings(ibanValid, doc('DE00370400440532013000', GOOD[0]), [[REQ, TOP]]);
    expectFindings(ibanValid, doc(undefined, 'DE00370400440532013000'), [[REQ, INNER]]);
    expectFindings(ibanValid, doc(GOOD[1], GOOD[0]), []);
    for (let i = 0; i < 2; i++) {
      expectFindings(ibanValid, doc('XX00', GOOD[0]), [[REQ, TOP]]);
      expectFindings(ibanValid, doc(GOOD[0], 'XX00'), [[REQ, INNER]]);
    }
  });
});
