import { ValidationErrorsIBAN, validateIBAN } from 'ibantools';
import { boundedCache } from '../../caches.js';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, listText, member, pointer } from '../util.js';
import { viewOf } from '../view.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.6-IBAN-VALID';

/** ibantools error codes -> what we tell the user (QRIBANNotAllowed never comes: QR-IBANs are allowed by default). */
const MESSAGES: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANProvided]: 'is empty',
  [ValidationErrorsIBAN.NoIBANCountry]: 'does not start with a known country code',
  [ValidationErrorsIBAN.WrongBBANLength]: 'has the wrong length for its country',
  [ValidationErrorsIBAN.WrongBBANFormat]: 'does not match its country BBAN format',
  [ValidationErrorsIBAN.ChecksumNotNumber]: 'has non-numeric check digits',
  [ValidationErrorsIBAN.WrongIBANChecksum]: 'fails the ISO 13616 mod-97 checksum',
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: 'fails its national account checksum',
};

/** Size of the per-string cache of IBAN verdicts (a document carries its IBAN twice; a payee's documents repeat it). */
const IBAN_CACHE = 4096;

/** The two places an IBAN sits. */
const PLACES = [['iban'], ['payee', 'rail_address', 'iban']] as const;

/**
 * CPR-1.0 2.6: `iban` is the full IBAN of the receiving account. Checks the country code,
 * the country's length and BBAN format (ISO 13616 registry) and the mod-97 checksum with
 * ibantools, on the top-level `iban` and on `payee.rail_address.iban`. The electronic format
 * is expected (no spaces); a lower-case or spaced IBAN is an error naming that.
 */
export const ibanValid: Rule = {
  name: 'iban-valid',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectIbanValid, ctx),
  collect: collectIbanValid,
};

function collectIbanValid({ doc }: RuleContext, out: Finding[]): void {
  const v = viewOf(doc);
  const top = v.iban;
  if (typeof top === 'string') report(problemOf(top), PLACES[0], out);
  const inner = member(v.railAddress, 'iban');
  // rail_address repeats the top-level IBAN: the verdict cache answers the second sight
  if (typeof inner === 'string') report(problemOf(inner), PLACES[1], out);
}

function report(why: string | null, path: readonly string[], out: Finding[]): void {
  if (why === null) return;
  out.push(finding(REQ, pointer(path), `${path.join('.')} ${why}`));
}

const SPACE = /\s/;

/** What is wrong with an IBAN string (null: nothing), remembered per string (bounded). */
const problems = boundedCache<string, string | null>(IBAN_CACHE);

function problemOf(value: string): string | null {
  const hit = problems.get(value);
  // Stryker disable next-line ConditionalExpression: a cache miss forced on every call recomputes the same verdict
  if (hit !== undefined) return hit;
  let why: string | null = null;
  if (SPACE.test(value) || value !== value.toUpperCase()) {
    why = 'must be in electronic format (upper case, no spaces)';
  } else {
    const result = validateIBAN(value);
    if (!result.valid) {
      // Stryker disable next-line StringLiteral: unreachable: MESSAGES names every code ibantools 4 gives (QRIBANNotAllowed only when QR-IBANs are refused, which this rule never asks)
      why = listText(result.errorCodes.map((c) => MESSAGES[c] ?? `is invalid (ibantools code ${c})`));
    }
  }
  problems.set(value, why);
  return why;
}
