// IBAN (ISO 13616) structure and MOD 97-10 check digits (ISO 7064).

// Registered IBAN lengths of the countries this stack meets most; any other
// country is held to the general 15..34 range only.
const LENGTHS = {
  AT: 20,
  BE: 16,
  BR: 29,
  CH: 21,
  DE: 22,
  DK: 18,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  IE: 22,
  IT: 27,
  LU: 20,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  SE: 24,
};

function mod97(digits) {
  let rem = 0;
  for (const ch of digits) rem = (rem * 10 + (ch.charCodeAt(0) - 48)) % 97;
  return rem;
}

function numeric(text) {
  let out = '';
  for (const ch of text) out += /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
  return out;
}

/** True for an electronic-format IBAN with valid length and check digits. */
export function isValidIban(iban) {
  if (typeof iban !== 'string' || !/^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const expected = LENGTHS[iban.slice(0, 2)];
  if (expected !== undefined && iban.length !== expected) return false;
  return mod97(numeric(iban.slice(4) + iban.slice(0, 4))) === 1;
}

/**
 * Build an IBAN from a country code and BBAN, computing the check digits.
 * `badCheck` yields check digits off by one (used by one fault only).
 */
export function makeIban(country, bban, { badCheck = false } = {}) {
  const rem = mod97(numeric(`${bban}${country}00`));
  let check = 98 - rem;
  if (badCheck) check = (check + 1) % 97 || 2;
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}
