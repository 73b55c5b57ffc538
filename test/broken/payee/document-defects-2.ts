/**
 * More broken payees whose documents break one document rule class each (issue 7: every
 * per-rule document check over emitted CPRs is shown to trip), built like `document-defects.ts`:
 * the reference document builder with one edit applied to every document it builds.
 */
import type { CprDocument } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { brokenDocuments } from './document-defects.js';

type Doc = Record<string, unknown> & { payee?: Record<string, unknown>; value?: Record<string, unknown> };

/** Applies `edit` to documents of one sub-interface only (recognised by its address field). */
function when(field: string, edit: (d: Doc) => Doc): (doc: CprDocument) => CprDocument {
  return (doc) => ((doc as Doc)[field] === undefined ? doc : (edit(doc as Doc) as CprDocument));
}

/** The inline property also grades every inline CPR it asks for (no error finding allowed). */
const PROPERTY = ['CPR-4.2-INLINE-URI', 'PRF-2-HARNESS-REQUESTS'];

export const documentDefects2: BrokenImplementation[] = [
  brokenDocuments(
    'payee-doc-timestamps-offset',
    'created_at and expires_at are written with "+00:00" instead of "Z" (same instants)',
    ['PRF-1-TIMESTAMP-Z', 'PRF-2-TIMESTAMPS-Z', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const z = (t: unknown) => (typeof t === 'string' ? t.replace(/Z$/, '+00:00') : t);
      return { ...d, created_at: z(d.created_at), expires_at: z(d.expires_at) } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-display-name-blank',
    'payee.display_name is only white space',
    ['PRF-2-DISPLAY-NAME-NOT-BLANK', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      return { ...d, payee: { ...d.payee, display_name: '   ' } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-chain-ids-disagree',
    'on-chain CPRs name chain 137 in value.asset.chain_id and chain 1 in chain_id',
    ['PRF-2-CHAIN-ID-AGREES', ...PROPERTY],
    when('receiver_address', (d) => {
      const asset = d.value?.asset as Record<string, unknown> | undefined;
      return { ...d, value: { ...d.value, asset: { ...asset, chain_id: 'eip155:137' } } };
    }),
  ),
  brokenDocuments(
    'payee-doc-rail-address-disagrees',
    'payee.rail_address carries another account number than the top-level account fields',
    ['PRF-2-RAIL-ADDRESS-AGREES', ...PROPERTY],
    when('account_number', (d) => ({
      ...d,
      payee: {
        ...d.payee,
        rail_address: { ...(d.payee?.rail_address as object), account_number: '000123456789' },
      },
    })),
  ),
  brokenDocuments(
    'payee-doc-two-sub-interfaces',
    'IBAN documents also complete the account sub-interface (account_number)',
    ['PRF-2-EXACTLY-ONE-SUB-INTERFACE', 'PRF-2-ONE-SUB-INTERFACE-ANY-HINT', ...PROPERTY],
    when('iban', (d) => ({ ...d, account_number: '000123456789' })),
  ),
  brokenDocuments(
    'payee-doc-amount-leading-zero',
    'fixed amounts are written with a leading zero ("01999")',
    ['PRF-1-AMOUNT-FORMAT', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      if (typeof d.value?.amount !== 'string') return doc;
      return { ...d, value: { ...d.value, amount: `0${d.value.amount}` } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-order-reference-short',
    'on-chain order_reference is 15 bytes (0x + 30 hex digits), not 16',
    ['CPR-2.5-ORDER-REFERENCE', ...PROPERTY],
    when('order_reference', (d) => ({ ...d, order_reference: String(d.order_reference).slice(0, 32) })),
  ),
  brokenDocuments(
    'payee-doc-domain-separator-short',
    'on-chain domain_separator is 31 bytes (0x + 62 hex digits), not 32',
    ['CPR-2.5-DOMAIN-SEPARATOR', ...PROPERTY],
    when('domain_separator', (d) => ({ ...d, domain_separator: String(d.domain_separator).slice(0, 64) })),
  ),
  brokenDocuments(
    'payee-doc-purpose-code-lowercase',
    'IBAN documents carry purpose_code "gdds" (an ISO 20022 code is upper case)',
    ['CPR-2.6-PURPOSE-CODE', ...PROPERTY],
    when('iban', (d) => ({ ...d, purpose_code: 'gdds' })),
  ),
  brokenDocuments(
    'payee-doc-bic-invalid',
    'IBAN documents carry a BIC of 9 characters',
    ['CPR-2.6-BIC-VALID', ...PROPERTY],
    when('iban', (d) => ({
      ...d,
      bic: `${String(d.bic).slice(0, 8)}X`,
      payee: {
        ...d.payee,
        rail_address: { ...(d.payee?.rail_address as object), bic: `${String(d.bic).slice(0, 8)}X` },
      },
    })),
  ),
  brokenDocuments(
    'payee-doc-receiver-checksum',
    'on-chain receiver_address has a broken EIP-55 checksum (one letter case flipped), top level and rail_address alike',
    ['CPR-2.5-RECEIVER-ADDRESS', ...PROPERTY],
    when('receiver_address', (d) => {
      const a = String(d.receiver_address);
      const i = [...a].findIndex((c, k) => k > 1 && /[a-fA-F]/.test(c));
      const c = a[i] as string;
      const flipped = `${a.slice(0, i)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${a.slice(i + 1)}`;
      return {
        ...d,
        receiver_address: flipped,
        payee: {
          ...d.payee,
          rail_address: { ...(d.payee?.rail_address as object), receiver_address: flipped },
        },
      };
    }),
  ),
  brokenDocuments(
    'payee-doc-remittance-too-long',
    'IBAN and account documents carry a remittance_info of 141 characters',
    ['CPR-2.6-REMITTANCE-LENGTH', 'CPR-2.7-REMITTANCE-LENGTH', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      if (d.remittance_info === undefined) return doc;
      return { ...d, remittance_info: 'R'.repeat(141) } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-settlement-extension',
    'CPRs carry a settlement instruction in their extensions',
    ['CPR-INV-6-SEPARATION', 'CPR-1-NO-PAYER-AUTH-STATE', 'CPR-3-NO-STATE', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      return {
        ...d,
        extensions: {
          ...((d.extensions as object | undefined) ?? {}),
          'com.example:settlement_instruction': { batch: 'T+1' },
        },
      } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-asset-type-unknown',
    'fiat assets are typed "cash" instead of "fiat"',
    ['CPR-2.3-ASSET-TYPE', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const asset = d.value?.asset as Record<string, unknown> | undefined;
      if (asset?.type !== 'fiat') return doc;
      return { ...d, value: { ...d.value, asset: { ...asset, type: 'cash' } } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-stablecoin-without-chain',
    'stablecoin assets carry no chain_id',
    ['CPR-2.3-CHAIN-ID-REQUIRED', ...PROPERTY],
    (doc) => {
      const d = doc as Doc;
      const asset = d.value?.asset as Record<string, unknown> | undefined;
      if (asset?.type !== 'stablecoin') return doc;
      const { chain_id: _dropped, ...rest } = asset;
      return { ...d, value: { ...d.value, asset: rest } } as CprDocument;
    },
  ),
  brokenDocuments(
    'payee-doc-acquirer-id-text',
    'on-chain documents carry acquirer_id "ACQ-0001" (not 16 bytes)',
    ['CPR-2.5-ACQUIRER-ID', ...PROPERTY],
    when('receiver_address', (d) => ({ ...d, acquirer_id: 'ACQ-0001' })),
  ),
  brokenDocuments(
    'payee-doc-end-to-end-id-number',
    'account documents carry end_to_end_id as a JSON number',
    ['CPR-2.7-OPTIONAL-FIELD-TYPES', ...PROPERTY],
    when('account_number', (d) => ({ ...d, end_to_end_id: 4711 })),
  ),
  brokenDocuments(
    'payee-doc-txid-number',
    'instant-key documents carry txid as a JSON number',
    ['CPR-2.8-OPTIONAL-FIELD-TYPES', ...PROPERTY],
    when('key_type', (d) => ({ ...d, txid: 4711 })),
  ),
];
