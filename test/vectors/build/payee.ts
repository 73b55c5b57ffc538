/**
 * The payee group (spec 4.1, 4.3 rule 5, 5; profile 2): sequences of harness and retrieval
 * requests to a payee in a stated configuration (its clock at now, its token and validity
 * ceilings), each step with the status, error code and checks of the answer. The token and the
 * request_id are the payee's: `{"$token": "<step>"}` is the token of the reference URI a create
 * step answered, `{"$ref": "<step>.body.<member>"}` a member of an earlier answer.
 */
import type { PayeeCase, PayeeStep } from '../lib/types.js';

export const PAYEE_NOW = '2026-06-01T12:00:00Z';

const INITIAL: PayeeCase['initial'] = {
  now: PAYEE_NOW,
  max_token_ttl_seconds: 900,
  max_validity_seconds: 2592000,
  default_validity_seconds: 3600,
};

export interface PayeeSpec {
  id: string;
  comment: string;
  req: string[];
  flags?: string[];
  initial?: Partial<PayeeCase['initial']>;
  steps: PayeeStep[];
}

const create = (step: string, body: Record<string, unknown>, expected: PayeeStep['expected']): PayeeStep => ({
  step,
  action: 'create',
  body: { delivery: 'reference', ...body },
  expected,
});
const retrieve = (step: string, token: unknown, expected: PayeeStep['expected']): PayeeStep => ({
  step,
  action: 'retrieve',
  token,
  expected,
});
const fulfill = (step: string, body: unknown, expected: PayeeStep['expected']): PayeeStep => ({
  step,
  action: 'fulfill',
  body,
  expected,
});
const clock = (step: string, seconds: number): PayeeStep => ({
  step,
  action: 'advance_clock',
  body: { advance_seconds: seconds },
  expected: { status: 200 },
});
const tok = (step: string) => ({ $token: step });
const ref = (path: string) => ({ $ref: path });
const CREATED: PayeeStep['expected'] = { status: 201, checks: ['reference-uri', 'token-lifetime<=900'] };
const SERVED = (create: string): PayeeStep['expected'] => ({
  status: 200,
  body: { request_id: ref(`${create}.body.request_id`) },
  checks: ['cpr-valid'],
});
const E = (status: number, code: string): PayeeStep['expected'] => ({ status, code });

