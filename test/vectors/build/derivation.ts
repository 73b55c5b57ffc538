/**
 * The derivation group (spec 4.4, 2.10; profile 3): a CPR, or a URI with the payee's answer, and
 * a DerivationContext, with the Payment expected field by field or the error code, for every
 * rail, fixed and open amounts, and the choices the profile leaves to the wallet.
 */
import { ACH, type Doc, edit, NOW, ON_CHAIN, PIX, SEPA_CT, SEPA_INST, SWIFT, UPI, withTop } from './bases.js';

export type DerivationIntent =
  | { payment: true }
  | { error: string }
  | { either: Array<'payment' | string>; why: string };

export interface DerivationSpec {
  id: string;
  comment: string;
  req: string[];
  flags?: string[];
  now?: string;
  supported?: string[];
  cpr?: unknown;
  uri?: string;
  payer_amount?: unknown;
  context?: Record<string, unknown>;
  payee_answer?: { retrieval_url: string; status: number; body: unknown };
  intent: DerivationIntent;
}

/** Every rail but SWIFT: the reference wallet's default, and these vectors' unless a case says so. */
export const DEFAULT_RAILS = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI'];

export const CONTEXT = {
  payer: { id: 'payer-7', name: 'Alice Example' },
  rail: { execution_id: 'exec-42', channel: 'app' },
  authorization: { type: 'pin', proof: 'opaque-proof-1' },
};

const PAY: DerivationIntent = { payment: true };
const E = (code: string): DerivationIntent => ({ error: code });
const TOKEN = 'mfrggzdfmztwq2lknnwg23tpobyxe43u';
const inline = (doc: unknown): string =>
  `cpr://inline/${Buffer.from(JSON.stringify(doc), 'utf8').toString('base64url')}`;
const reference = (endpoint: string): string => `cpr://${TOKEN}?endpoint=${encodeURIComponent(endpoint)}`;

const MAP = [
  'CPR-2.10-ID',
  'CPR-2.10-PAYER',
  'CPR-2.10-PAYEE',
  'CPR-2.10-VALUE',
  'CPR-2.10-INTENT-REFERENCE',
  'CPR-2.10-INTENT-CONDITIONS',
  'CPR-2.10-AUTHORIZATION',
  'CPR-2.10-STATE',
  'CPR-2.10-CONTEXT',
  'CPR-2.10-REQUEST-ID-BOUND',
  'PRF-3-PAYMENT-SHAPE',
  'PRF-3-PAYMENT-PAYEE',
  'PRF-3-PAYMENT-CONTEXT-RAIL',
  'PRF-3-PAYMENT-ID-UUID',
  'PRF-3-INTENT-CONDITIONS',
  'CPR-4.4-ASSEMBLE-PAYMENT',
  'CPR-INV-5-VALUE-INTEGRITY',
];
const PAYER_EITHER =
  'profile 3: a cpr carrying payer, authorization or state data may be refused with INVALID_STRUCTURE or derived with that data ignored';

