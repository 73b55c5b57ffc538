/**
 * The documents group: every validator rule at each of its boundaries, on both sides, in both
 * readings, and the text-level rules (byte order mark, duplicate member names, not JSON, not
 * UTF-8). Each spec states the intended verdict per reading; the generator fails when the
 * validator disagrees, then records the validator's findings as the expected ones.
 */
import { ACH, type Doc, edit, NOW, ON_CHAIN, PIX, SEPA_CT, SEPA_INST, SWIFT, UPI, withTop } from './bases.js';

/** What a reading must give: valid (warnings listed may appear), errors of these IDs, or either verdict. */
export type Intent = { valid: true; warn?: string[] } | { errors: string[] } | { acceptable: string };

export interface DocSpec {
  id: string;
  comment: string;
  req: string[];
  flags?: string[];
  doc?: unknown;
  text?: string;
  bytes?: Buffer;
  now?: string;
  maxValiditySeconds?: number;
  payee: Intent;
  wallet: Intent;
}

const V: Intent = { valid: true };
const warn = (...ids: string[]): Intent => ({ valid: true, warn: ids });
const err = (...ids: string[]): Intent => ({ errors: ids });
const either = (why: string): Intent => ({ acceptable: why });

function both(
  id: string,
  comment: string,
  req: string[],
  doc: unknown,
  intent: Intent,
  extra: Partial<DocSpec> = {},
): DocSpec {
  return { id, comment, req, doc, payee: intent, wallet: intent, ...extra };
}

/** Sets an IBAN (top level and rail_address). */
const iban = (d: Doc, v: string): Doc =>
  edit(d, (x) => {
    x.iban = v;
    (x.payee as Doc).rail_address = { ...((x.payee as Doc).rail_address as Doc), iban: v };
  });
const receiver = (v: string): Doc =>
  edit(ON_CHAIN, (x) => {
    x.receiver_address = v;
    ((x.payee as Doc).rail_address as Doc).receiver_address = v;
  });
const amount = (v: unknown): Doc => edit(SEPA_CT, (x) => ((x.value as Doc).amount = v));
const memo = (v: unknown): Doc => withTop(SEPA_CT, { memo: v });
const ext = (extensions: Doc): Doc => withTop(SEPA_CT, { extensions });
const display = (v: unknown): Doc =>
  edit(SEPA_CT, (x) => {
    if (v === undefined) delete (x.payee as Doc).display_name;
    else (x.payee as Doc).display_name = v;
  });
const asset = (a: Doc): Doc => edit(SEPA_CT, (x) => ((x.value as Doc).asset = a));
const onchainAsset = (a: Doc): Doc => edit(ON_CHAIN, (x) => ((x.value as Doc).asset = a));

const A140 = 'a'.repeat(140);
const A141 = 'a'.repeat(141);
// U+1F600 is one code point and two UTF-16 units (profile 2: lengths count code points)
const SMILE140 = '\u{1F600}'.repeat(140);
const SMILE141 = '\u{1F600}'.repeat(141);
const TWO_256 = (2n ** 256n).toString();
const TWO_256_MINUS_1 = (2n ** 256n - 1n).toString();

const PAYER = 'CPR-INV-1-NO-PAYER-DATA';

/** The UTF-8 bytes of `text` with the byte after "Order " replaced by 0xFF (never valid UTF-8). */
function notUtf8(text: string): Buffer {
  const b = Buffer.from(text, 'utf8');
  b[b.indexOf('Order 1234') + 6] = 0xff;
  return b;
}
const SEP = 'CPR-INV-6-SEPARATION';
const DUPLICATES_EITHER =
  'profile 1: a reader should refuse duplicate member names (a wallet with 422 INVALID_STRUCTURE), a SHOULD: accepting the text is allowed; the reference validator warns';
const PAYER_EITHER =
  'profile 3: a wallet may refuse a cpr carrying payer, authorization or state data or derive it with the data ignored; a validator in the wallet reading may report it either way';

/** What every valid document of a rail case holds to, at the valid side of each rule. */
const BASE_VALID = [
  'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
  'CPR-2.1-VERSION',
  'CPR-2.1-REQUIRED-FIELDS',
  'CPR-2.1-FIELD-TYPES',
  'CPR-2.2-RAIL-ADDRESS',
  'PRF-2-RAIL-ADDRESS-AGREES',
  'CPR-2.3-ASSET-REQUIRED',
  'CPR-2.3-ASSET-TYPE',
  'CPR-2.3-ASSET-CODE-ISO4217',
  'CPR-2.3-AMOUNT-SMALLEST-UNIT',
  'PRF-1-AMOUNT-FORMAT',
  'PRF-1-AMOUNT-NUMBER-SAFE',
  'CPR-2.4-RAIL-HINT-ENUM',
  'PRF-2-EXACTLY-ONE-SUB-INTERFACE',
  'PRF-2-ONE-SUB-INTERFACE-ANY-HINT',
];
const IBAN_VALID = [
  ...BASE_VALID,
  'CPR-2.6-IBAN-VALID',
  'CPR-2.6-BIC-VALID',
  'CPR-2.6-BENEFICIARY-NAME',
  'CPR-2.2-OPTIONAL-FIELD-PRESENT',
];

