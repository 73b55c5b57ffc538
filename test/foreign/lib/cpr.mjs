// The CPR-1.0 vocabulary shared by the payee and the wallet: rails,
// sub-interfaces, payer-data member names, chain identifiers and byte-length
// formats (profile section 2).

export const CPR_VERSION = 'CPR-1.0';

export const RAILS = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI', 'SWIFT', 'OPEN'];

/** Sub-interfaces: their required fields, all their fields, and the address field that names them. */
export const SUB_INTERFACES = {
  onchain: {
    required: ['chain_id', 'receiver_address'],
    fields: [
      'chain_id',
      'receiver_address',
      'domain_separator',
      'order_reference',
      'acquirer_id',
      'contract_address',
    ],
    address: null, // needs rail_hint ON_CHAIN (spec 2.5)
    rails: ['ON_CHAIN'],
  },
  iban: {
    required: ['iban', 'beneficiary_name'],
    fields: ['iban', 'bic', 'beneficiary_name', 'remittance_info', 'end_to_end_id', 'purpose_code'],
    address: 'iban',
    rails: ['SEPA_CT', 'SEPA_INST', 'SWIFT'],
  },
  account: {
    required: ['account_number', 'beneficiary_name'],
    fields: [
      'account_number',
      'routing_code',
      'routing_code_type',
      'bank_name',
      'beneficiary_name',
      'remittance_info',
      'end_to_end_id',
    ],
    address: 'account_number',
    rails: ['ACH'],
  },
  instant: {
    required: ['key_type', 'key_value'],
    fields: ['key_type', 'key_value', 'beneficiary_name', 'txid'],
    address: 'key_type',
    rails: ['PIX', 'UPI'],
  },
};

/** The sub-interface a recognised, specific rail hint names. */
export function subInterfaceOfRail(rail) {
  for (const [name, sub] of Object.entries(SUB_INTERFACES)) if (sub.rails.includes(rail)) return name;
  return null;
}

export const ALL_SUB_FIELDS = [...new Set(Object.values(SUB_INTERFACES).flatMap((s) => s.fields))];

// ---------------------------------------------------------------------------
// Payer, authorization and state member names (profile section 2).

const EXACT_TERMS = new Set([
  'payer',
  'authorization',
  'signedtx',
  'rawtx',
  'permit',
  'executiondate',
  'state',
  'status',
]);
const PREFIX_TERMS = ['payer', 'debtor', 'mandate', 'settlement'];

/**
 * Normalise one reading: case-folded, `_`, `-`, `.` and white space removed.
 * Case folding goes through upper case first, so letters whose fold is an ASCII
 * letter (U+017F LONG S folds to `s`, U+212A KELVIN SIGN to `k`) compare as
 * that letter: `ſtatus` is `status`.
 */
const squash = (s) =>
  s
    .toUpperCase()
    .toLowerCase()
    .replace(/[_\-.\s]/g, '');

/**
 * The readings of a member name: the name and every tail after a `:`, `/` or
 * `.` in it, each squashed. The name is taken in NFKC first, so compatibility
 * forms (full-width letters and separators) read as their plain forms; this
 * only ever finds more names, and the list is a floor (profile 2).
 */
export function nameReadings(rawName) {
  const name = rawName.normalize('NFKC');
  const readings = [squash(name)];
  for (let i = 0; i < name.length; i += 1) {
    if (name[i] === ':' || name[i] === '/' || name[i] === '.') readings.push(squash(name.slice(i + 1)));
  }
  return readings;
}

// After squashing, `payer` and `payer_...` both read as "starts with payer".
const readingIsPayerTerm = (reading) =>
  EXACT_TERMS.has(reading) || PREFIX_TERMS.some((prefix) => reading.startsWith(prefix));

/** True when a member name is on the payer-data list in any of its readings. */
export function isPayerTerm(name) {
  return nameReadings(name).some(readingIsPayerTerm);
}

/** Paths (arrays of keys) of every payer-data member anywhere in a JSON value. */
export function findPayerTerms(value, { topLevelOnly = false, skip = [] } = {}) {
  const hits = [];
  const walk = (v, path) => {
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        walk(item, [...path, i]);
      });
      return;
    }
    if (typeof v !== 'object' || v === null) return;
    for (const key of Object.keys(v)) {
      if (path.length === 0 && skip.includes(key)) continue;
      if (isPayerTerm(key)) hits.push([...path, key]);
      if (!topLevelOnly) walk(v[key], [...path, key]);
    }
  };
  walk(value, []);
  return hits;
}

/** DerivationContext members that must not sit at the top level of a CPR. */
export const FORBIDDEN_TOP_LEVEL = ['signature', 'request', 'rail'];

// ---------------------------------------------------------------------------
// Chain identifiers and byte-length formats.

/** Map `N`, `eip155:N` or `0x`-hex to a decimal string; other forms are kept as written. */
export function chainKey(id) {
  if (typeof id !== 'string') return null;
  if (/^(0|[1-9][0-9]*)$/.test(id)) return id;
  const eip = /^eip155:(0|[1-9][0-9]*)$/.exec(id);
  if (eip) return eip[1];
  if (/^0x[0-9a-fA-F]+$/.test(id)) return BigInt(id).toString(10);
  return `raw:${id}`;
}

export const UUID_RE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const ZERO_UUID = '00000000-0000-0000-0000-000000000000';

/** A 16-byte reference: canonical UUID, 32 hex digits, or 0x + 32 hex digits. */
export const isBytes16 = (v) =>
  typeof v === 'string' && (UUID_RE.test(v) || /^(0x)?[0-9a-fA-F]{32}$/.test(v));
export const isBytes32Hex = (v) => typeof v === 'string' && /^0x[0-9a-fA-F]{64}$/.test(v);
export const isPurposeCode = (v) => typeof v === 'string' && /^[A-Z0-9]{1,4}$/.test(v);
export const isEvmAddress = (v) => typeof v === 'string' && /^0x[0-9a-fA-F]{40}$/.test(v);

export const ASSET_TYPES = ['fiat', 'stablecoin', 'crypto', 'tokenized'];
