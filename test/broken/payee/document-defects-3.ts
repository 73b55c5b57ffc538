/**
 * Broken payees for the remaining per-rule document checks (issue 7): one rule class broken per
 * payee, the reference document builder with one edit applied to every document it builds.
 */
import type { CprDocument } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { brokenDocuments } from './document-defects.js';

type Doc = Record<string, unknown> & { payee?: Record<string, unknown>; value?: Record<string, unknown> };

/** Applies `edit` to documents of one sub-interface only (recognised by its address field). */
function when(field: string, edit: (d: Doc) => Doc): (doc: CprDocument) => CprDocument {
  return (doc) => ((doc as Doc)[field] === undefined ? doc : (edit(doc as Doc) as CprDocument));
}

/** The same member set at the top level and in payee.rail_address (so they keep agreeing). */
function both(d: Doc, name: string, value: unknown): Doc {
  const railAddress = { ...(d.payee?.rail_address as object) } as Record<string, unknown>;
  if (name in railAddress) railAddress[name] = value;
  return { ...d, [name]: value, payee: { ...d.payee, rail_address: railAddress } };
}

/** The inline property also grades every inline CPR it asks for (no error finding allowed). */
const PROPERTY = ['CPR-4.2-INLINE-URI', 'PRF-2-HARNESS-REQUESTS'];

export const documentDefects3: BrokenImplementation[] = [
  brokenDocuments(
    'payee-doc-timestamps-not-utc',
    'created_at and expires_at are written in +01:00 local time (the same instants)',
    // the validator reports a non-UTC offset under CPR-2.1-TIMESTAMPS-UTC alone (one fault, one
    // finding); the profile 2 timestamp check names it too (not "Z")
    ['CPR-2.1-TIMESTAMPS-UTC', 'PRF-2-TIMESTAMPS-Z', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const local = (t: unknown) => {
        if (typeof t !== 'string') return t;
        const ms = Date.parse(t) + 3600_000;
        return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+01:00');
      };
      return { ...d, created_at: local(d.created_at), expires_at: local(d.expires_at) } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-display-name-number',
    'payee.display_name is a JSON number',
    ['CPR-2.2-DISPLAY-NAME', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      return { ...d, payee: { ...d.payee, display_name: 42 } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-asset-without-code',
    'value.asset carries no code',
    ['CPR-2.3-ASSET-REQUIRED', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const { code: _dropped, ...asset } = (d.value?.asset as Record<string, unknown> | undefined) ?? {};
      return { ...d, value: { ...d.value, asset } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-amount-fraction',
    'fixed amounts are written as decimal fractions of the main unit ("19.99" for 1999 cents)',
    ['CPR-2.3-AMOUNT-SMALLEST-UNIT', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const a = d.value?.amount;
      if (typeof a !== 'string' || a.length < 3) return doc;
      return { ...d, value: { ...d.value, amount: `${a.slice(0, -2)}.${a.slice(-2)}` } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-chain-id-number',
    'on-chain documents write chain_id as a JSON number (top level and rail_address alike)',
    ['CPR-2.5-CHAIN-ID', ...PROPERTY],
    when('receiver_address', (d) => both(d, 'chain_id', Number(d.chain_id))),
  ),
  brokenDocuments(
    'payee-doc-contract-checksum',
    'on-chain contract_address has a broken EIP-55 checksum (one letter case flipped)',
    ['CPR-2.5-CONTRACT-ADDRESS', ...PROPERTY],
    when('contract_address', (d) => {
      const a = String(d.contract_address);
      const i = [...a].findIndex((c, k) => k > 1 && /[a-fA-F]/.test(c));
      const c = a[i] as string;
      const flipped = `${a.slice(0, i)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${a.slice(i + 1)}`;
      return { ...d, contract_address: flipped };
    }),
  ),
  brokenDocuments(
    'payee-doc-beneficiary-empty',
    'IBAN documents carry an empty beneficiary_name',
    ['CPR-2.6-BENEFICIARY-NAME', ...PROPERTY],
    when('iban', (d) => ({ ...d, beneficiary_name: '' })),
  ),
  brokenDocuments(
    'payee-doc-account-number-number',
    'account documents write account_number as a JSON number (top level and rail_address alike)',
    ['CPR-2.7-ACCOUNT-NUMBER', ...PROPERTY],
    when('account_number', (d) => both(d, 'account_number', Number(d.account_number))),
  ),
  brokenDocuments(
    'payee-doc-routing-code-number',
    'account documents write routing_code as a JSON number (top level and rail_address alike)',
    ['CPR-2.7-ROUTING-FIELDS', ...PROPERTY],
    when('account_number', (d) => both(d, 'routing_code', Number(d.routing_code))),
  ),
  brokenDocuments(
    'payee-doc-key-type-number',
    'instant-key documents write key_type as a JSON number (top level and rail_address alike)',
    ['CPR-2.8-KEY-TYPE', ...PROPERTY],
    when('key_type', (d) => both(d, 'key_type', 7)),
  ),
  brokenDocuments(
    'payee-doc-key-value-empty',
    'instant-key documents carry an empty key_value, top level and rail_address alike',
    ['CPR-2.8-KEY-VALUE', ...PROPERTY],
    when('key_type', (d) => both(d, 'key_value', '')),
  ),
  brokenDocuments(
    'payee-doc-memo-141',
    'CPRs carrying a memo pad it to 141 characters',
    ['CPR-2.1-MEMO-LENGTH', 'PRF-2-LENGTH-CODE-POINTS', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      if (typeof d.memo !== 'string') return doc;
      return { ...d, memo: d.memo.padEnd(141, '.') } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-end-to-end-id-number-iban',
    'IBAN documents carry end_to_end_id as a JSON number',
    ['CPR-2.6-END-TO-END-ID', ...PROPERTY],
    when('iban', (d) => ({ ...d, end_to_end_id: 4711 })),
  ),
  brokenDocuments(
    'payee-doc-rail-hint-outside-enum',
    'IBAN documents carry rail_hint "SEPA" (not a value of the RailHint enumeration)',
    ['CPR-2.4-RAIL-HINT-ENUM', ...PROPERTY],
    when('iban', (d) => ({ ...d, rail_hint: 'SEPA' })),
  ),
  brokenDocuments(
    'payee-doc-rail-address-string',
    'payee.rail_address is a string (the address written as text) instead of an object',
    ['CPR-2.2-RAIL-ADDRESS', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const text = Object.values((d.payee?.rail_address as object | undefined) ?? {}).join(' ');
      return { ...d, payee: { ...d.payee, rail_address: text } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-created-equals-expires',
    'created_at is written equal to expires_at (a window of zero seconds)',
    ['PRF-2-CREATED-BEFORE-EXPIRES', 'CPR-INV-8-BOUNDED-EXPIRY', 'PRF-2-HARNESS-VALIDITY', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      return { ...d, created_at: d.expires_at } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-expired-flag',
    'every CPR carries "expired": false and an extension "com.example:used": false (consumption written into the document)',
    // names the validator's list does not hold: only the section 3 check of a consumed or
    // expired flag sees them
    ['CPR-3-CONSUMED-NOT-A-FIELD'],
    (doc) => {
      const d = doc as Doc;
      const extensions = (d.extensions as Record<string, unknown> | undefined) ?? {};
      return {
        ...d,
        expired: false,
        extensions: { ...extensions, 'com.example:used': false },
      } as CprDocument;
    },
  ),
];
