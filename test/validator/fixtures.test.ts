import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCpr, validateCprText } from '../../src/validator/index.js';

const DIR = join(import.meta.dirname, 'fixtures');
const NOW = new Date('2026-06-01T12:00:00Z');

/**
 * Expected outcome per fixture and mode: `'valid'` (no error), or the requirement ID that must be
 * among the errors; `warn` lists requirement IDs that must be reported as warnings.
 */
type Outcome = 'valid' | string;
interface Expect {
  payee: Outcome;
  wallet: Outcome;
  warn?: string[];
  /** Warnings of the payee reading only: the wallet reading must not report them. */
  payeeWarn?: string[];
  /** Warnings the wallet reading must report. */
  walletWarn?: string[];
}
const both = (o: Outcome, warn?: string[]): Expect => ({ payee: o, wallet: o, ...(warn ? { warn } : {}) });

const EXPECTED: Record<string, Expect> = {
  'sepa-ct-ok': both('valid'),
  'sepa-inst-ok': both('valid'),
  'swift-gbp-ok': both('valid'),
  'onchain-ok': both('valid'),
  'ach-ok': both('valid'),
  'pix-ok': both('valid'),
  'upi-ok': both('valid'),
  'open-amount-ok': both('valid'),
  'rail-hint-open-iban-ok': both('valid'),
  'rail-hint-absent-instant-key-ok': both('valid'),
  'rail-hint-unknown-fail': {
    payee: 'CPR-2.4-RAIL-HINT-ENUM',
    wallet: 'valid',
    warn: ['CPR-2.4-RAIL-HINT-ENUM'],
  },
  'rail-hint-not-string-fail': both('CPR-2.4-RAIL-HINT-ENUM'),
  'version-wrong-fail': both('CPR-2.1-VERSION'),
  'version-missing-fail': both('CPR-2.1-REQUIRED-FIELDS'),
  'request-id-not-uuid-fail': {
    payee: 'PRF-1-IDENTIFIER-UUID',
    wallet: 'valid',
    walletWarn: ['PRF-1-IDENTIFIER-UUID'],
  },
  'request-id-empty-fail': both('PRF-1-IDENTIFIER-UUID'),
  'request-id-v1-ok': both('valid', ['CPR-2.1-REQUEST-ID-UUIDV4']),
  'timestamps-offset-fail': { payee: 'CPR-2.1-TIMESTAMPS-UTC', wallet: 'valid', warn: ['PRF-1-TIMESTAMP-Z'] },
  'timestamps-utc-offset-fail': { payee: 'PRF-1-TIMESTAMP-Z', wallet: 'valid', warn: ['PRF-1-TIMESTAMP-Z'] },
  'timestamps-not-rfc3339-fail': both('CPR-2.1-TIMESTAMPS-UTC'),
  'timestamps-invalid-date-fail': both('CPR-2.1-TIMESTAMPS-UTC'),
  'created-before-expires-equal-fail': both('PRF-2-CREATED-BEFORE-EXPIRES'),
  'expiry-past-fail': { payee: 'CPR-2.1-EXPIRES-AT', wallet: 'CPR-7-EXPIRED-REJECTED' },
  'validity-ceiling-31-days-ok': both('valid', ['PRF-2-VALIDITY-CEILING']),
  'memo-140-code-points-ok': both('valid'),
  'memo-141-code-points-fail': both('CPR-2.1-MEMO-LENGTH'),
  'amount-2-256-minus-1-ok': both('valid'),
  'amount-leading-zero-fail': both('PRF-1-AMOUNT-FORMAT'),
  'amount-fraction-fail': both('CPR-2.3-AMOUNT-SMALLEST-UNIT'),
  'amount-negative-fail': both('CPR-2.3-AMOUNT-SMALLEST-UNIT'),
  'amount-2-256-fail': both('PRF-1-AMOUNT-FORMAT'),
  'amount-zero-fail': both('PRF-1-AMOUNT-FORMAT'),
  'amount-safe-number-fail': {
    payee: 'PRF-1-AMOUNT-FORMAT',
    wallet: 'valid',
    warn: ['PRF-1-AMOUNT-NUMBER-SAFE'],
  },
  'amount-unsafe-number-fail': { payee: 'PRF-1-AMOUNT-FORMAT', wallet: 'PRF-1-AMOUNT-NUMBER-UNSAFE' },
  'chain-id-missing-fail': both('CPR-2.3-CHAIN-ID-REQUIRED'),
  'chain-id-crypto-absent-ok': both('valid'),
  'asset-type-unknown-fail': both('CPR-2.3-ASSET-TYPE'),
  'asset-code-not-iso4217-fail': both('CPR-2.3-ASSET-CODE-ISO4217'),
  'asset-code-lowercase-fail': both('CPR-2.3-ASSET-CODE-ISO4217'),
  'onchain-receiver-missing-fail': both('CPR-2.5-ONCHAIN-FIELDS'),
  'onchain-without-hint-fail': both('PRF-2-OPEN-SUB-INTERFACE'),
  'iban-beneficiary-missing-fail': both('CPR-2.6-IBAN-FIELDS'),
  'ach-account-number-missing-fail': both('CPR-2.7-ACCOUNT-FIELDS'),
  'pix-key-value-missing-fail': both('CPR-2.8-INSTANT-KEY-FIELDS'),
  'open-no-sub-interface-fail': both('PRF-2-EXACTLY-ONE-SUB-INTERFACE'),
  'open-two-sub-interfaces-fail': both('PRF-2-EXACTLY-ONE-SUB-INTERFACE'),
  'receiver-address-lowercase-ok': both('valid'), // single case: no checksum, no finding
  'receiver-address-bad-checksum-fail': both('CPR-2.5-RECEIVER-ADDRESS'),
  'receiver-address-short-fail': both('CPR-2.5-RECEIVER-ADDRESS'),
  'iban-checksum-fail': both('CPR-2.6-IBAN-VALID'),
  'iban-country-length-fail': both('CPR-2.6-IBAN-VALID'),
  'iban-spaces-fail': both('CPR-2.6-IBAN-VALID'),
  'bic-malformed-fail': both('CPR-2.6-BIC-VALID'),
  'remittance-140-code-points-ok': both('valid'),
  'remittance-141-code-points-fail': both('CPR-2.7-REMITTANCE-LENGTH'),
  'rail-address-disagrees-fail': both('PRF-2-RAIL-ADDRESS-AGREES'),
  'rail-address-missing-iban-fail': both('CPR-2.2-RAIL-ADDRESS'),
  'rail-address-absent-fail': both('CPR-2.2-RAIL-ADDRESS'),
  'no-payer-data-payer-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  'no-payer-data-extensions-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  'no-payer-data-status-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-authorization-fail': both('CPR-INV-6-SEPARATION'),
  'extensions-unknown-keys-ok': both('valid'),
  'payee-display-name-missing-ok': {
    payee: 'valid',
    wallet: 'valid',
    payeeWarn: ['CPR-2.2-OPTIONAL-FIELD-PRESENT'],
  },
  'extension-key-unprefixed-ok': {
    payee: 'valid',
    wallet: 'valid',
    payeeWarn: ['CPR-9-REVERSE-DOMAIN-PREFIX'],
  },
  'extensions-not-object-fail': both('CPR-2.1-FIELD-TYPES'),
  // byte lengths of spec 2.5 (profile section 2)
  'order-reference-uuid-ok': both('valid'),
  'order-reference-0x-hex-ok': both('valid'),
  'order-reference-15-bytes-fail': both('CPR-2.5-ORDER-REFERENCE'),
  'order-reference-base64-fail': both('CPR-2.5-ORDER-REFERENCE'),
  'acquirer-id-zero-uuid-ok': both('valid'),
  'acquirer-id-17-bytes-fail': both('CPR-2.5-ACQUIRER-ID'),
  'domain-separator-32-bytes-ok': both('valid'),
  'domain-separator-no-0x-fail': both('CPR-2.5-DOMAIN-SEPARATOR'),
  'domain-separator-31-bytes-fail': both('CPR-2.5-DOMAIN-SEPARATOR'),
  'purpose-code-listed-ok': both('valid'),
  'purpose-code-unlisted-ok': both('valid', ['CPR-2.6-PURPOSE-CODE']),
  'purpose-code-five-characters-fail': both('CPR-2.6-PURPOSE-CODE'),
  'purpose-code-lower-case-fail': both('CPR-2.6-PURPOSE-CODE'),
  // payer data names of profile section 2
  'no-payer-data-payer-prefix-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  'no-payer-data-debtor-nested-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  'no-payer-data-signed-tx-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-raw-tx-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-permit-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-mandate-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-execution-date-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-state-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-settlement-fail': both('CPR-INV-6-SEPARATION'),
  // the readings of a member name (profile section 2): the name and every tail after : / or .
  'no-payer-data-colon-then-dot-fail': {
    payee: 'CPR-INV-1-NO-PAYER-DATA',
    wallet: 'CPR-INV-1-NO-PAYER-DATA',
    payeeWarn: ['CPR-9-REVERSE-DOMAIN-PREFIX'],
  },
  'no-payer-data-dotted-namespace-status-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-spaced-slashed-prefix-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  'no-payer-data-unicode-space-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  'no-payer-data-status-code-ok': both('valid'),
  'no-payer-data-signature-top-level-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-request-top-level-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-rail-top-level-fail': both('CPR-INV-6-SEPARATION'),
  'no-payer-data-rail-nested-ok': both('valid'),
  'no-payer-data-depth-300-fail': both('CPR-INV-1-NO-PAYER-DATA'),
  // chain identifiers (profile section 2): payee error, wallet warning
  'chain-id-eip155-hex-agree-ok': both('valid'),
  'chain-id-asset-disagrees-fail': {
    payee: 'PRF-2-CHAIN-ID-AGREES',
    wallet: 'valid',
    walletWarn: ['PRF-2-CHAIN-ID-AGREES'],
  },
  'chain-id-rail-address-disagrees-fail': {
    payee: 'PRF-2-CHAIN-ID-AGREES',
    wallet: 'valid',
    walletWarn: ['PRF-2-CHAIN-ID-AGREES'],
  },
  // exactly one sub-interface whatever the rail_hint (profile section 2)
  'sub-interface-sepa-ct-also-account-fail': both('PRF-2-ONE-SUB-INTERFACE-ANY-HINT'),
  'sub-interface-pix-also-iban-fail': both('PRF-2-ONE-SUB-INTERFACE-ANY-HINT'),
  'sub-interface-unknown-hint-none-fail': both('PRF-2-ONE-SUB-INTERFACE-ANY-HINT'),
  'sub-interface-iban-in-rail-address-only-fail': both('CPR-2.4-SUB-INTERFACE-TOP-LEVEL'),
  'sub-interface-hint-names-other-fail': both('CPR-2.4-SUB-INTERFACE-BY-HINT'),
  // display_name present: not blank (payee error; a wallet accepts it)
  'payee-display-name-empty-fail': { payee: 'PRF-2-DISPLAY-NAME-NOT-BLANK', wallet: 'valid' },
  'payee-display-name-white-space-fail': { payee: 'PRF-2-DISPLAY-NAME-NOT-BLANK', wallet: 'valid' },
  // any RFC 3339 offset in the wallet reading, instants compared (+14:00, -12:00)
  'timestamps-plus-14-and-minus-12-fail': {
    payee: 'CPR-2.1-TIMESTAMPS-UTC',
    wallet: 'valid',
    walletWarn: ['PRF-1-TIMESTAMP-Z'],
  },
  'timestamps-plus-14-expired-fail': { payee: 'CPR-2.1-TIMESTAMPS-UTC', wallet: 'CPR-7-EXPIRED-REJECTED' },
  'timestamps-minus-12-future-fail': {
    payee: 'CPR-2.1-TIMESTAMPS-UTC',
    wallet: 'valid',
    walletWarn: ['PRF-1-TIMESTAMP-Z'],
  },
  'validity-ceiling-100-years-ok': both('valid', ['PRF-2-VALIDITY-CEILING']),
  // JSON text (profile section 1): payee error; a reader ignores a BOM and should refuse duplicates
  'json-text-bom-fail': { payee: 'PRF-1-JSON-NO-BOM', wallet: 'valid' },
  'json-text-duplicate-member-fail': {
    payee: 'PRF-1-JSON-UNIQUE-MEMBER-NAMES',
    wallet: 'valid',
    walletWarn: ['PRF-1-READER-REFUSES-DUPLICATES'],
  },
  'json-text-duplicate-nested-fail': {
    payee: 'PRF-1-JSON-UNIQUE-MEMBER-NAMES',
    wallet: 'valid',
    walletWarn: ['PRF-1-READER-REFUSES-DUPLICATES'],
  },
};