/** Every payee spec. */
export function payeeSpecs(): PayeeSpec[] {
  const rails = ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'ACH', 'PIX', 'UPI', 'ON_CHAIN', 'OPEN'];
  return [
    {
      id: 'token-single-use',
      comment:
        'a token serves its CPR once: 200 with the full CPR, then 410 TOKEN_CONSUMED, with no CPR member in the error',
      req: [
        'PRF-2-RETRIEVAL-200',
        'CPR-4.1-RETRIEVAL-PATH',
        'CPR-4.1-CONTENT-TYPE',
        'CPR-4.1-FULL-CPR',
        'CPR-5-TOKEN-SINGLE-USE',
        'CPR-5-TOKEN-REUSE-ERROR',
        'CPR-7-TOKEN-REUSE',
        'CPR-8-TOKEN-USES',
        'PRF-2-TOKEN-CONSUMED-410',
        'PRF-2-NO-CPR-IN-ERROR',
        'PRF-2-HARNESS-REQUESTS',
        'PRF-2-TOKEN-FORMAT',
        'PRF-2-TOKEN-ENTROPY',
        'PRF-2-REFERENCE-URI',
      ],
      steps: [
        create(
          'create',
          { rail_hint: 'SEPA_CT', amount: '2500', memo: 'Order 1234' },
          { ...CREATED, body: {} },
        ),
        retrieve('first', tok('create'), {
          ...SERVED('create'),
          body: {
            request_id: ref('create.body.request_id'),
            rail_hint: 'SEPA_CT',
            memo: 'Order 1234',
            value: { amount: '2500', asset: { type: 'fiat', code: 'EUR' } },
          },
        }),
        retrieve('second', tok('create'), E(410, 'TOKEN_CONSUMED')),
        retrieve('third', tok('create'), E(410, 'TOKEN_CONSUMED')),
      ],
    },
    {
      id: 'token-expired',
      comment:
        'a token asked for 60 s serves its CPR 59 s later; one asked for 60 s and used after 61 s is 410 TOKEN_EXPIRED',
      req: [
        'CPR-5-TOKEN-EXPIRY',
        'PRF-2-TOKEN-EXPIRED-410',
        'PRF-2-HARNESS-TOKEN-TTL',
        'PRF-2-HARNESS-CLOCK',
        'PRF-2-NO-CPR-IN-ERROR',
      ],
      steps: [
        create(
          'early',
          { token_ttl_seconds: 60 },
          { status: 201, checks: ['reference-uri', 'token-lifetime<=60'] },
        ),
        create(
          'late',
          { token_ttl_seconds: 60 },
          { status: 201, checks: ['reference-uri', 'token-lifetime<=60'] },
        ),
        clock('wait-59', 59),
        retrieve('early-retrieved', tok('early'), SERVED('early')),
        clock('wait-2', 2),
        retrieve('late-retrieved', tok('late'), E(410, 'TOKEN_EXPIRED')),
      ],
    },
    {
      id: 'token-lifetime-capped',
      comment: 'a token asked for 5000 s lives at most 900 s (15 minutes): expired 901 s later',
      req: [
        'PRF-2-TOKEN-LIFETIME',
        'CPR-5-TOKEN-WINDOW-15-MIN',
        'CPR-8-TOKEN-LIFETIME',
        'PRF-2-HARNESS-TOKEN-TTL',
        'CPR-5-TOKEN-EXPIRY',
      ],
      steps: [
        create('create', { token_ttl_seconds: 5000 }, CREATED),
        clock('wait', 901),
        retrieve('retrieved', tok('create'), E(410, 'TOKEN_EXPIRED')),
      ],
    },
    {
      id: 'token-unknown',
      comment: 'a well-formed token the payee never issued: 404 TOKEN_UNKNOWN',
      req: ['PRF-2-TOKEN-UNKNOWN-404', 'PRF-2-NO-CPR-IN-ERROR'],
      steps: [
        create('create', {}, CREATED),
        retrieve('never-issued', 'mfrggzdfmztwq2lknnwg23tpobyxe43u', E(404, 'TOKEN_UNKNOWN')),
        retrieve('issued', tok('create'), SERVED('create')),
      ],
    },
    {
      id: 'fulfillment',
      comment:
        'a request is fulfilled once: 200, then 409 DUPLICATE_ID; an id never issued is 404 REQUEST_UNKNOWN',
      req: [
        'PRF-2-FULFILLMENT-FIRST-200',
        'PRF-2-FULFILLMENT-DUPLICATE-409',
        'PRF-2-FULFILLMENT-UNKNOWN-404',
        'CPR-4.3-CONSUMED-REJECT',
        'CPR-1-SINGLE-USE',
      ],
      steps: [
        create('create', { delivery: 'inline' }, { status: 201, checks: ['inline-uri'] }),
        fulfill('first', { request_id: ref('create.body.request_id') }, { status: 200 }),
        fulfill('again', { request_id: ref('create.body.request_id') }, E(409, 'DUPLICATE_ID')),
        fulfill('unknown', { request_id: '3f1d6a2e-5b7c-4d8e-9f0a-1b2c3d4e5f60' }, E(404, 'REQUEST_UNKNOWN')),
      ],
    },
    {
      id: 'fulfillment-request-id-forms',
      comment:
        'a request_id that is a string but no UUID may be 400 INVALID_REQUEST or 404 REQUEST_UNKNOWN; a missing or non-string one is 400',
      req: ['PRF-2-FULFILLMENT-ID-INVALID'],
      flags: ['PayeeChoice'],
      steps: [
        fulfill(
          'not-uuid',
          { request_id: 'order-42' },
          { status: 400, code: 'INVALID_REQUEST', alternatives: [{ status: 404, code: 'REQUEST_UNKNOWN' }] },
        ),
        fulfill('missing', {}, E(400, 'INVALID_REQUEST')),
        fulfill('number', { request_id: 42 }, E(400, 'INVALID_REQUEST')),
      ],
    },
    {
      id: 'fulfillment-expired',
      comment: 'a request whose validity is 120 s cannot be fulfilled 121 s later: 409 REQUEST_EXPIRED',
      req: ['PRF-2-FULFILLMENT-EXPIRED-409', 'PRF-2-HARNESS-VALIDITY', 'PRF-2-HARNESS-CLOCK'],
      steps: [
        create(
          'create',
          { validity_seconds: 120, delivery: 'inline' },
          { status: 201, checks: ['inline-uri'] },
        ),
        clock('wait', 121),
        fulfill('late', { request_id: ref('create.body.request_id') }, E(409, 'REQUEST_EXPIRED')),
      ],
    },
    {
      id: 'validity-window',
      comment:
        'validity_seconds 600 gives expires_at - created_at = 600 s; 40 days is capped at the payee ceiling (30 days)',
      req: ['PRF-2-HARNESS-VALIDITY', 'CPR-INV-8-BOUNDED-EXPIRY'],
      steps: [
        create('create', { validity_seconds: 600 }, CREATED),
        retrieve('retrieved', tok('create'), { ...SERVED('create'), checks: ['cpr-valid', 'window=600'] }),
        create('long', { validity_seconds: 3456000 }, CREATED),
        retrieve('long-retrieved', tok('long'), {
          ...SERVED('long'),
          checks: ['cpr-valid', 'window=2592000'],
        }),
      ],
    },
    {
      id: 'unserviceable-memo',
      comment:
        'a memo of 141 code points: 400 INVALID_REQUEST, or a conformant CPR (never a non-conformant one)',
      req: ['PRF-2-HARNESS-UNSERVICEABLE'],
      flags: ['PayeeChoice'],
      steps: [
        create(
          'create',
          { memo: 'a'.repeat(141) },
          { status: 400, code: 'INVALID_REQUEST', alternatives: [{ status: 201 }] },
        ),
      ],
    },
    ...rails.map(
      (rail): PayeeSpec => ({
        id: `rail-${rail.toLowerCase().replace(/_/g, '-')}`,
        comment: `a ${rail} request from the harness: the CPR served is conformant and carries that rail_hint`,
        req: ['PRF-2-HARNESS-REQUESTS', 'CPR-4.1-FULL-CPR', 'PRF-2-SUB-INTERFACE-SELECTION'],
        steps: [
          create('create', { rail_hint: rail }, CREATED),
          retrieve('retrieved', tok('create'), {
            ...SERVED('create'),
            body: { request_id: ref('create.body.request_id'), rail_hint: rail },
          }),
        ],
      }),
    ),
  ];
}

/** The configuration a payee case starts from. */
export function payeeInitial(overrides: Partial<PayeeCase['initial']> = {}): PayeeCase['initial'] {
  return { ...INITIAL, ...overrides };
}