/** Every document spec. */
export function documentSpecs(): DocSpec[] {
  const specs: DocSpec[] = [
    // ------------------------------------------------------------------ each rail, valid
    both(
      'rail-sepa-ct',
      'a complete SEPA_CT request',
      [
        ...IBAN_VALID,
        'CPR-2.6-IBAN-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.4-SUB-INTERFACE-TOP-LEVEL',
      ],
      SEPA_CT,
      V,
    ),
    both(
      'rail-sepa-inst',
      'a complete SEPA_INST request',
      [
        ...IBAN_VALID,
        'CPR-2.6-IBAN-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.4-SUB-INTERFACE-TOP-LEVEL',
      ],
      SEPA_INST,
      V,
    ),
    both(
      'rail-swift',
      'a complete SWIFT request in GBP',
      [
        ...IBAN_VALID,
        'CPR-2.6-IBAN-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.4-SUB-INTERFACE-TOP-LEVEL',
      ],
      SWIFT,
      V,
    ),
    both(
      'rail-ach',
      'a complete ACH request (account sub-interface)',
      [
        ...BASE_VALID,
        'CPR-2.7-ACCOUNT-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.7-ROUTING-FIELDS',
        'CPR-2.7-OPTIONAL-FIELD-TYPES',
        'CPR-2.7-ACCOUNT-NUMBER',
      ],
      ACH,
      V,
    ),
    both(
      'rail-pix',
      'a complete PIX request (instant-key sub-interface)',
      [
        ...BASE_VALID,
        'CPR-2.8-INSTANT-KEY-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.8-OPTIONAL-FIELD-TYPES',
        'CPR-2.8-KEY-TYPE',
        'CPR-2.8-KEY-VALUE',
      ],
      PIX,
      V,
    ),
    both(
      'rail-upi',
      'a complete UPI request (instant-key sub-interface)',
      [
        ...BASE_VALID,
        'CPR-2.8-INSTANT-KEY-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.8-OPTIONAL-FIELD-TYPES',
        'CPR-2.8-KEY-TYPE',
        'CPR-2.8-KEY-VALUE',
      ],
      UPI,
      V,
    ),
    both(
      'rail-on-chain',
      'a complete ON_CHAIN request',
      [
        ...BASE_VALID,
        'CPR-2.5-ONCHAIN-FIELDS',
        'PRF-2-SUB-INTERFACE-SELECTION',
        'CPR-2.4-SUB-INTERFACE-BY-HINT',
        'CPR-2.5-RAIL-HINT-ON-CHAIN',
        'CPR-2.5-CHAIN-ID',
        'CPR-2.5-RECEIVER-ADDRESS',
        'PRF-2-CHAIN-ID-AGREES',
        'CPR-2.3-CHAIN-ID-REQUIRED',
      ],
      ON_CHAIN,
      V,
    ),
    both(
      'rail-open-iban',
      'rail_hint OPEN: the IBAN sub-interface is the one completed',
      ['PRF-2-OPEN-SUB-INTERFACE'],
      withTop(SEPA_CT, { rail_hint: 'OPEN' }),
      V,
    ),
    both(
      'rail-absent-instant-key',
      'no rail_hint: the instant-key sub-interface is the one completed',
      ['PRF-2-OPEN-SUB-INTERFACE'],
      withTop(PIX, { rail_hint: undefined }),
      V,
    ),
    both(
      'rail-absent-account',
      'no rail_hint: the account sub-interface is the one completed',
      ['PRF-2-OPEN-SUB-INTERFACE'],
      withTop(ACH, { rail_hint: undefined }),
      V,
    ),
    // ------------------------------------------------------------------ version and required fields
    both(
      'version-wrong',
      'cpr_version CPR-2.0',
      ['CPR-2.1-VERSION', 'CPR-9-VERSION'],
      withTop(SEPA_CT, { cpr_version: 'CPR-2.0' }),
      err('CPR-2.1-VERSION'),
    ),
    both(
      'version-lower-case',
      'cpr_version cpr-1.0: the comparison is exact',
      ['CPR-2.1-VERSION'],
      withTop(SEPA_CT, { cpr_version: 'cpr-1.0' }),
      err('CPR-2.1-VERSION'),
    ),
    both(
      'version-missing',
      'no cpr_version',
      ['CPR-2.1-REQUIRED-FIELDS'],
      withTop(SEPA_CT, { cpr_version: undefined }),
      err('CPR-2.1-REQUIRED-FIELDS'),
    ),
    both(
      'payee-missing',
      'no payee',
      ['CPR-2.1-REQUIRED-FIELDS'],
      withTop(SEPA_CT, { payee: undefined }),
      err('CPR-2.1-REQUIRED-FIELDS'),
    ),
    both(
      'value-missing',
      'no value',
      ['CPR-2.1-REQUIRED-FIELDS'],
      withTop(SEPA_CT, { value: undefined }),
      err('CPR-2.1-REQUIRED-FIELDS'),
    ),
    both(
      'expires-at-missing',
      'no expires_at: every CPR has a validity window bounded by expires_at',
      [
        'CPR-2.1-REQUIRED-FIELDS',
        'CPR-1-VALIDITY-WINDOW',
        'CPR-8-REQUEST-VALIDITY',
        'CPR-INV-8-BOUNDED-EXPIRY',
      ],
      withTop(SEPA_CT, { expires_at: undefined }),
      err('CPR-2.1-REQUIRED-FIELDS'),
    ),
    both(
      'created-at-missing',
      'no created_at',
      ['CPR-2.1-REQUIRED-FIELDS'],
      withTop(SEPA_CT, { created_at: undefined }),
      err('CPR-2.1-REQUIRED-FIELDS'),
    ),
    both(
      'not-an-object-array',
      'the document is a JSON array',
      ['CPR-4.3-VALIDATE-BEFORE-PROCESSING'],
      [SEPA_CT],
      err('CPR-4.3-VALIDATE-BEFORE-PROCESSING'),
    ),
    both(
      'not-an-object-null',
      'the document is null',
      ['CPR-4.3-VALIDATE-BEFORE-PROCESSING'],
      null,
      err('CPR-4.3-VALIDATE-BEFORE-PROCESSING'),
    ),
    // ------------------------------------------------------------------ request_id
    both(
      'request-id-v4',
      'a UUIDv4 request_id',
      ['PRF-1-IDENTIFIER-UUID', 'CPR-2.1-REQUEST-ID-UUIDV4'],
      SEPA_CT,
      V,
    ),
    both(
      'request-id-v1',
      'a UUIDv1 request_id: a UUID, not v4 (SHOULD)',
      ['CPR-2.1-REQUEST-ID-UUIDV4', 'PRF-1-IDENTIFIER-UUIDV4'],
      withTop(SEPA_CT, { request_id: 'c232ab00-9414-11ec-b3c8-9f6bdeced846' }),
      warn('CPR-2.1-REQUEST-ID-UUIDV4'),
    ),
    {
      id: 'request-id-not-uuid',
      comment: 'request_id order-42: a payee emits UUIDs; a wallet accepts any non-empty string (profile 1)',
      req: ['PRF-1-IDENTIFIER-UUID', 'PRF-1-WALLET-ANY-REQUEST-ID'],
      doc: withTop(SEPA_CT, { request_id: 'order-42' }),
      payee: err('PRF-1-IDENTIFIER-UUID'),
      wallet: warn('PRF-1-IDENTIFIER-UUID'),
    },
    both(
      'request-id-empty',
      'an empty request_id',
      ['PRF-1-IDENTIFIER-UUID'],
      withTop(SEPA_CT, { request_id: '' }),
      err('PRF-1-IDENTIFIER-UUID'),
    ),
    both(
      'request-id-number',
      'a request_id that is a number',
      ['CPR-2.1-FIELD-TYPES'],
      withTop(SEPA_CT, { request_id: 42 }),
      { errors: [] },
    ),
    // ------------------------------------------------------------------ timestamps
    both(
      'timestamps-fraction',
      'created_at with milliseconds, Z',
      ['CPR-2.1-TIMESTAMPS-UTC', 'PRF-1-TIMESTAMP-Z'],
      ON_CHAIN,
      V,
    ),
    {
      id: 'timestamps-offset-plus-02',
      comment: 'created_at with +02:00: not UTC for a payee; a wallet reads any offset (profile 1)',
      req: ['CPR-2.1-TIMESTAMPS-UTC', 'PRF-1-TIMESTAMP-Z', 'PRF-1-TIMESTAMP-ANY-OFFSET'],
      doc: withTop(SEPA_CT, { created_at: '2026-06-01T13:00:00+02:00' }),
      payee: err('CPR-2.1-TIMESTAMPS-UTC'),
      wallet: warn('PRF-1-TIMESTAMP-Z'),
    },
    {
      id: 'timestamps-offset-zero',
      comment: 'created_at with +00:00: UTC, but not written with Z (profile 1)',
      req: ['PRF-1-TIMESTAMP-Z', 'PRF-2-TIMESTAMPS-Z'],
      doc: withTop(SEPA_CT, { created_at: '2026-06-01T11:00:00+00:00' }),
      payee: err('PRF-1-TIMESTAMP-Z'),
      wallet: warn('PRF-1-TIMESTAMP-Z'),
    },
    {
      id: 'timestamps-plus-14-expired',
      comment:
        'expires_at 2026-06-02T01:00:00+14:00 is 2026-06-01T11:00:00Z, before now: instants compared, not wall times',
      req: ['PRF-1-TIMESTAMP-ANY-OFFSET', 'CPR-7-EXPIRED-REJECTED'],
      doc: withTop(SEPA_CT, { expires_at: '2026-06-02T01:00:00+14:00', created_at: '2026-06-01T10:00:00Z' }),
      payee: err('CPR-2.1-TIMESTAMPS-UTC'),
      wallet: err('CPR-7-EXPIRED-REJECTED'),
    },
    {
      id: 'timestamps-minus-12-future',
      comment: 'expires_at 2026-06-01T01:00:00-12:00 is 2026-06-01T13:00:00Z, after now',
      req: ['PRF-1-TIMESTAMP-ANY-OFFSET'],
      doc: withTop(SEPA_CT, { expires_at: '2026-06-01T01:00:00-12:00' }),
      payee: err('CPR-2.1-TIMESTAMPS-UTC'),
      wallet: warn('PRF-1-TIMESTAMP-Z'),
    },
    both(
      'timestamps-not-rfc3339',
      'created_at 2026-06-01 11:00:00 (no T, no offset)',
      ['CPR-2.1-TIMESTAMPS-UTC'],
      withTop(SEPA_CT, { created_at: '2026-06-01 11:00:00' }),
      err('CPR-2.1-TIMESTAMPS-UTC'),
    ),
    both(
      'timestamps-no-offset',
      'created_at 2026-06-01T11:00:00 (no offset)',
      ['CPR-2.1-TIMESTAMPS-UTC'],
      withTop(SEPA_CT, { created_at: '2026-06-01T11:00:00' }),
      err('CPR-2.1-TIMESTAMPS-UTC'),
    ),
    both(
      'timestamps-february-30',
      'created_at 2026-02-30T11:00:00Z (no such day)',
      ['CPR-2.1-TIMESTAMPS-UTC'],
      withTop(SEPA_CT, { created_at: '2026-02-30T11:00:00Z' }),
      err('CPR-2.1-TIMESTAMPS-UTC'),
    ),
    both(
      'timestamps-lower-case-z',
      'created_at 2026-06-01t11:00:00z: RFC 3339 (5.6) allows lower-case t and z, so a reader takes it; profile 1 has an emitter write Z',
      ['CPR-2.1-TIMESTAMPS-UTC', 'PRF-1-TIMESTAMP-Z', 'PRF-1-TIMESTAMP-ANY-OFFSET'],
      withTop(SEPA_CT, { created_at: '2026-06-01t11:00:00z' }),
      V,
      { payee: err('PRF-1-TIMESTAMP-Z'), wallet: warn('PRF-1-TIMESTAMP-Z') },
    ),
    // ------------------------------------------------------------------ created_at < expires_at
    both(
      'created-equals-expires',
      'created_at equal to expires_at',
      ['PRF-2-CREATED-BEFORE-EXPIRES'],
      withTop(SEPA_CT, { created_at: '2026-06-02T11:00:00Z' }),
      err('PRF-2-CREATED-BEFORE-EXPIRES'),
    ),
    both(
      'created-1ms-before-expires',
      'created_at one millisecond before expires_at',
      ['PRF-2-CREATED-BEFORE-EXPIRES'],
      withTop(SEPA_CT, { created_at: '2026-06-02T10:59:59.999Z' }),
      V,
    ),
    both(
      'created-after-expires',
      'created_at after expires_at',
      ['PRF-2-CREATED-BEFORE-EXPIRES'],
      withTop(SEPA_CT, { created_at: '2026-06-02T12:00:00Z' }),
      err('PRF-2-CREATED-BEFORE-EXPIRES'),
    ),
    // ------------------------------------------------------------------ expiry against now
    {
      id: 'expires-at-now',
      comment: 'expires_at equal to now: not in the future (spec 4.4 step 1)',
      req: ['CPR-2.1-EXPIRES-AT', 'CPR-7-EXPIRED-REJECTED', 'CPR-INV-2-EXPIRY-ENFORCEMENT'],
      doc: withTop(SEPA_CT, { expires_at: NOW }),
      payee: err('CPR-2.1-EXPIRES-AT'),
      wallet: err('CPR-7-EXPIRED-REJECTED'),
    },
    both(
      'expires-at-1s-after-now',
      'expires_at one second after now',
      ['CPR-2.1-EXPIRES-AT', 'CPR-7-EXPIRED-REJECTED'],
      withTop(SEPA_CT, { expires_at: '2026-06-01T12:00:01Z' }),
      V,
    ),
    {
      id: 'expires-at-1s-before-now',
      comment: 'expires_at one second before now',
      req: ['CPR-2.1-EXPIRES-AT', 'CPR-7-EXPIRED-REJECTED'],
      doc: withTop(SEPA_CT, { expires_at: '2026-06-01T11:59:59Z' }),
      payee: err('CPR-2.1-EXPIRES-AT'),
      wallet: err('CPR-7-EXPIRED-REJECTED'),
    },
    // ------------------------------------------------------------------ validity ceiling (30 days)
    both(
      'validity-30-days',
      'expires_at - created_at exactly 30 days (the default ceiling)',
      ['PRF-2-VALIDITY-CEILING'],
      withTop(SEPA_CT, { expires_at: '2026-07-01T11:00:00Z' }),
      V,
    ),
    both(
      'validity-30-days-1s',
      'expires_at - created_at 30 days and one second: a warning',
      ['PRF-2-VALIDITY-CEILING'],
      withTop(SEPA_CT, { expires_at: '2026-07-01T11:00:01Z' }),
      warn('PRF-2-VALIDITY-CEILING'),
    ),
    both(
      'validity-100-years',
      'a window of a century: still only a warning (profile 2)',
      ['PRF-2-VALIDITY-CEILING', 'CPR-INV-8-BOUNDED-EXPIRY'],
      withTop(SEPA_CT, { expires_at: '2126-06-01T11:00:00Z' }),
      warn('PRF-2-VALIDITY-CEILING'),
    ),
    both(
      'validity-ceiling-configured',
      'a 2-hour window against a configured ceiling of 3600 s',
      ['PRF-2-VALIDITY-CEILING'],
      withTop(SEPA_CT, { expires_at: '2026-06-01T13:00:00Z' }),
      warn('PRF-2-VALIDITY-CEILING'),
      { maxValiditySeconds: 3600 },
    ),
    // ------------------------------------------------------------------ memo length
    both('memo-140', 'memo of 140 code points', ['CPR-2.1-MEMO-LENGTH', 'CPR-8-MEMO-LENGTH'], memo(A140), V),
    both(
      'memo-141',
      'memo of 141 code points',
      ['CPR-2.1-MEMO-LENGTH', 'CPR-8-MEMO-LENGTH'],
      memo(A141),
      err('CPR-2.1-MEMO-LENGTH'),
    ),
    both(
      'memo-140-astral',
      'memo of 140 code points outside the BMP (280 UTF-16 units)',
      ['PRF-2-LENGTH-CODE-POINTS'],
      memo(SMILE140),
      V,
    ),
    both(
      'memo-141-astral',
      'memo of 141 code points outside the BMP',
      ['PRF-2-LENGTH-CODE-POINTS', 'CPR-2.1-MEMO-LENGTH'],
      memo(SMILE141),
      err('CPR-2.1-MEMO-LENGTH'),
    ),
    both('memo-empty', 'an empty memo', ['CPR-2.1-MEMO-LENGTH'], memo(''), V),
    both(
      'memo-number',
      'a memo that is a number',
      ['CPR-2.1-FIELD-TYPES'],
      memo(42),
      err('CPR-2.1-FIELD-TYPES'),
    ),
    // ------------------------------------------------------------------ amount
    both('amount-1', 'amount "1": the smallest', ['PRF-1-AMOUNT-FORMAT'], amount('1'), V),
    both('amount-0', 'amount "0"', ['PRF-1-AMOUNT-FORMAT'], amount('0'), err('PRF-1-AMOUNT-FORMAT')),
    both(
      'amount-2-256-minus-1',
      'amount 2^256 - 1: the largest',
      ['PRF-1-AMOUNT-FORMAT'],
      amount(TWO_256_MINUS_1),
      V,
    ),
    both(
      'amount-2-256',
      'amount 2^256',
      ['PRF-1-AMOUNT-FORMAT'],
      amount(TWO_256),
      err('PRF-1-AMOUNT-FORMAT'),
    ),
    both(
      'amount-leading-zero',
      'amount "02500"',
      ['PRF-1-AMOUNT-FORMAT'],
      amount('02500'),
      err('PRF-1-AMOUNT-FORMAT'),
    ),
    both(
      'amount-fraction',
      'amount "25.00"',
      ['CPR-2.3-AMOUNT-SMALLEST-UNIT'],
      amount('25.00'),
      err('CPR-2.3-AMOUNT-SMALLEST-UNIT'),
    ),
    both(
      'amount-negative',
      'amount "-2500"',
      ['CPR-2.3-AMOUNT-SMALLEST-UNIT'],
      amount('-2500'),
      err('CPR-2.3-AMOUNT-SMALLEST-UNIT'),
    ),
    both('amount-plus-sign', 'amount "+2500"', ['PRF-1-AMOUNT-FORMAT'], amount('+2500'), { errors: [] }),
    both('amount-space', 'amount " 2500"', ['PRF-1-AMOUNT-FORMAT'], amount(' 2500'), { errors: [] }),
    both('amount-exponent', 'amount "25e2"', ['PRF-1-AMOUNT-FORMAT'], amount('25e2'), { errors: [] }),
    {
      id: 'amount-number-safe',
      comment:
        'amount the JSON number 2500: a payee emits strings; a wallet accepts a safe integer with a warning',
      req: ['PRF-1-AMOUNT-FORMAT', 'PRF-1-AMOUNT-NUMBER-SAFE'],
      doc: amount(2500),
      payee: err('PRF-1-AMOUNT-FORMAT'),
      wallet: warn('PRF-1-AMOUNT-NUMBER-SAFE'),
    },
    {
      id: 'amount-number-max-safe',
      comment:
        'amount the JSON number 2^53 - 1 (9007199254740991): the largest safe integer, accepted by a wallet with a warning',
      req: ['PRF-1-AMOUNT-FORMAT', 'PRF-1-AMOUNT-NUMBER-SAFE', 'PRF-1-AMOUNT-NUMBER-UNSAFE'],
      doc: amount(9007199254740991),
      payee: err('PRF-1-AMOUNT-FORMAT'),
      wallet: warn('PRF-1-AMOUNT-NUMBER-SAFE'),
    },
    {
      id: 'amount-number-unsafe',
      comment: 'amount the JSON number 2^53 (9007199254740992): not a safe integer, precision may be lost',
      req: ['PRF-1-AMOUNT-FORMAT', 'PRF-1-AMOUNT-NUMBER-UNSAFE', 'PRF-1-AMOUNT-PRECISION'],
      doc: amount(9007199254740992),
      payee: err('PRF-1-AMOUNT-FORMAT'),
      wallet: err('PRF-1-AMOUNT-NUMBER-UNSAFE'),
    },
    {
      id: 'amount-number-fraction',
      comment: 'amount the JSON number 25.5',
      req: ['PRF-1-AMOUNT-FORMAT', 'PRF-1-AMOUNT-NUMBER-UNSAFE'],
      doc: amount(25.5),
      payee: { errors: [] },
      wallet: { errors: [] },
    },
    both(
      'amount-open',
      'no amount: an open amount',
      ['CPR-2.3-AMOUNT-OMITTED-OPEN'],
      edit(SEPA_CT, (d) => delete (d.value as Doc).amount),
      V,
    ),
    // ------------------------------------------------------------------ asset
    both(
      'asset-type-unknown',
      'asset.type "cash"',
      ['CPR-2.3-ASSET-TYPE'],
      asset({ type: 'cash', code: 'EUR' }),
      err('CPR-2.3-ASSET-TYPE'),
    ),
    both(
      'asset-missing',
      'value without asset',
      ['CPR-2.3-ASSET-REQUIRED'],
      edit(SEPA_CT, (d) => delete (d.value as Doc).asset),
      { errors: [] },
    ),
    both(
      'asset-code-lower-case',
      'fiat asset.code "eur"',
      ['CPR-2.3-ASSET-CODE-ISO4217'],
      asset({ type: 'fiat', code: 'eur' }),
      err('CPR-2.3-ASSET-CODE-ISO4217'),
    ),
    both(
      'asset-code-not-iso4217',
      'fiat asset.code "ABC" (not in ISO 4217)',
      ['CPR-2.3-ASSET-CODE-ISO4217'],
      asset({ type: 'fiat', code: 'ABC' }),
      err('CPR-2.3-ASSET-CODE-ISO4217'),
    ),
    both(
      'asset-crypto-no-chain-id',
      'crypto asset without chain_id: allowed',
      ['CPR-2.3-CHAIN-ID-REQUIRED'],
      onchainAsset({ type: 'crypto', code: 'ETH' }),
      V,
    ),
    both(
      'asset-stablecoin-no-chain-id',
      'stablecoin asset without chain_id',
      ['CPR-2.3-CHAIN-ID-REQUIRED'],
      onchainAsset({ type: 'stablecoin', code: 'USDC' }),
      err('CPR-2.3-CHAIN-ID-REQUIRED'),
    ),
    both(
      'asset-tokenized-no-chain-id',
      'tokenized asset without chain_id',
      ['CPR-2.3-CHAIN-ID-REQUIRED'],
      onchainAsset({ type: 'tokenized', code: 'BOND1' }),
      err('CPR-2.3-CHAIN-ID-REQUIRED'),
    ),
    // ------------------------------------------------------------------ rail_hint
    {
      id: 'rail-hint-unrecognised',
      comment:
        'rail_hint "sepa_ct": outside the eight (case-sensitive); a wallet reads it as OPEN (profile 3)',
      req: ['CPR-2.4-RAIL-HINT-ENUM', 'CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED'],
      doc: withTop(SEPA_CT, { rail_hint: 'sepa_ct' }),
      payee: err('CPR-2.4-RAIL-HINT-ENUM'),
      wallet: warn('CPR-2.4-RAIL-HINT-ENUM'),
    },
    {
      id: 'rail-hint-unrecognised-no-sub-interface',
      comment: 'rail_hint "BITCOIN" on a document that completes no sub-interface',
      req: ['CPR-2.4-RAIL-HINT-ENUM', 'PRF-2-EXACTLY-ONE-SUB-INTERFACE'],
      doc: withTop(SEPA_CT, { rail_hint: 'BITCOIN', iban: undefined, beneficiary_name: undefined }),
      payee: err('CPR-2.4-RAIL-HINT-ENUM'),
      wallet: { errors: [] },
    },
    both(
      'rail-hint-number',
      'rail_hint 42',
      ['CPR-2.4-RAIL-HINT-ENUM'],
      withTop(SEPA_CT, { rail_hint: 42 }),
      err('CPR-2.4-RAIL-HINT-ENUM'),
    ),
    // ------------------------------------------------------------------ sub-interfaces
    both(
      'iban-beneficiary-missing',
      'SEPA_CT without beneficiary_name',
      ['CPR-2.6-IBAN-FIELDS'],
      withTop(SEPA_CT, { beneficiary_name: undefined }),
      err('CPR-2.6-IBAN-FIELDS'),
    ),
    both(
      'iban-iban-missing',
      'SEPA_CT without iban',
      ['CPR-2.6-IBAN-FIELDS'],
      withTop(SEPA_CT, { iban: undefined }),
      { errors: [] },
    ),
    both(
      'account-number-missing',
      'ACH without account_number',
      ['CPR-2.7-ACCOUNT-FIELDS'],
      withTop(ACH, { account_number: undefined }),
      { errors: [] },
    ),
    both(
      'instant-key-value-missing',
      'PIX without key_value',
      ['CPR-2.8-INSTANT-KEY-FIELDS'],
      withTop(PIX, { key_value: undefined }),
      { errors: [] },
    ),
    both(
      'onchain-receiver-missing',
      'ON_CHAIN without receiver_address',
      ['CPR-2.5-ONCHAIN-FIELDS'],
      withTop(ON_CHAIN, { receiver_address: undefined }),
      { errors: [] },
    ),
    both(
      'onchain-chain-id-missing',
      'ON_CHAIN without the top-level chain_id',
      ['CPR-2.5-ONCHAIN-FIELDS'],
      withTop(ON_CHAIN, { chain_id: undefined }),
      { errors: [] },
    ),
    both(
      'onchain-without-hint',
      'on-chain fields without rail_hint ON_CHAIN (spec 2.5)',
      ['PRF-2-OPEN-SUB-INTERFACE', 'CPR-2.5-RAIL-HINT-ON-CHAIN'],
      withTop(ON_CHAIN, { rail_hint: undefined }),
      { errors: [] },
    ),
    both(
      'open-no-sub-interface',
      'rail_hint OPEN and no sub-interface completed',
      ['PRF-2-EXACTLY-ONE-SUB-INTERFACE'],
      withTop(SEPA_CT, {
        rail_hint: 'OPEN',
        iban: undefined,
        beneficiary_name: undefined,
        bic: undefined,
        remittance_info: undefined,
      }),
      { errors: [] },
    ),
    both(
      'open-two-sub-interfaces',
      'rail_hint OPEN, both IBAN and account sets complete',
      ['PRF-2-EXACTLY-ONE-SUB-INTERFACE'],
      withTop(SEPA_CT, { rail_hint: 'OPEN', account_number: '000123456789' }),
      { errors: [] },
    ),
    both(
      'sepa-ct-also-account',
      'SEPA_CT that also completes the account set (profile 2: whatever the hint)',
      ['PRF-2-ONE-SUB-INTERFACE-ANY-HINT', 'PRF-2-WALLET-ONE-SUB-INTERFACE'],
      withTop(SEPA_CT, { account_number: '000123456789' }),
      { errors: [] },
    ),
    both(
      'pix-also-iban',
      'PIX that also completes the IBAN set',
      ['PRF-2-ONE-SUB-INTERFACE-ANY-HINT'],
      withTop(PIX, { iban: 'DE89370400440532013000', beneficiary_name: 'Loja Exemplo' }),
      { errors: [] },
    ),
    both(
      'sub-interface-field-type',
      'ACH with bank_name 7 (not a string)',
      ['CPR-2.7-OPTIONAL-FIELD-TYPES'],
      withTop(ACH, { bank_name: 7 }),
      { errors: [] },
    ),
    both(
      'iban-end-to-end-id-type',
      'SEPA_CT with end_to_end_id 7 (not a string)',
      ['CPR-2.6-END-TO-END-ID'],
      withTop(SEPA_CT, { end_to_end_id: 7 }),
      { errors: [] },
    ),
    both(
      'iban-end-to-end-id',
      'SEPA_CT with an end_to_end_id',
      ['CPR-2.6-END-TO-END-ID'],
      withTop(SEPA_CT, { end_to_end_id: 'E2E-2026-1234' }),
      V,
    ),
    both(
      'iban-beneficiary-name-type',
      'SEPA_CT with beneficiary_name 7',
      ['CPR-2.6-BENEFICIARY-NAME'],
      withTop(SEPA_CT, { beneficiary_name: 7 }),
      { errors: [] },
    ),
    both(
      'account-number-type',
      'ACH with account_number 123456789 (a number)',
      ['CPR-2.7-ACCOUNT-NUMBER'],
      edit(ACH, (d) => {
        d.account_number = 123456789;
        ((d.payee as Doc).rail_address as Doc).account_number = 123456789;
      }),
      { errors: [] },
    ),
    both(
      'account-routing-code-type',
      'ACH with routing_code 21000021 (a number)',
      ['CPR-2.7-ROUTING-FIELDS'],
      edit(ACH, (d) => {
        d.routing_code = 21000021;
        ((d.payee as Doc).rail_address as Doc).routing_code = 21000021;
      }),
      { errors: [] },
    ),
    both(
      'account-sort-code',
      'an account request with a UK sort code',
      ['CPR-2.7-ROUTING-FIELDS', 'CPR-2.7-ACCOUNT-NUMBER'],
      edit(
        withTop(ACH, {
          rail_hint: undefined,
          routing_code: '200000',
          routing_code_type: 'SORT_CODE',
          account_number: '55779911',
          value: { amount: '1999', asset: { type: 'fiat', code: 'GBP' } },
        }),
        (d) =>
          ((d.payee as Doc).rail_address = {
            account_number: '55779911',
            routing_code: '200000',
            routing_code_type: 'SORT_CODE',
          }),
      ),
      V,
    ),
    both(
      'instant-key-type-type',
      'PIX with key_type 7',
      ['CPR-2.8-KEY-TYPE'],
      edit(PIX, (d) => {
        d.key_type = 7;
        ((d.payee as Doc).rail_address as Doc).key_type = 7;
      }),
      { errors: [] },
    ),
    both(
      'instant-key-value-type',
      'PIX with key_value 7',
      ['CPR-2.8-KEY-VALUE'],
      edit(PIX, (d) => {
        d.key_value = 7;
        ((d.payee as Doc).rail_address as Doc).key_value = 7;
      }),
      { errors: [] },
    ),
    both(
      'instant-key-cpf',
      'a PIX request keyed by CPF',
      ['CPR-2.8-KEY-TYPE', 'CPR-2.8-KEY-VALUE'],
      edit(PIX, (d) => {
        d.key_type = 'CPF';
        d.key_value = '12345678909';
        (d.payee as Doc).rail_address = { key_type: 'CPF', key_value: '12345678909' };
      }),
      V,
    ),
    both(
      'onchain-chain-id-type',
      'ON_CHAIN with chain_id 8453 (a number)',
      ['CPR-2.5-CHAIN-ID'],
      withTop(ON_CHAIN, { chain_id: 8453 }),
      { errors: [] },
    ),
    both(
      'instant-key-txid-type',
      'PIX with txid 7 (not a string)',
      ['CPR-2.8-OPTIONAL-FIELD-TYPES'],
      withTop(PIX, { txid: 7 }),
      { errors: [] },
    ),
    // ------------------------------------------------------------------ rail_address
    both(
      'rail-address-absent',
      'payee without rail_address',
      ['CPR-2.2-RAIL-ADDRESS'],
      edit(SEPA_CT, (d) => delete (d.payee as Doc).rail_address),
      { errors: [] },
    ),
    both(
      'rail-address-disagrees',
      'rail_address.iban differs from the top-level iban',
      ['PRF-2-RAIL-ADDRESS-AGREES'],
      edit(SEPA_CT, (d) => (((d.payee as Doc).rail_address as Doc).iban = 'GB29NWBK60161331926819')),
      { errors: [] },
    ),
    both(
      'rail-address-missing-iban',
      'rail_address without the iban',
      ['PRF-2-RAIL-ADDRESS-AGREES'],
      edit(SEPA_CT, (d) => ((d.payee as Doc).rail_address = { bic: 'COBADEFFXXX' })),
      { errors: [] },
    ),
    // ------------------------------------------------------------------ on-chain values
    both(
      'receiver-lower-case',
      'receiver_address all lower case (no checksum)',
      ['CPR-2.5-RECEIVER-ADDRESS'],
      receiver('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'),
      { valid: true },
    ),
    both(
      'receiver-bad-checksum',
      'receiver_address with one letter of the EIP-55 checksum flipped',
      ['CPR-2.5-RECEIVER-ADDRESS'],
      receiver('0x5AAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'),
      { errors: [] },
    ),
    both(
      'receiver-short',
      'receiver_address of 19 bytes',
      ['CPR-2.5-RECEIVER-ADDRESS'],
      receiver('0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeA'),
      { errors: [] },
    ),
    both(
      'order-reference-uuid',
      'order_reference as a canonical UUID',
      ['CPR-2.5-ORDER-REFERENCE'],
      withTop(ON_CHAIN, { order_reference: '7f3c2a1b-9e8d-4c6f-0a1b-2c3d4e5f6071' }),
      V,
    ),
    both(
      'order-reference-0x-hex',
      'order_reference as 0x + 32 hex digits',
      ['CPR-2.5-ORDER-REFERENCE'],
      withTop(ON_CHAIN, { order_reference: '0x7f3c2a1b9e8d4c6f0a1b2c3d4e5f6071' }),
      V,
    ),
    both(
      'order-reference-15-bytes',
      'order_reference of 30 hex digits (15 bytes)',
      ['CPR-2.5-ORDER-REFERENCE'],
      withTop(ON_CHAIN, { order_reference: '7f3c2a1b9e8d4c6f0a1b2c3d4e5f60' }),
      err('CPR-2.5-ORDER-REFERENCE'),
    ),
    both(
      'order-reference-17-bytes',
      'order_reference of 34 hex digits (17 bytes)',
      ['CPR-2.5-ORDER-REFERENCE'],
      withTop(ON_CHAIN, { order_reference: '7f3c2a1b9e8d4c6f0a1b2c3d4e5f607182' }),
      err('CPR-2.5-ORDER-REFERENCE'),
    ),
    both(
      'acquirer-id-zero-uuid',
      'acquirer_id the zero UUID',
      ['CPR-2.5-ACQUIRER-ID'],
      withTop(ON_CHAIN, { acquirer_id: '00000000-0000-0000-0000-000000000000' }),
      V,
    ),
    both(
      'acquirer-id-17-bytes',
      'acquirer_id of 17 bytes',
      ['CPR-2.5-ACQUIRER-ID'],
      withTop(ON_CHAIN, { acquirer_id: '0x00000000000000000000000000000000ff' }),
      err('CPR-2.5-ACQUIRER-ID'),
    ),
    both(
      'domain-separator-32-bytes',
      'domain_separator 0x + 64 hex digits',
      ['CPR-2.5-DOMAIN-SEPARATOR'],
      withTop(ON_CHAIN, { domain_separator: `0x${'ab'.repeat(32)}` }),
      V,
    ),
    both(
      'domain-separator-31-bytes',
      'domain_separator of 31 bytes',
      ['CPR-2.5-DOMAIN-SEPARATOR'],
      withTop(ON_CHAIN, { domain_separator: `0x${'ab'.repeat(31)}` }),
      err('CPR-2.5-DOMAIN-SEPARATOR'),
    ),
    both(
      'domain-separator-no-0x',
      'domain_separator of 64 hex digits without 0x',
      ['CPR-2.5-DOMAIN-SEPARATOR'],
      withTop(ON_CHAIN, { domain_separator: 'ab'.repeat(32) }),
      err('CPR-2.5-DOMAIN-SEPARATOR'),
    ),
    both(
      'contract-address',
      'contract_address a checksummed EVM address',
      ['CPR-2.5-CONTRACT-ADDRESS'],
      withTop(ON_CHAIN, { contract_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }),
      V,
    ),
    both(
      'chain-id-eip155-and-hex-agree',
      'chain ids 8453, eip155:8453 and 0x2105 name one chain',
      ['PRF-2-CHAIN-ID-AGREES'],
      edit(ON_CHAIN, (d) => (((d.payee as Doc).rail_address as Doc).chain_id = '0x2105')),
      V,
    ),
    {
      id: 'chain-id-rail-address-disagrees',
      comment:
        'rail_address.chain_id 1 against chain_id 8453: a payee emits them equal; a wallet may refuse or derive (profile 2)',
      req: ['PRF-2-CHAIN-ID-AGREES'],
      doc: edit(ON_CHAIN, (d) => (((d.payee as Doc).rail_address as Doc).chain_id = '1')),
      payee: { errors: [] },
      wallet: either(
        'profile 2: a wallet may refuse a chain id disagreement with 422 INVALID_STRUCTURE or derive the Payment',
      ),
    },
    {
      id: 'chain-id-asset-disagrees',
      comment: 'value.asset.chain_id eip155:1 against chain_id 8453',
      req: ['PRF-2-CHAIN-ID-AGREES'],
      doc: onchainAsset({ type: 'stablecoin', code: 'USDC', chain_id: 'eip155:1' }),
      payee: { errors: [] },
      wallet: either(
        'profile 2: a wallet may refuse a chain id disagreement with 422 INVALID_STRUCTURE or derive the Payment',
      ),
    },
    // ------------------------------------------------------------------ IBAN, BIC, purpose code, remittance
    both(
      'iban-checksum',
      'an IBAN with wrong check digits',
      ['CPR-2.6-IBAN-VALID'],
      iban(SEPA_CT, 'DE00370400440532013000'),
      err('CPR-2.6-IBAN-VALID'),
    ),
    both(
      'iban-country-length',
      'a German IBAN one digit short',
      ['CPR-2.6-IBAN-VALID'],
      iban(SEPA_CT, 'DE8937040044053201300'),
      err('CPR-2.6-IBAN-VALID'),
    ),
    both(
      'iban-spaces',
      'an IBAN written in groups of four',
      ['CPR-2.6-IBAN-VALID'],
      iban(SEPA_CT, 'DE89 3704 0044 0532 0130 00'),
      { errors: [] },
    ),
    both(
      'iban-lower-case',
      'an IBAN in lower case',
      ['CPR-2.6-IBAN-VALID'],
      iban(SEPA_CT, 'de89370400440532013000'),
      { errors: [] },
    ),
    both(
      'bic-8',
      'an 8-character BIC',
      ['CPR-2.6-BIC-VALID'],
      edit(SEPA_CT, (d) => {
        d.bic = 'COBADEFF';
        ((d.payee as Doc).rail_address as Doc).bic = 'COBADEFF';
      }),
      V,
    ),
    both(
      'bic-9',
      'a 9-character BIC',
      ['CPR-2.6-BIC-VALID'],
      edit(SEPA_CT, (d) => {
        d.bic = 'COBADEFFX';
        ((d.payee as Doc).rail_address as Doc).bic = 'COBADEFFX';
      }),
      { errors: [] },
    ),
    both(
      'purpose-code-listed',
      'purpose_code GDDS (in the published list)',
      ['CPR-2.6-PURPOSE-CODE'],
      withTop(SEPA_CT, { purpose_code: 'GDDS' }),
      V,
    ),
    both(
      'purpose-code-unlisted',
      'purpose_code ZZZZ: well formed, not in the list: a warning',
      ['CPR-2.6-PURPOSE-CODE'],
      withTop(SEPA_CT, { purpose_code: 'ZZZZ' }),
      warn('CPR-2.6-PURPOSE-CODE'),
    ),
    both(
      'purpose-code-5',
      'purpose_code of five characters',
      ['CPR-2.6-PURPOSE-CODE'],
      withTop(SEPA_CT, { purpose_code: 'GDDSX' }),
      err('CPR-2.6-PURPOSE-CODE'),
    ),
    both(
      'purpose-code-lower-case',
      'purpose_code gdds',
      ['CPR-2.6-PURPOSE-CODE'],
      withTop(SEPA_CT, { purpose_code: 'gdds' }),
      err('CPR-2.6-PURPOSE-CODE'),
    ),
    both(
      'remittance-iban-140',
      'IBAN remittance_info of 140 code points',
      ['CPR-2.6-REMITTANCE-LENGTH', 'CPR-8-REMITTANCE-LENGTH'],
      withTop(SEPA_CT, { remittance_info: SMILE140 }),
      V,
    ),
    both(
      'remittance-iban-141',
      'IBAN remittance_info of 141 code points',
      ['CPR-2.6-REMITTANCE-LENGTH', 'CPR-8-REMITTANCE-LENGTH'],
      withTop(SEPA_CT, { remittance_info: A141 }),
      err('CPR-2.6-REMITTANCE-LENGTH'),
    ),
    both(
      'remittance-account-140',
      'account remittance_info of 140 code points',
      ['CPR-2.7-REMITTANCE-LENGTH'],
      withTop(ACH, { remittance_info: A140 }),
      V,
    ),
    both(
      'remittance-account-141',
      'account remittance_info of 141 code points',
      ['CPR-2.7-REMITTANCE-LENGTH'],
      withTop(ACH, { remittance_info: SMILE141 }),
      err('CPR-2.7-REMITTANCE-LENGTH'),
    ),
    // ------------------------------------------------------------------ display_name
    both(
      'display-name-absent',
      'payee without display_name',
      ['CPR-2.2-DISPLAY-NAME'],
      display(undefined),
      V,
    ),
    {
      id: 'display-name-empty',
      comment: 'payee.display_name "": a payee error, accepted by a wallet (profile 2)',
      req: ['PRF-2-DISPLAY-NAME-NOT-BLANK'],
      doc: display(''),
      payee: err('PRF-2-DISPLAY-NAME-NOT-BLANK'),
      wallet: V,
    },
    {
      id: 'display-name-white-space',
      comment: 'payee.display_name of white space only',
      req: ['PRF-2-DISPLAY-NAME-NOT-BLANK'],
      doc: display(' \t '),
      payee: err('PRF-2-DISPLAY-NAME-NOT-BLANK'),
      wallet: V,
    },
    both('display-name-number', 'payee.display_name 7', ['CPR-2.2-DISPLAY-NAME'], display(7), { errors: [] }),
    // ------------------------------------------------------------------ extensions
    both(
      'extensions-prefixed',
      'extension keys with reverse-domain prefixes',
      ['CPR-9-EXTENSIONS-NO-BREAK', 'CPR-9-REVERSE-DOMAIN-PREFIX'],
      ext({ 'com.example.loyalty': { points: 12 }, 'org.example:tier': 'gold' }),
      V,
    ),
    {
      id: 'extensions-unprefixed',
      comment: 'an extension key without a prefix: a payee warning (SHOULD); nothing a wallet acts on',
      req: ['CPR-9-REVERSE-DOMAIN-PREFIX', 'CPR-9-IGNORE-UNKNOWN-EXTENSIONS'],
      doc: ext({ loyalty: 12 }),
      payee: warn('CPR-9-REVERSE-DOMAIN-PREFIX'),
      wallet: V,
    },
    both(
      'extensions-not-object',
      'extensions is an array',
      ['CPR-2.1-EXTENSIONS-MAP'],
      withTop(SEPA_CT, { extensions: ['a'] }),
      { errors: [] },
    ),
    both(
      'extensions-named-like-fields',
      'extensions named amount and iban stand for nothing (profile 3)',
      ['CPR-9-EXTENSIONS-NO-BREAK'],
      ext({ 'com.example.amount': '1', 'com.example.iban': 'GB29NWBK60161331926819' }),
      V,
    ),
  ];

  specs.push(
    both(
      'contract-address-short',
      'contract_address of 19 bytes',
      ['CPR-2.5-CONTRACT-ADDRESS'],
      withTop(ON_CHAIN, { contract_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d3' }),
      { errors: [] },
    ),
    both(
      'contract-address-bad-checksum',
      'contract_address with one letter of the EIP-55 checksum flipped',
      ['CPR-2.5-CONTRACT-ADDRESS'],
      withTop(ON_CHAIN, { contract_address: '0xFB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }),
      { errors: [] },
    ),
    both(
      'hint-sepa-ct-account-fields',
      'rail_hint SEPA_CT on a document that completes only the account set: the hint decides',
      ['CPR-2.4-SUB-INTERFACE-BY-HINT'],
      withTop(ACH, { rail_hint: 'SEPA_CT' }),
      { errors: [] },
    ),
    both(
      'hint-pix-iban-fields',
      'rail_hint PIX on a document that completes only the IBAN set',
      ['CPR-2.4-SUB-INTERFACE-BY-HINT'],
      withTop(SEPA_CT, { rail_hint: 'PIX' }),
      { errors: [] },
    ),
  );

  // ------------------------------------------------------------------ no payer data (profile 2 list and readings)
  const payerTop: Array<[string, string, string, ...string[]]> = [
    ['payer', PAYER, 'a top-level payer member', 'CPR-1-NO-PAYER-AUTH-STATE', 'CPR-INV-8-NO-PAYER-DATA'],
    ['payer_email', PAYER, 'a name starting payer_'],
    ['debtor_name', PAYER, 'a name starting debtor'],
    ['authorization', SEP, 'authorization', 'CPR-1-NO-PAYER-AUTH-STATE'],
    ['signed_tx', SEP, 'signed_tx'],
    ['raw_tx', SEP, 'raw_tx'],
    ['permit', SEP, 'permit'],
    ['mandate_id', SEP, 'a name starting mandate'],
    ['execution_date', SEP, 'execution_date'],
    ['state', SEP, 'state', 'CPR-3-NO-STATE'],
    ['status', SEP, 'status', 'CPR-3-NO-STATE', 'CPR-3-CONSUMED-NOT-A-FIELD'],
    ['settlement_account', SEP, 'a name starting settlement'],
    ['signature', SEP, 'a top-level signature (a DerivationContext member)', 'CPR-2.9-CONTEXT-NOT-IN-CPR'],
    ['request', SEP, 'a top-level request (a DerivationContext member)', 'CPR-2.9-CONTEXT-NOT-IN-CPR'],
    ['rail', SEP, 'a top-level rail (a DerivationContext member)', 'CPR-2.9-CONTEXT-NOT-IN-CPR'],
  ];
  for (const [name, id, what, ...more] of payerTop) {
    specs.push({
      id: `payer-data-top-${name.replace(/_/g, '-')}`,
      comment: `${what} at the top level`,
      req: [id, ...more],
      flags: ['PayerData'],
      doc: withTop(SEPA_CT, { [name]: name === 'payer' ? { name: 'Alice' } : 'x' }),
      payee: { errors: [] },
      wallet: either(PAYER_EITHER),
    });
  }
  const payerInExtensions: Array<[string, string]> = [
    ['com.example.status', 'a reverse-domain prefix removed leaves status'],
    ['acme:payer.email', 'acme: removed leaves payer.email, whose reading payeremail starts with payer'],
    ['Checkout Data/payer_ref', 'the tail after / is payer_ref'],
    ['PAYER', 'PAYER compared case-insensitively'],
    ['com.example.Debtor-Account', 'the tail Debtor-Account starts with debtor'],
  ];
  for (const [name, why] of payerInExtensions) {
    specs.push({
      id: `payer-data-extension-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      comment: `extension member ${JSON.stringify(name)}: ${why} (profile 2 readings of a member name)`,
      req: [],
      flags: ['PayerData', 'MemberNameReading'],
      doc: ext({ [name]: 'x' }),
      payee: { errors: [] },
      wallet: either(PAYER_EITHER),
    });
  }
  const notPayer: Array<[string, string]> = [
    ['com.example:statusCode', 'the reading statuscode is not status'],
    ['status.code', 'the tail code is not on the list, and the whole name reads statuscode'],
    ['com.example.payee_ref', 'payee is not payer'],
  ];
  for (const [name, why] of notPayer) {
    specs.push({
      id: `payer-data-extension-not-${name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      comment: `extension member ${JSON.stringify(name)}: ${why}`,
      req: [PAYER, SEP],
      flags: ['MemberNameReading'],
      doc: ext({ [name]: 'x' }),
      payee: V,
      wallet: V,
    });
  }
  specs.push(
    {
      id: 'payer-data-nested-debtor',
      comment: 'a debtor member nested two levels inside extensions',
      req: [PAYER],
      flags: ['PayerData'],
      doc: ext({ 'com.example.checkout': { party: { debtor: 'Alice' } } }),
      payee: { errors: [] },
      wallet: either(PAYER_EITHER),
    },
    both(
      'payer-data-rail-nested',
      'a rail member inside extensions: only a top-level rail is a DerivationContext member',
      [SEP],
      ext({ 'com.example.routing': { rail: 'fast' } }),
      V,
      { flags: ['MemberNameReading'] },
    ),
    {
      id: 'payer-data-floor-customer-email',
      comment:
        'com.example.customer_email: not on the profile list, which is a floor: a validator may recognise more payer terms',
      req: [PAYER],
      flags: ['PayerData'],
      doc: ext({ 'com.example.customer_email': 'alice@example.com' }),
      payee: either(
        'profile 2: the list of payer names is a floor; a validator may recognise more payer terms',
      ),
      wallet: either(PAYER_EITHER),
    },
  );

  // ------------------------------------------------------------------ JSON text (profile 1)
  const sepaText = JSON.stringify(SEPA_CT);
  specs.push(
    {
      id: 'text-bom',
      comment: 'the JSON text starts with a byte order mark (U+FEFF): a payee error; a reader may ignore it',
      req: ['PRF-1-JSON-NO-BOM'],
      flags: ['TextLevel'],
      text: `\uFEFF${sepaText}`,
      payee: err('PRF-1-JSON-NO-BOM'),
      wallet: either(
        'profile 1: a reader may ignore a byte order mark (RFC 8259 8.1 lets it treat one as an error too)',
      ),
    },
    {
      id: 'text-duplicate-top',
      comment: 'memo appears twice at the top level: a payee error; a wallet should refuse it',
      req: ['PRF-1-JSON-UNIQUE-MEMBER-NAMES', 'PRF-1-READER-REFUSES-DUPLICATES'],
      flags: ['TextLevel'],
      text: `${sepaText.slice(0, -1)},"memo":"Order 9999"}`,
      payee: err('PRF-1-JSON-UNIQUE-MEMBER-NAMES'),
      wallet: either(DUPLICATES_EITHER),
    },
    {
      id: 'text-duplicate-nested',
      comment: 'amount appears twice inside value',
      req: ['PRF-1-JSON-UNIQUE-MEMBER-NAMES', 'PRF-1-READER-REFUSES-DUPLICATES'],
      flags: ['TextLevel'],
      text: sepaText.replace('"value":{"amount":"2500",', '"value":{"amount":"2500","amount":"25",'),
      payee: err('PRF-1-JSON-UNIQUE-MEMBER-NAMES'),
      wallet: either(DUPLICATES_EITHER),
    },
    {
      id: 'text-same-name-different-objects',
      comment: 'the name iban in two different objects is no duplicate',
      req: [
        'PRF-1-JSON-UNIQUE-MEMBER-NAMES',
        'PRF-1-READER-REFUSES-DUPLICATES',
        'PRF-1-JSON-NO-BOM',
        'PRF-1-JSON-UTF8',
      ],
      flags: ['TextLevel'],
      text: sepaText,
      payee: V,
      wallet: V,
    },
    {
      id: 'text-escaped-duplicate',
      comment: 'memo and "\\u006demo" are one name once unescaped: a duplicate',
      req: ['PRF-1-JSON-UNIQUE-MEMBER-NAMES'],
      flags: ['TextLevel'],
      text: `${sepaText.slice(0, -1)},"\\u006demo":"Order 9999"}`,
      payee: err('PRF-1-JSON-UNIQUE-MEMBER-NAMES'),
      wallet: either(DUPLICATES_EITHER),
    },
    {
      id: 'text-not-json',
      comment: 'a trailing comma: not JSON',
      req: ['PRF-1-JSON-UTF8'],
      flags: ['TextLevel'],
      text: `${sepaText.slice(0, -1)},}`,
      payee: err('PRF-1-JSON-UTF8'),
      wallet: err('PRF-1-JSON-UTF8'),
    },
    {
      id: 'bytes-not-utf8',
      comment: 'the memo holds the byte 0xFF: not UTF-8',
      req: ['PRF-1-JSON-UTF8'],
      flags: ['TextLevel'],
      bytes: notUtf8(sepaText),
      payee: err('PRF-1-JSON-UTF8'),
      wallet: err('PRF-1-JSON-UTF8'),
    },
    {
      id: 'bytes-utf8-memo',
      comment: 'a memo with a two-byte and a four-byte UTF-8 sequence',
      req: ['PRF-1-JSON-UTF8', 'PRF-2-LENGTH-CODE-POINTS'],
      flags: ['TextLevel'],
      bytes: Buffer.from(JSON.stringify(withTop(SEPA_CT, { memo: 'Café \u{1F600}' })), 'utf8'),
      payee: V,
      wallet: V,
    },
  );
  return specs;
}