const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -5))
  .sort();

describe('validator fixtures', () => {
  it('every fixture has an expectation and every expectation a fixture', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  for (const name of files) {
    const expected = EXPECTED[name];
    if (!expected) continue;
    for (const mode of ['payee', 'wallet'] as const) {
      const outcome = expected[mode];
      it(`${name} (${mode}): ${outcome === 'valid' ? 'valid' : `rejected with ${outcome}`}`, () => {
        const text = readFileSync(join(DIR, `${name}.json`), 'utf8');
        const r = validateCprText(text, { mode, now: NOW });
        if (!name.startsWith('json-text-')) {
          // without text-level defects the text and the parsed object give the same verdict
          expect(validateCpr(JSON.parse(text), { mode, now: NOW })).toEqual(r);
        }
        const errors = r.findings.filter((f) => f.severity === 'error');
        if (outcome === 'valid') {
          expect(errors).toEqual([]);
          expect(r.valid).toBe(true);
        } else {
          expect(r.valid).toBe(false);
          expect(errors.map((f) => f.requirement)).toContain(outcome);
        }
        for (const id of expected.warn ?? []) {
          if (mode === 'payee' && expected.payee !== 'valid' && expected.wallet === 'valid') continue;
          expect(r.findings.filter((f) => f.severity === 'warning').map((f) => f.requirement)).toContain(id);
        }
        const warnings = r.findings.filter((f) => f.severity === 'warning').map((f) => f.requirement);
        for (const id of expected.walletWarn ?? []) {
          if (mode === 'wallet') expect(warnings).toContain(id);
        }
        for (const id of expected.payeeWarn ?? []) {
          if (mode === 'payee') expect(warnings).toContain(id);
          else expect(warnings).not.toContain(id);
        }
        for (const f of r.findings) {
          expect(f.message).toMatch(/^[a-z0-9"(]/);
          expect(f.level).toBe(f.requirement.startsWith('PRF-') ? 'PROFILE' : 'SPEC');
        }
      });
    }
  }
});
