import { ValidationErrorsIBAN, validateIBAN } from 'ibantools';
import type { Rule } from '../types.js';
import { finding, member, pointer } from '../util.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.6-IBAN-VALID';

/** ibantools error codes -> what we tell the user. */
const MESSAGES: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANProvided]: 'is empty',
  [ValidationErrorsIBAN.NoIBANCountry]: 'does not start with a known country code',
  [ValidationErrorsIBAN.WrongBBANLength]: 'has the wrong length for its country',
  [ValidationErrorsIBAN.WrongBBANFormat]: 'does not match its country BBAN format',
  [ValidationErrorsIBAN.ChecksumNotNumber]: 'has non-numeric check digits',
  [ValidationErrorsIBAN.WrongIBANChecksum]: 'fails the ISO 13616 mod-97 checksum',
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: 'fails its national account checksum',
  [ValidationErrorsIBAN.QRIBANNotAllowed]: 'is a QR-IBAN, not an account IBAN',
};

/**
 * ibantools' verdicts on recent IBANs: a document carries its IBAN twice (top level and
 * payee.rail_address) and a payee's documents repeat it (bounded; cleared when full).
 */
const verdicts = new Map<string, ReturnType<typeof validateIBAN>>();
const IBAN_CACHE = 4096;

function ibanResult(iban: string): ReturnType<typeof validateIBAN> {
  let r = verdicts.get(iban);
  if (r === undefined) {
    r = validateIBAN(iban);
    if (verdicts.size >= IBAN_CACHE) verdicts.clear();
    verdicts.set(iban, r);
  }
  return r;
}

/**
 * CPR-1.0 2.6: `iban` is the full IBAN of the receiving account. Checks the country code,
 * the country's length and BBAN format (ISO 13616 registry) and the mod-97 checksum with
 * ibantools, on the top-level `iban` and on `payee.rail_address.iban`. The electronic format
 * is expected (no spaces); a lower-case or spaced IBAN is an error naming that.
 */
export const ibanValid: Rule = {
  name: 'iban-valid',
  requirements: [REQ],
  check({ doc }) {
    const out = [];
    for (const [path, value] of [
      [['iban'], member(doc, 'iban')],
      [['payee', 'rail_address', 'iban'], member(member(member(doc, 'payee'), 'rail_address'), 'iban')],
    ] as const) {
      if (typeof value !== 'string') continue;
      const where = pointer(path);
      if (/\s/.test(value) || value !== value.toUpperCase()) {
        out.push(
          finding(REQ, where, `${path.join('.')} must be in electronic format (upper case, no spaces)`),
        );
        continue;
      }
      const result = ibanResult(value);
      if (!result.valid) {
        const why = result.errorCodes
          .map((c) => MESSAGES[c] ?? `is invalid (ibantools code ${c})`)
          .join(', ');
        out.push(finding(REQ, where, `${path.join('.')} ${why}`));
      }
    }
    return out;
  },
};