/** Every derivation spec. */
export function derivationSpecs(): DerivationSpec[] {
  const rails: Array<[string, Doc]> = [
    ['sepa-ct', SEPA_CT],
    ['sepa-inst', SEPA_INST],
    ['ach', ACH],
    ['pix', PIX],
    ['upi', UPI],
    ['on-chain', ON_CHAIN],
  ];
  const specs: DerivationSpec[] = rails.map(([slug, doc]) => ({
    id: `rail-${slug}`,
    comment: `a fixed-amount ${doc.rail_hint} request: every Payment field`,
    req: [
      ...MAP,
      'CPR-4.3-DIRECT-JSON',
      'CPR-4.4-PARSE-VALIDATE',
      'CPR-INV-7-DERIVATION',
      'CPR-3-PAYMENT-CREATED',
      'CPR-4.4-VALUE-FROM-REQUEST',
      'CPR-4.4-INTENT-FROM-MEMO',
      'CPR-4.4-PAYER-FROM-APPLICATION',
    ],
    cpr: doc,
    intent: PAY,
  }));
  specs.push(
    {
      id: 'rail-swift-supported',
      comment: 'a SWIFT request to a wallet that serves SWIFT',
      req: [...MAP],
      supported: ['SWIFT', 'SEPA_CT'],
      cpr: SWIFT,
      intent: PAY,
    },
    {
      id: 'rail-swift-unsupported',
      comment: 'a SWIFT request to a wallet that serves no SWIFT: refused with a message, never ignored',
      req: [
        'CPR-4.4-REJECT-UNSERVABLE-RAIL',
        'CPR-4.5-UNSUPPORTED-RAIL-NOT-IGNORED',
        'CPR-4.5-UNSUPPORTED-RAIL-MESSAGE',
        'CPR-7-UNSUPPORTED-RAIL',
      ],
      cpr: SWIFT,
      intent: E('UNSUPPORTED_RAIL'),
    },
    {
      id: 'rail-sepa-ct-wallet-only-inst',
      comment:
        'SEPA_CT to a wallet that serves only SEPA_INST: the hint is non-binding, so the wallet may pay by SEPA_INST or refuse the indicated rail',
      req: [
        'CPR-4.4-RAIL-HINT-SIGNAL',
        'CPR-INV-4-RAIL-HINT-ADVISORY',
        'CPR-4.4-NO-RAIL-RESTRICTION',
        'CPR-4.4-REJECT-UNSERVABLE-RAIL',
        'CPR-2.1-RAIL-HINT-NON-BINDING',
      ],
      supported: ['SEPA_INST'],
      cpr: SEPA_CT,
      intent: {
        either: ['payment', 'UNSUPPORTED_RAIL'],
        why: 'spec 4.4 step 2: rail_hint is a non-binding signal, and the application may reject the request when it cannot serve the indicated rail',
      },
    },
    {
      id: 'rail-pix-wallet-serves-none',
      comment:
        'a PIX request to a wallet that serves only SEPA rails: no rail of the instant-key sub-interface',
      req: ['CPR-4.5-UNSUPPORTED-RAIL-NOT-IGNORED'],
      supported: ['SEPA_CT', 'SEPA_INST'],
      cpr: PIX,
      intent: E('UNSUPPORTED_RAIL'),
    },
    {
      id: 'rail-open-iban',
      comment: 'rail_hint OPEN with the IBAN set: the wallet picks a rail of the IBAN sub-interface',
      req: ['PRF-2-OPEN-SUB-INTERFACE', 'CPR-4.4-RAIL-HINT-SIGNAL', ...MAP],
      cpr: withTop(SEPA_CT, { rail_hint: 'OPEN' }),
      intent: PAY,
    },
    {
      id: 'rail-absent-account',
      comment: 'no rail_hint with the account set',
      req: ['PRF-2-OPEN-SUB-INTERFACE', ...MAP],
      cpr: withTop(ACH, { rail_hint: undefined }),
      intent: PAY,
    },
    {
      id: 'rail-hint-unrecognised',
      comment:
        'rail_hint "sepa_ct" (case-sensitive, unrecognised) read as OPEN: the IBAN set decides (profile 3)',
      req: [
        'CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED',
        'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN',
        'CPR-INV-4-RAIL-HINT-ADVISORY',
        ...MAP,
      ],
      cpr: withTop(SEPA_CT, { rail_hint: 'sepa_ct' }),
      intent: PAY,
    },
    {
      id: 'rail-hint-unrecognised-unserved',
      comment:
        'rail_hint "FPS" on an IBAN document to a wallet serving only PIX: no rail of the sub-interface served',
      req: ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
      supported: ['PIX'],
      cpr: withTop(SEPA_CT, { rail_hint: 'FPS' }),
      intent: E('UNSUPPORTED_RAIL'),
    },
    // ------------------------------------------------------------------ values compared as written (profile 3)
    {
      id: 'asset-type-upper-case',
      comment: 'asset.type FIAT: none of fiat, stablecoin, crypto, tokenized (compared as written)',
      req: ['CPR-2.3-ASSET-TYPE', 'CPR-INV-7-VALIDATES-BASE'],
      cpr: edit(SEPA_CT, (d) => ((d.value as Doc).asset = { type: 'FIAT', code: 'EUR' })),
      intent: E('INVALID_STRUCTURE'),
    },
    {
      id: 'rail-hint-on-chain-lower-case',
      comment:
        'rail_hint on_chain on an on-chain document: unrecognised (case-sensitive), read as OPEN, and on-chain fields need ON_CHAIN: no sub-interface',
      req: ['PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN', 'PRF-2-WALLET-ONE-SUB-INTERFACE'],
      cpr: withTop(ON_CHAIN, { rail_hint: 'on_chain' }),
      intent: E('INVALID_STRUCTURE'),
    },
    {
      id: 'key-type-lower-case',
      comment:
        'key_type cpf: a value like any other, carried in payee exactly as written; a wallet that cannot serve it may refuse',
      req: ['PRF-3-PAYMENT-PAYEE', 'CPR-2.8-KEY-TYPE'],
      cpr: edit(PIX, (d) => {
        d.key_type = 'cpf';
        d.key_value = '12345678909';
        (d.payee as Doc).rail_address = { key_type: 'cpf', key_value: '12345678909' };
      }),
      intent: {
        either: ['payment', 'UNSUPPORTED_RAIL', 'INVALID_STRUCTURE'],
        why: 'profile 3 and the wallet suite: an open-vocabulary value is kept as written, or the request refused by a wallet that cannot serve it',
      },
    },
    {
      id: 'routing-code-type-lower-case',
      comment: 'routing_code_type aba: kept as written, or refused',
      req: ['PRF-3-PAYMENT-PAYEE', 'CPR-2.7-ROUTING-FIELDS'],
      cpr: edit(ACH, (d) => {
        d.routing_code_type = 'aba';
        ((d.payee as Doc).rail_address as Doc).routing_code_type = 'aba';
      }),
      intent: {
        either: ['payment', 'UNSUPPORTED_RAIL', 'INVALID_STRUCTURE'],
        why: 'profile 3 and the wallet suite: an open-vocabulary value is kept as written, or the request refused by a wallet that cannot serve it',
      },
    },
    // ------------------------------------------------------------------ amounts
    {
      id: 'amount-open-with-payer-amount',
      comment: 'an open amount: the amount the payer entered becomes the payment amount',
      req: ['CPR-4.5-OPEN-AMOUNT', 'CPR-2.3-AMOUNT-OMITTED-OPEN', 'CPR-2.10-VALUE'],
      cpr: edit(SEPA_CT, (d) => delete (d.value as Doc).amount),
      payer_amount: '4200',
      intent: PAY,
    },
    {
      id: 'amount-open-without-payer-amount',
      comment: 'an open amount and no payer_amount: the payer must be prompted',
      req: ['CPR-4.5-OPEN-AMOUNT', 'CPR-2.3-AMOUNT-OMITTED-OPEN'],
      cpr: edit(SEPA_CT, (d) => delete (d.value as Doc).amount),
      intent: E('AMOUNT_REQUIRED'),
    },
    {
      id: 'amount-fixed-payer-amount-ignored',
      comment: 'a fixed amount with a payer_amount: the full request amount is paid, never a part',
      req: [
        'CPR-4.5-FULL-AMOUNT',
        'CPR-4.5-NO-PARTIAL',
        'CPR-7-AMOUNT-NOT-PAYABLE',
        'CPR-INV-5-VALUE-INTEGRITY',
      ],
      cpr: SEPA_CT,
      payer_amount: '1000',
      intent: PAY,
    },
    {
      id: 'amount-largest',
      comment: 'amount 2^256 - 1 preserved digit for digit',
      req: ['PRF-1-AMOUNT-PRECISION', 'CPR-INV-5-VALUE-INTEGRITY'],
      cpr: edit(ON_CHAIN, (d) => ((d.value as Doc).amount = (2n ** 256n - 1n).toString())),
      intent: PAY,
    },
    {
      id: 'amount-json-number-safe',
      comment:
        'amount the JSON number 2500 (a safe integer): a wallet should accept it (the Payment amount the string "2500" or the number); refusing it is allowed (a SHOULD)',
      req: ['PRF-1-AMOUNT-NUMBER-SAFE'],
      cpr: edit(SEPA_CT, (d) => ((d.value as Doc).amount = 2500)),
      intent: {
        either: ['payment', 'INVALID_STRUCTURE'],
        why: 'profile 1: a wallet given a JSON-number amount accepts a safe integer, a SHOULD (PRF-1-AMOUNT-NUMBER-SAFE); the suite only warns when it is refused',
      },
    },
    {
      id: 'amount-json-number-unsafe',
      comment: 'amount the JSON number 2^53 + 2: precision may be lost',
      req: ['PRF-1-AMOUNT-NUMBER-UNSAFE', 'PRF-1-AMOUNT-PRECISION'],
      cpr: edit(SEPA_CT, (d) => ((d.value as Doc).amount = 9007199254740994)),
      intent: E('INVALID_STRUCTURE'),
    },
    {
      id: 'amount-zero',
      comment: 'amount "0"',
      req: ['PRF-1-AMOUNT-FORMAT'],
      cpr: edit(SEPA_CT, (d) => ((d.value as Doc).amount = '0')),
      intent: E('INVALID_STRUCTURE'),
    },
    // ------------------------------------------------------------------ intent
    {
      id: 'intent-reference-request-id',
      comment: 'no memo: intent.reference is the request_id',
      req: ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
      cpr: withTop(SEPA_CT, { memo: undefined }),
      intent: PAY,
    },
    {
      id: 'intent-acquirer-id-absent',
      comment:
        'an on-chain request without acquirer_id: a conditions.acquirer_id, if written, is the zero UUID',
      req: ['PRF-3-INTENT-CONDITIONS', 'CPR-2.5-ACQUIRER-ID'],
      cpr: ON_CHAIN,
      intent: PAY,
    },
    {
      id: 'intent-on-chain-all-fields',
      comment: 'an on-chain request with every optional field',
      req: ['PRF-3-INTENT-CONDITIONS', 'PRF-3-PAYMENT-PAYEE'],
      cpr: withTop(ON_CHAIN, {
        domain_separator: `0x${'ab'.repeat(32)}`,
        acquirer_id: '7f3c2a1b-9e8d-4c6f-8a1b-2c3d4e5f6071',
        contract_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
      }),
      intent: PAY,
    },
    // ------------------------------------------------------------------ step 1 refusals
    {
      id: 'expired',
      comment: 'expires_at one second before now',
      req: [
        'CPR-7-EXPIRED-REJECTED',
        'CPR-INV-2-EXPIRY-ENFORCEMENT',
        'CPR-INV-7-REJECTS-EXPIRED',
        'CPR-4.4-PARSE-VALIDATE',
      ],
      cpr: withTop(SEPA_CT, { expires_at: '2026-06-01T11:59:59Z' }),
      intent: E('EXPIRED'),
    },
    {
      id: 'expired-at-now',
      comment: 'expires_at equal to now: not in the future',
      req: ['CPR-7-EXPIRED-REJECTED'],
      cpr: withTop(SEPA_CT, { expires_at: NOW }),
      intent: E('EXPIRED'),
    },
    {
      id: 'expired-offset',
      comment: 'expires_at 2026-06-02T01:00:00+14:00, which is 11:00Z, before now',
      req: ['PRF-1-TIMESTAMP-ANY-OFFSET', 'CPR-7-EXPIRED-REJECTED'],
      cpr: withTop(SEPA_CT, { expires_at: '2026-06-02T01:00:00+14:00', created_at: '2026-06-01T10:00:00Z' }),
      intent: E('EXPIRED'),
    },
    {
      id: 'not-expired-offset',
      comment: 'expires_at 2026-06-01T01:00:00-12:00, which is 13:00Z, after now',
      req: ['PRF-1-TIMESTAMP-ANY-OFFSET', ...MAP],
      cpr: withTop(SEPA_CT, { expires_at: '2026-06-01T01:00:00-12:00' }),
      intent: PAY,
    },
    {
      id: 'version-wrong',
      comment: 'cpr_version CPR-2.0',
      req: ['CPR-9-VERSION-VALIDATED', 'CPR-4.3-VALIDATE-BEFORE-PROCESSING'],
      cpr: withTop(SEPA_CT, { cpr_version: 'CPR-2.0' }),
      intent: E('INVALID_VERSION'),
    },
    {
      id: 'version-missing',
      comment: 'no cpr_version',
      req: ['CPR-9-VERSION-VALIDATED'],
      cpr: withTop(SEPA_CT, { cpr_version: undefined }),
      intent: E('INVALID_VERSION'),
    },
    {
      id: 'structure-no-sub-interface',
      comment: 'a document that completes no sub-interface',
      req: ['PRF-2-WALLET-ONE-SUB-INTERFACE', 'CPR-INV-7-VALIDATES-BASE'],
      cpr: withTop(SEPA_CT, { iban: undefined, beneficiary_name: undefined }),
      intent: E('INVALID_STRUCTURE'),
    },
    {
      id: 'structure-two-sub-interfaces',
      comment: 'SEPA_CT that also completes the account set',
      req: ['PRF-2-WALLET-ONE-SUB-INTERFACE'],
      cpr: withTop(SEPA_CT, { account_number: '000123456789' }),
      intent: E('INVALID_STRUCTURE'),
    },
    {
      id: 'structure-payee-missing',
      comment: 'no payee',
      req: ['CPR-INV-7-VALIDATES-BASE', 'CPR-4.4-PARSE-VALIDATE'],
      cpr: withTop(SEPA_CT, { payee: undefined }),
      intent: E('INVALID_STRUCTURE'),
    },
    {
      id: 'request-id-not-uuid',
      comment:
        'request_id order-42: a wallet should accept any non-empty string (profile 1); refusing a non-UUID one is a warning, never a failure',
      req: ['PRF-1-WALLET-ANY-REQUEST-ID', 'CPR-2.10-REQUEST-ID-BOUND'],
      cpr: withTop(SEPA_CT, { request_id: 'order-42', memo: undefined }),
      intent: {
        either: ['payment', 'INVALID_STRUCTURE'],
        why: 'profile 1: refusing a non-UUID request_id is a PROFILE warning, never a failure (PRF-1-WALLET-ANY-REQUEST-ID is a SHOULD)',
      },
    },
    {
      id: 'structure-bad-iban',
      comment: 'an IBAN with wrong check digits: a wallet may refuse any document breaking a section 2 rule',
      req: ['CPR-2.6-IBAN-VALID'],
      cpr: edit(SEPA_CT, (d) => {
        d.iban = 'DE00370400440532013000';
        ((d.payee as Doc).rail_address as Doc).iban = 'DE00370400440532013000';
      }),
      intent: {
        either: ['payment', 'INVALID_STRUCTURE'],
        why: 'profile 3: a wallet may refuse any document that breaks a SPEC or PROFILE rule of section 2; the Payment it derives otherwise is the one shown',
      },
    },
    {
      id: 'chain-id-disagrees',
      comment: 'rail_address.chain_id 1 against chain_id 8453',
      req: ['PRF-2-CHAIN-ID-AGREES'],
      cpr: edit(ON_CHAIN, (d) => (((d.payee as Doc).rail_address as Doc).chain_id = '1')),
      intent: {
        either: ['payment', 'INVALID_STRUCTURE'],
        why: 'profile 2: a wallet may refuse a chain id disagreement with 422 INVALID_STRUCTURE or derive the Payment',
      },
    },
    // ------------------------------------------------------------------ payer data, extensions
    {
      id: 'payer-data-top',
      comment: 'a top-level payer member: refused, or ignored and never in the Payment',
      req: [
        'PRF-3-PAYER-DATA-REFUSED-OR-IGNORED',
        'CPR-4.4-PAYER-FROM-APPLICATION',
        'CPR-2.9-CONTEXT-FROM-APPLICATION',
      ],
      flags: ['PayerData'],
      cpr: withTop(SEPA_CT, { payer: { name: 'Mallory' } }),
      intent: { either: ['payment', 'INVALID_STRUCTURE'], why: PAYER_EITHER },
    },
    {
      id: 'payer-data-extension',
      comment: 'acme:payer.email inside extensions (a reading of the name is payer...)',
      req: ['PRF-3-PAYER-DATA-REFUSED-OR-IGNORED'],
      flags: ['PayerData'],
      cpr: withTop(SEPA_CT, { extensions: { 'acme:payer.email': 'mallory@example.com' } }),
      intent: { either: ['payment', 'INVALID_STRUCTURE'], why: PAYER_EITHER },
    },
    {
      id: 'state-data-top',
      comment: 'a top-level status member',
      req: ['PRF-3-PAYER-DATA-REFUSED-OR-IGNORED', 'CPR-3-NO-STATE-CARRIED'],
      flags: ['PayerData'],
      cpr: withTop(SEPA_CT, { status: 'PAID' }),
      intent: { either: ['payment', 'INVALID_STRUCTURE'], why: PAYER_EITHER },
    },
    {
      id: 'authorization-data-top',
      comment: 'a top-level authorization member: the Payment carries the context authorization only',
      req: ['PRF-3-PAYER-DATA-REFUSED-OR-IGNORED', 'CPR-2.10-AUTHORIZATION'],
      flags: ['PayerData'],
      cpr: withTop(SEPA_CT, { authorization: { type: 'forged' } }),
      intent: { either: ['payment', 'INVALID_STRUCTURE'], why: PAYER_EITHER },
    },
    {
      id: 'extensions-named-like-fields',
      comment:
        'extensions named amount, iban, receiver_address and expires_at change nothing (profile 3, spec 9.3)',
      req: [
        'CPR-9-IGNORE-UNKNOWN-EXTENSIONS',
        'PRF-3-EXTENSIONS-NEVER-FIELDS',
        'CPR-9-EXTENSIONS-NO-BREAK',
        ...MAP,
      ],
      cpr: withTop(SEPA_CT, {
        extensions: {
          amount: '1',
          iban: 'GB29NWBK60161331926819',
          receiver_address: '0x0000000000000000000000000000000000000000',
          expires_at: '2000-01-01T00:00:00Z',
        },
      }),
      intent: PAY,
    },
    {
      id: 'context-rail-opaque',
      comment: 'context.rail with members named like rails: copied unchanged, never used to select',
      req: ['PRF-3-CONTEXT-RAIL-OPAQUE', 'CPR-2.10-CONTEXT'],
      cpr: SEPA_CT,
      context: { ...CONTEXT, rail: { rail: 'SWIFT', preferred_rail: 'ACH', nested: { a: [1, 2] } } },
      intent: PAY,
    },
    // ------------------------------------------------------------------ URIs
    {
      id: 'uri-inline',
      comment: 'an inline URI of a SEPA_CT request',
      req: ['CPR-4.3-WALLET-RESOLVES-URI', ...MAP],
      uri: inline(SEPA_CT),
      intent: PAY,
    },
    {
      id: 'uri-inline-expired',
      comment: 'an inline URI of an expired request',
      req: ['CPR-4.3-WALLET-RESOLVES-URI', 'CPR-7-EXPIRED-REJECTED'],
      uri: inline(withTop(PIX, { expires_at: '2026-06-01T11:00:00Z' })),
      intent: E('EXPIRED'),
    },
    {
      id: 'uri-reference-200',
      comment: 'a reference URI; the payee answers 200 with the CPR at {endpoint}/cpr/{token}',
      req: [
        'PRF-3-RETRIEVAL-URL',
        'CPR-4.3-WALLET-RESOLVES-URI',
        'CPR-4.4-NO-PAYEE-AT-AUTHORIZATION',
        ...MAP,
      ],
      uri: reference('https://pay.example.com:8443/api'),
      payee_answer: {
        retrieval_url: `https://pay.example.com:8443/api/cpr/${TOKEN}`,
        status: 200,
        body: PIX,
      },
      intent: PAY,
    },
    {
      id: 'uri-reference-full-endpoint',
      comment: 'an endpoint already ending in /cpr/{token}',
      req: ['PRF-2-REFERENCE-FULL-ENDPOINT', 'PRF-3-RETRIEVAL-URL'],
      uri: reference(`https://pay.example.com/cpr/${TOKEN}`),
      payee_answer: { retrieval_url: `https://pay.example.com/cpr/${TOKEN}`, status: 200, body: UPI },
      intent: PAY,
    },
    {
      id: 'uri-reference-410',
      comment: 'the payee answers 410 TOKEN_CONSUMED: the retrieval failed',
      req: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
      uri: reference('https://pay.example.com'),
      payee_answer: {
        retrieval_url: `https://pay.example.com/cpr/${TOKEN}`,
        status: 410,
        body: { error: { code: 'TOKEN_CONSUMED', message: 'used' } },
      },
      intent: E('TOKEN_REJECTED'),
    },
    {
      id: 'uri-reference-expired-cpr',
      comment: 'the payee answers 200 with an expired CPR',
      req: ['CPR-7-EXPIRED-REJECTED'],
      uri: reference('https://pay.example.com'),
      payee_answer: {
        retrieval_url: `https://pay.example.com/cpr/${TOKEN}`,
        status: 200,
        body: withTop(SEPA_CT, { expires_at: '2026-06-01T11:00:00Z' }),
      },
      intent: E('EXPIRED'),
    },
    {
      id: 'uri-reference-http',
      comment: 'an http endpoint: the token is never sent in clear',
      req: ['CPR-5-TLS-ONLY', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
      uri: reference('http://pay.example.com'),
      intent: E('TOKEN_REJECTED'),
    },
    {
      id: 'uri-malformed',
      comment: 'a URI that is neither form',
      req: ['CPR-4.2-URI-FORMAT'],
      uri: 'cpr://',
      intent: {
        either: ['INVALID_STRUCTURE', 'TOKEN_REJECTED'],
        why: 'profile 3 names no code for an unusable uri string; either 422 code of the document is read as correct (the suite ambiguity register, AMB-36)',
      },
    },
    // ------------------------------------------------------------------ harness request errors
    {
      id: 'request-both-cpr-and-uri',
      comment: 'both cpr and uri',
      req: ['PRF-3-HARNESS-REQUEST-ERROR'],
      cpr: SEPA_CT,
      uri: inline(SEPA_CT),
      intent: E('INVALID_REQUEST'),
    },
    {
      id: 'request-context-without-payer',
      comment: 'context without payer',
      req: ['PRF-3-HARNESS-REQUEST-ERROR'],
      cpr: SEPA_CT,
      context: { rail: CONTEXT.rail, authorization: CONTEXT.authorization },
      intent: E('INVALID_REQUEST'),
    },
    {
      id: 'request-cpr-not-object',
      comment: 'cpr given as a JSON string',
      req: ['PRF-3-HARNESS-REQUEST-ERROR'],
      cpr: JSON.stringify(SEPA_CT),
      intent: E('INVALID_REQUEST'),
    },
    {
      id: 'request-uri-not-string',
      comment: 'uri given as an object',
      req: ['PRF-3-HARNESS-REQUEST-ERROR'],
      uri: { href: 'cpr://inline/e30' } as unknown as string,
      intent: E('INVALID_REQUEST'),
    },
  );
  return specs;
}
