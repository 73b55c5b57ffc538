/**
 * The operator group (spec CP; profile 1 and 4): sequences of requests from a stated initial state
 * (policy, principals and their balances, identity tokens, credentials, the clock), each step with
 * the status, error code and balances that follow. One sequence per error code and per status
 * transition, the money flows included. Messages are templates: `{"$ref": "<step>.body.<member>"}`
 * stands for a member of an earlier step's answer (pack_id and issued_at are the Operator's), and
 * `sign` names the vector key that signs the message (JCS + Ed25519, profile 4) once resolved.
 */
import { vectorKey } from '../lib/keys.js';
import type { OperatorCase, OperatorStep } from '../lib/types.js';

export const OP_NOW = '2026-06-01T12:00:00Z';
const EUR = { type: 'fiat', code: 'EUR' };

export const POLICY = {
  operator_id: 'vector-operator',
  max_amount: '1000000',
  min_expiry_seconds: 60,
  max_expiry_seconds: 2592000,
  max_chain_depth: 2,
  required_identity_level: 2,
  assets: [EUR],
  signature_alg: 'EdDSA',
};

const INITIAL: OperatorCase['initial'] = {
  now: OP_NOW,
  policy: POLICY,
  operator_key: 'operator',
  principals: [
    {
      principal_id: 'principal-funded',
      key: 'principal-funded',
      status_credential: 'cred-funded',
      available_balance: '5000000',
    },
    {
      principal_id: 'principal-low',
      key: 'principal-low',
      status_credential: 'cred-low',
      available_balance: '5000',
    },
  ],
  identity_tokens: { 'idt-level-2': 2, 'idt-level-1': 1 },
  operator_credential: 'cred-operator',
};

/** An intended step: the expected status/code; balances are recorded from the reference (and compared when given). */
export interface StepSpec extends Omit<OperatorStep, 'expected'> {
  expect: {
    status: number;
    code?: string;
    alternatives?: Array<{ status: number; code: string }>;
    any_error_code?: boolean;
    body?: Record<string, unknown>;
    instants?: Record<string, string>;
    checks?: string[];
    balances?: Record<string, { available: string; locked: string; released: string }>;
  };
}

export interface OperatorSpec {
  id: string;
  comment: string;
  req: string[];
  flags?: string[];
  steps: StepSpec[];
}

const pk = (label: string): string => vectorKey(label).publicKey;
const ref = (path: string) => ({ $ref: path });
const uuid = (n: number): string => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

interface LockOpts {
  n: number;
  principal?: string;
  amount?: string;
  expires_at?: string;
  bearer?: string;
  signer?: string;
  tamper?: NonNullable<OperatorStep['sign']>['tamper'];
  body?: unknown;
}

function issue(step: string, o: LockOpts, expect: StepSpec['expect']): StepSpec {
  const principal = o.principal ?? 'principal-funded';
  return {
    step,
    action: 'issue',
    body: o.body ?? {
      request_id: uuid(o.n),
      principal_id: principal,
      amount: o.amount ?? '2500',
      asset: EUR,
      initial_bearer_pk: pk(o.bearer ?? 'bearer-0'),
      expires_at: o.expires_at ?? '2026-06-08T12:00:00Z',
      created_at: OP_NOW,
    },
    ...(o.body !== undefined && o.signer === undefined
      ? {}
      : { sign: { key: o.signer ?? principal, ...(o.tamper ? { tamper: o.tamper } : {}) } }),
    expect,
  };
}

interface RenewOpts {
  n: number;
  pack: string;
  from: string;
  to: string;
  signer?: string;
  prev?: unknown;
  packId?: unknown;
  tamper?: NonNullable<OperatorStep['sign']>['tamper'];
  cashpack?: unknown;
}

function renew(step: string, o: RenewOpts, expect: StepSpec['expect']): StepSpec {
  return {
    step,
    action: 'renew',
    body: {
      cashpack: o.cashpack ?? ref(`${o.pack}.body`),
      renewal_entry: {
        renewal_id: uuid(o.n),
        pack_id: o.packId ?? ref(`${o.pack}.body.pack_id`),
        prev_chain_digest: o.prev ?? ref(`${o.pack}.body.chain_digest`),
        bearer_pk: pk(o.from),
        new_bearer_pk: pk(o.to),
        created_at: '2026-06-02T09:00:00Z',
      },
    },
    sign: { key: o.signer ?? o.from, member: 'renewal_entry', ...(o.tamper ? { tamper: o.tamper } : {}) },
    expect,
  };
}

interface RedeemOpts {
  n: number;
  pack: string;
  bearer: string;
  signer?: string;
  token?: string | null;
  tamper?: NonNullable<OperatorStep['sign']>['tamper'];
}

function redeem(step: string, o: RedeemOpts, expect: StepSpec['expect']): StepSpec {
  return {
    step,
    action: 'redeem',
    body: {
      cashpack: ref(`${o.pack}.body`),
      redemption_request: {
        redemption_id: uuid(o.n),
        pack_id: ref(`${o.pack}.body.pack_id`),
        prev_chain_digest: ref(`${o.pack}.body.chain_digest`),
        bearer_pk: pk(o.bearer),
        destination: { type: 'account', reference: 'DE89370400440532013000' },
        ...(o.token === null ? {} : { redeemer: { identity_token: o.token ?? 'idt-level-2' } }),
        created_at: '2026-06-03T10:00:00Z',
      },
    },
    sign: {
      key: o.signer ?? o.bearer,
      member: 'redemption_request',
      ...(o.tamper ? { tamper: o.tamper } : {}),
    },
    expect,
  };
}

const status = (
  step: string,
  pack: unknown,
  credential: string | undefined,
  expect: StepSpec['expect'],
): StepSpec => ({
  step,
  action: 'status',
  pack_id: pack,
  ...(credential === undefined ? {} : { credential }),
  expect,
});
const harness = (
  step: string,
  action: 'expire' | 'cancel',
  pack: string,
  expect: StepSpec['expect'],
): StepSpec => ({
  step,
  action,
  body: { pack_id: ref(`${pack}.body.pack_id`) },
  expect,
});
const clock = (step: string, seconds: number): StepSpec => ({
  step,
  action: 'advance_clock',
  seconds,
  expect: { status: 200 },
});

const bal = (available: string, locked: string, released = '0') => ({ available, locked, released });
const ISSUED = {
  status: 201,
  body: { status: 'ACTIVE', amount: '2500', renewal_chain: [] },
  checks: ['operator-signature', 'chain-digest'],
};
const E = (status: number, code: string, extra: Partial<StepSpec['expect']> = {}) => ({
  status,
  code,
  ...extra,
});

/** Every operator spec. */
export function operatorSpecs(): OperatorSpec[] {
  const FUNDED_AFTER_ONE = { 'principal-funded': bal('4997500', '2500'), 'principal-low': bal('5000', '0') };
  const UNTOUCHED = { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('5000', '0') };
  return [
    {
      id: 'issue-and-status',
      comment: 'issue locks the amount; the issuing principal and the Operator read ACTIVE',
      req: [
        'CP-4-ISSUE',
        'PRF-4-ISSUE-BINDING',
        'CP-1-FUNDS-LOCKED',
        'CP-1-INITIAL-BEARER',
        'PRF-4-CASHPACK-SHAPE',
        'PRF-4-OPERATOR-KID',
        'PRF-4-CHAIN-DIGEST',
        'PRF-4-MONEY-FLOWS',
        'CP-4-STATUS',
        'PRF-4-STATUS-BINDING',
        'CP-3-STATUS-VALUES',
        'CP-3-ACTIVE',
        'CP-2-CASHPACK-FIELDS',
      ],
      steps: [
        issue(
          'issue',
          { n: 1 },
          {
            ...ISSUED,
            body: {
              ...ISSUED.body,
              current_bearer_pk: pk('bearer-0'),
              cashpack_version: 'CP-1.0',
              asset: EUR,
            },
            instants: { expires_at: '2026-06-08T12:00:00Z', issued_at: OP_NOW },
            balances: FUNDED_AFTER_ONE,
          },
        ),
        status('status-principal', ref('issue.body.pack_id'), 'principal-funded', {
          status: 200,
          body: { status: 'ACTIVE', pack_id: ref('issue.body.pack_id') },
        }),
        status('status-operator', ref('issue.body.pack_id'), 'operator', {
          status: 200,
          body: { status: 'ACTIVE' },
        }),
      ],
    },
    {
      id: 'issue-amount-limit',
      comment: 'max_amount itself is allowed; one more exceeds the limit and locks nothing',
      req: ['CP-7-AMOUNT-EXCEEDS-LIMIT', 'CP-8-MAX-AMOUNT', 'PRF-4-LIMITS-INCLUSIVE', 'PRF-1-ERROR-STATUS'],
      steps: [
        issue('over', { n: 1, amount: '1000001' }, E(422, 'AMOUNT_EXCEEDS_LIMIT', { balances: UNTOUCHED })),
        issue(
          'at-max',
          { n: 2, amount: '1000000' },
          {
            status: 201,
            balances: { 'principal-funded': bal('4000000', '1000000'), 'principal-low': bal('5000', '0') },
          },
        ),
      ],
    },
    {
      id: 'issue-insufficient-balance',
      comment: 'the low-balance principal: 5001 is refused, exactly its 5000 is locked',
      req: ['CP-7-INSUFFICIENT-BALANCE', 'CP-1-FUNDS-LOCKED', 'PRF-4-MONEY-FLOWS'],
      steps: [
        issue(
          'over',
          { n: 1, principal: 'principal-low', amount: '5001' },
          E(422, 'INSUFFICIENT_BALANCE', { balances: UNTOUCHED }),
        ),
        issue(
          'exact',
          { n: 2, principal: 'principal-low', amount: '5000' },
          {
            status: 201,
            balances: { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('0', '5000') },
          },
        ),
        issue('after', { n: 3, principal: 'principal-low', amount: '1' }, E(422, 'INSUFFICIENT_BALANCE')),
      ],
    },
    {
      id: 'issue-expiry-range',
      comment:
        'expires_at exactly min_expiry_seconds and max_expiry_seconds ahead are in range; one second less or more is not',
      req: ['CP-7-EXPIRY-INVALID', 'CP-8-EXPIRY-RANGE', 'PRF-4-LIMITS-INCLUSIVE'],
      steps: [
        issue(
          'below-min',
          { n: 1, expires_at: '2026-06-01T12:00:59Z' },
          E(422, 'EXPIRY_INVALID', { balances: UNTOUCHED }),
        ),
        issue('at-min', { n: 2, expires_at: '2026-06-01T12:01:00Z' }, { status: 201 }),
        issue('at-max', { n: 3, expires_at: '2026-07-01T12:00:00Z' }, { status: 201 }),
        issue('above-max', { n: 4, expires_at: '2026-07-01T12:00:01Z' }, E(422, 'EXPIRY_INVALID')),
        issue('past', { n: 5, expires_at: '2026-06-01T11:00:00Z' }, E(422, 'EXPIRY_INVALID')),
      ],
    },
    {
      id: 'issue-expiry-offsets',
      comment:
        'request timestamps with offsets compared as instants: 2026-06-02T02:01:00+14:00 is 12:01Z (in range), 2026-06-02T01:59:00+14:00 is 11:59Z (past)',
      req: ['PRF-4-REQUEST-TIMESTAMP-OFFSET', 'CP-7-EXPIRY-INVALID'],
      steps: [
        issue('offset-past', { n: 1, expires_at: '2026-06-02T01:59:00+14:00' }, E(422, 'EXPIRY_INVALID')),
        issue(
          'offset-min',
          { n: 2, expires_at: '2026-06-02T02:01:00+14:00' },
          { status: 201, instants: { expires_at: '2026-06-01T12:01:00Z' } },
        ),
      ],
    },
    {
      id: 'issue-duplicate-request-id',
      comment: 'the same Lock Request twice: the replay is refused and locks nothing more',
      req: ['CP-7-DUPLICATE-ID', 'CP-8-ID-SINGLE-USE', 'CP-2-REQUEST-ID-REPLAY'],
      steps: [
        issue('first', { n: 1 }, { status: 201, balances: FUNDED_AFTER_ONE }),
        issue('replay', { n: 1 }, E(409, 'DUPLICATE_ID', { balances: FUNDED_AFTER_ONE })),
        issue(
          'replay-other-amount',
          { n: 1, amount: '10' },
          E(409, 'DUPLICATE_ID', { balances: FUNDED_AFTER_ONE }),
        ),
      ],
    },
    {
      id: 'issue-invalid-signature',
      comment:
        'a flipped signature bit, a missing signature, another key, an unknown principal: 401 INVALID_SIGNATURE each, nothing locked',
      req: [
        'CP-5-INVALID-SIGNATURE',
        'CP-7-INVALID-SIGNATURE',
        'PRF-4-SIGNATURE-MISSING-401',
        'CP-5-MESSAGES-SIGNED',
      ],
      steps: [
        issue(
          'flipped',
          { n: 1, tamper: { op: 'flip-bit' } },
          E(401, 'INVALID_SIGNATURE', { balances: UNTOUCHED }),
        ),
        issue('missing', { n: 2, tamper: { op: 'remove' } }, E(401, 'INVALID_SIGNATURE')),
        issue('other-key', { n: 3, signer: 'intruder' }, E(401, 'INVALID_SIGNATURE')),
        issue(
          'changed-after-signing',
          { n: 4, tamper: { op: 'set', name: 'amount', value: '2600' } },
          E(401, 'INVALID_SIGNATURE'),
        ),
        issue(
          'unknown-principal',
          { n: 5, principal: 'principal-nobody', signer: 'intruder' },
          {
            status: 401,
            code: 'INVALID_SIGNATURE',
            alternatives: [{ status: 422, code: 'INSUFFICIENT_BALANCE' }],
            balances: UNTOUCHED,
          },
        ),
      ],
    },
    {
      id: 'issue-invalid-request',
      comment: 'a malformed amount and a body that is no object: 400 INVALID_REQUEST',
      req: ['PRF-1-INVALID-REQUEST', 'PRF-1-ERROR-BODY', 'PRF-4-MESSAGE-SCHEMA'],
      steps: [
        issue(
          'amount-leading-zero',
          { n: 1, amount: '02500' },
          E(400, 'INVALID_REQUEST', { balances: UNTOUCHED }),
        ),
        issue('body-array', { n: 2, body: [1, 2] }, E(400, 'INVALID_REQUEST')),
        issue(
          'asset-not-offered',
          {
            n: 3,
            body: {
              request_id: uuid(3),
              principal_id: 'principal-funded',
              amount: '2500',
              asset: { type: 'fiat', code: 'USD' },
              initial_bearer_pk: pk('bearer-0'),
              expires_at: '2026-06-08T12:00:00Z',
              created_at: OP_NOW,
            },
            signer: 'principal-funded',
          },
          {
            status: 400,
            code: 'INVALID_REQUEST',
            alternatives: [{ status: 422, code: 'INSUFFICIENT_BALANCE' }],
            balances: UNTOUCHED,
          },
        ),
      ],
    },
    {
      id: 'renew-transfers-bearer',
      comment:
        'two renewals: bearer-0 -> bearer-1 -> bearer-2; only current_bearer_pk, chain_digest and renewal_chain change',
      req: [
        'CP-4-RENEW',
        'PRF-4-RENEW-BINDING',
        'CP-1-RENEWAL-TRANSFERS',
        'CP-1-BEARER-RIGHTS',
        'CP-1-INTERMEDIATE-ANONYMOUS',
        'PRF-4-RENEWAL-CHANGES-BEARER-ONLY',
        'PRF-4-CHAIN-DIGEST',
        'CP-1-CHAIN-DIGEST',
        'PRF-4-RENEWAL-ENTRY-SHAPE',
      ],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew(
          'renew-1',
          { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' },
          {
            status: 200,
            body: {
              current_bearer_pk: pk('bearer-1'),
              pack_id: ref('issue.body.pack_id'),
              amount: '2500',
              issued_at: ref('issue.body.issued_at'),
              expires_at: ref('issue.body.expires_at'),
              status: 'ACTIVE',
            },
            checks: ['operator-signature', 'chain-digest'],
            balances: FUNDED_AFTER_ONE,
          },
        ),
        renew(
          'renew-2',
          { n: 3, pack: 'renew-1', from: 'bearer-1', to: 'bearer-2' },
          {
            status: 200,
            body: { current_bearer_pk: pk('bearer-2') },
            checks: ['operator-signature', 'chain-digest'],
            balances: FUNDED_AFTER_ONE,
          },
        ),
      ],
    },
    {
      id: 'renew-bearer-mismatch',
      comment:
        'a renewal by a key that is not current_bearer_pk (signed by itself): 403 BEARER_MISMATCH; the former bearer after a renewal too',
      req: ['CP-5-BEARER-MISMATCH', 'CP-7-BEARER-MISMATCH', 'CP-1-BEARER-RIGHTS'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew(
          'intruder',
          { n: 2, pack: 'issue', from: 'intruder', to: 'intruder' },
          E(403, 'BEARER_MISMATCH'),
        ),
        renew('renew-1', { n: 3, pack: 'issue', from: 'bearer-0', to: 'bearer-1' }, { status: 200 }),
        renew(
          'former-bearer',
          { n: 4, pack: 'renew-1', from: 'bearer-0', to: 'bearer-3' },
          E(403, 'BEARER_MISMATCH'),
        ),
      ],
    },
    {
      id: 'renew-invalid-signature',
      comment:
        'a renewal entry signed by another key than its bearer_pk, with a flipped bit, without signature; a cash-pack copy altered',
      req: ['CP-5-INVALID-SIGNATURE', 'CP-7-INVALID-SIGNATURE', 'PRF-4-SIGNATURE-MISSING-401'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew(
          'other-signer',
          { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1', signer: 'intruder' },
          E(401, 'INVALID_SIGNATURE'),
        ),
        renew(
          'flipped',
          { n: 3, pack: 'issue', from: 'bearer-0', to: 'bearer-1', tamper: { op: 'flip-bit' } },
          E(401, 'INVALID_SIGNATURE'),
        ),
        renew(
          'missing',
          { n: 4, pack: 'issue', from: 'bearer-0', to: 'bearer-1', tamper: { op: 'remove' } },
          E(401, 'INVALID_SIGNATURE'),
        ),
        renew(
          'pack-copy-altered',
          {
            n: 5,
            pack: 'issue',
            from: 'bearer-0',
            to: 'bearer-1',
            cashpack: { $ref: 'issue.body', $with: { amount: '250000' } },
          },
          E(401, 'INVALID_SIGNATURE'),
        ),
        renew(
          'still-active',
          { n: 6, pack: 'issue', from: 'bearer-0', to: 'bearer-1' },
          { status: 200, balances: FUNDED_AFTER_ONE },
        ),
      ],
    },
    {
      id: 'renew-chain-digest-mismatch',
      comment:
        'after a renewal, an entry naming d0 (a stale copy) as prev_chain_digest: 409 CHAIN_DIGEST_MISMATCH',
      req: ['CP-7-CHAIN-DIGEST-MISMATCH', 'CP-2-RENEWAL-ID-REPLAY'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew('renew-1', { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' }, { status: 200 }),
        renew(
          'stale',
          { n: 3, pack: 'issue', from: 'bearer-1', to: 'bearer-2' },
          E(409, 'CHAIN_DIGEST_MISMATCH'),
        ),
        renew(
          'made-up',
          { n: 4, pack: 'renew-1', from: 'bearer-1', to: 'bearer-2', prev: '0'.repeat(64) },
          E(409, 'CHAIN_DIGEST_MISMATCH'),
        ),
      ],
    },
    {
      id: 'renew-duplicate-renewal-id',
      comment: 'a second renewal reusing a renewal_id: 409 DUPLICATE_ID',
      req: ['CP-7-DUPLICATE-ID', 'CP-8-ID-SINGLE-USE', 'CP-2-RENEWAL-ID-REPLAY'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew('renew-1', { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' }, { status: 200 }),
        renew(
          'replay-id',
          { n: 2, pack: 'renew-1', from: 'bearer-1', to: 'bearer-2' },
          E(409, 'DUPLICATE_ID'),
        ),
      ],
    },
    {
      id: 'renew-chain-depth',
      comment: 'max_chain_depth 2: the chain may reach exactly 2 entries; a third renewal is refused',
      req: ['CP-7-CHAIN-DEPTH-EXCEEDED', 'CP-8-MAX-CHAIN-DEPTH', 'PRF-4-LIMITS-INCLUSIVE'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew('renew-1', { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' }, { status: 200 }),
        renew('renew-2', { n: 3, pack: 'renew-1', from: 'bearer-1', to: 'bearer-2' }, { status: 200 }),
        renew(
          'renew-3',
          { n: 4, pack: 'renew-2', from: 'bearer-2', to: 'bearer-3' },
          E(422, 'CHAIN_DEPTH_EXCEEDED', { balances: FUNDED_AFTER_ONE }),
        ),
        redeem('redeem', { n: 5, pack: 'renew-2', bearer: 'bearer-2' }, { status: 200 }),
      ],
    },
    {
      id: 'renew-for-another-pack',
      comment:
        'a renewal entry naming a pack_id never issued, with the cash-pack of another pack: refused with the error body; the profile names no code (any code of its table, with its status); the pack then renews as before',
      req: ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY', 'CP-4-RENEW'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew(
          'other-pack',
          {
            n: 2,
            pack: 'issue',
            from: 'bearer-0',
            to: 'bearer-1',
            packId: '11111111-1111-4111-8111-111111111111',
          },
          { status: 400, code: 'INVALID_REQUEST', any_error_code: true },
        ),
        renew('renewed', { n: 3, pack: 'issue', from: 'bearer-0', to: 'bearer-1' }, { status: 200 }),
      ],
    },
    {
      id: 'redeem-releases-funds',
      comment:
        'a redemption releases the amount to the redeemer, never back to the principal; the pack is REDEEMED and terminal',
      req: [
        'CP-4-REDEEM',
        'PRF-4-REDEEM-BINDING',
        'CP-3-REDEEMED',
        'CP-3-TERMINAL-STATUS',
        'PRF-4-MONEY-FLOWS',
        'CP-7-INSTRUMENT-NOT-ACTIVE',
        'PRF-1-REDEMPTION-ID-REPLAY',
        'PRF-4-REDEMPTION-REQUEST-SHAPE',
        'PRF-4-DESTINATION-SHAPE',
      ],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        redeem(
          'redeem',
          { n: 2, pack: 'issue', bearer: 'bearer-0' },
          {
            status: 200,
            body: {
              status: 'REDEEMED',
              amount: '2500',
              pack_id: ref('issue.body.pack_id'),
              redemption_id: uuid(2),
            },
            checks: ['operator-signature'],
            balances: { 'principal-funded': bal('4997500', '0', '2500'), 'principal-low': bal('5000', '0') },
          },
        ),
        status('status', ref('issue.body.pack_id'), 'principal-funded', {
          status: 200,
          body: { status: 'REDEEMED' },
        }),
        renew(
          'renew-after',
          { n: 3, pack: 'issue', from: 'bearer-0', to: 'bearer-1' },
          E(409, 'INSTRUMENT_NOT_ACTIVE'),
        ),
        redeem(
          'replay',
          { n: 2, pack: 'issue', bearer: 'bearer-0' },
          {
            status: 409,
            code: 'DUPLICATE_ID',
            alternatives: [{ status: 409, code: 'INSTRUMENT_NOT_ACTIVE' }],
            balances: { 'principal-funded': bal('4997500', '0', '2500'), 'principal-low': bal('5000', '0') },
          },
        ),
        redeem('second', { n: 4, pack: 'issue', bearer: 'bearer-0' }, E(409, 'INSTRUMENT_NOT_ACTIVE')),
      ],
    },
    {
      id: 'redeem-after-renewal',
      comment: 'the bearer after a renewal redeems; the former bearer cannot',
      req: ['CP-1-BEARER-RIGHTS', 'CP-5-BEARER-MISMATCH', 'CP-7-BEARER-MISMATCH'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        renew('renew-1', { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' }, { status: 200 }),
        redeem('former-bearer', { n: 3, pack: 'renew-1', bearer: 'bearer-0' }, E(403, 'BEARER_MISMATCH')),
        redeem('stale-copy', { n: 4, pack: 'issue', bearer: 'bearer-1' }, E(409, 'CHAIN_DIGEST_MISMATCH')),
        redeem(
          'bearer',
          { n: 5, pack: 'renew-1', bearer: 'bearer-1' },
          {
            status: 200,
            balances: { 'principal-funded': bal('4997500', '0', '2500'), 'principal-low': bal('5000', '0') },
          },
        ),
      ],
    },
    {
      id: 'redeem-redeemer-not-identified',
      comment:
        'no redeemer, a token below the required level, an unknown token: 403 REDEEMER_NOT_IDENTIFIED; the pack stays ACTIVE',
      req: [
        'CP-5-REDEEMER-IDENTIFIED',
        'CP-1-REDEEMER-IDENTIFIED',
        'CP-7-REDEEMER-NOT-IDENTIFIED',
        'PRF-4-REDEEMER-MISSING-403',
      ],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        redeem(
          'no-redeemer',
          { n: 2, pack: 'issue', bearer: 'bearer-0', token: null },
          E(403, 'REDEEMER_NOT_IDENTIFIED', { balances: FUNDED_AFTER_ONE }),
        ),
        redeem(
          'level-1',
          { n: 3, pack: 'issue', bearer: 'bearer-0', token: 'idt-level-1' },
          E(403, 'REDEEMER_NOT_IDENTIFIED'),
        ),
        redeem(
          'unknown-token',
          { n: 4, pack: 'issue', bearer: 'bearer-0', token: 'idt-nobody' },
          E(403, 'REDEEMER_NOT_IDENTIFIED'),
        ),
        status('status', ref('issue.body.pack_id'), 'operator', { status: 200, body: { status: 'ACTIVE' } }),
      ],
    },
    {
      id: 'redeem-invalid-signature',
      comment: 'a redemption request with a flipped bit or without signature: 401 INVALID_SIGNATURE',
      req: ['CP-5-INVALID-SIGNATURE', 'PRF-4-SIGNATURE-MISSING-401'],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        redeem(
          'flipped',
          { n: 2, pack: 'issue', bearer: 'bearer-0', tamper: { op: 'flip-bit' } },
          E(401, 'INVALID_SIGNATURE'),
        ),
        redeem(
          'missing',
          { n: 3, pack: 'issue', bearer: 'bearer-0', tamper: { op: 'remove' } },
          E(401, 'INVALID_SIGNATURE', { balances: FUNDED_AFTER_ONE }),
        ),
      ],
    },
    {
      id: 'expire-returns-funds',
      comment:
        'the harness expires a pack: EXPIRED, the amount back to the principal; a terminal pack cannot be expired, renewed or redeemed',
      req: [
        'CP-3-EXPIRED',
        'PRF-4-HARNESS-EXPIRE-CANCEL',
        'PRF-4-HARNESS-TERMINAL-409',
        'PRF-4-MONEY-FLOWS',
        'CP-7-INSTRUMENT-NOT-ACTIVE',
      ],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        harness('expire', 'expire', 'issue', {
          status: 200,
          body: { status: 'EXPIRED', pack_id: ref('issue.body.pack_id') },
          balances: UNTOUCHED,
        }),
        harness('expire-again', 'expire', 'issue', E(409, 'INSTRUMENT_NOT_ACTIVE', { balances: UNTOUCHED })),
        redeem(
          'redeem',
          { n: 2, pack: 'issue', bearer: 'bearer-0' },
          E(409, 'INSTRUMENT_NOT_ACTIVE', { balances: UNTOUCHED }),
        ),
      ],
    },
    {
      id: 'cancel-holds-funds',
      comment: 'the harness cancels a pack: CANCELLED, the amount held (back to no one)',
      req: [
        'CP-3-CANCELLED',
        'PRF-4-HARNESS-EXPIRE-CANCEL',
        'PRF-4-HARNESS-TERMINAL-409',
        'PRF-4-MONEY-FLOWS',
      ],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        harness('cancel', 'cancel', 'issue', {
          status: 200,
          body: { status: 'CANCELLED' },
          balances: FUNDED_AFTER_ONE,
        }),
        harness('expire', 'expire', 'issue', E(409, 'INSTRUMENT_NOT_ACTIVE', { balances: FUNDED_AFTER_ONE })),
        renew(
          'renew',
          { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' },
          E(409, 'INSTRUMENT_NOT_ACTIVE'),
        ),
        status('status', ref('issue.body.pack_id'), 'principal-funded', {
          status: 200,
          body: { status: 'CANCELLED' },
        }),
      ],
    },
    {
      id: 'expiry-by-time',
      comment:
        'a pack issued to expire in 60 s is ACTIVE 59 s later and EXPIRED once expires_at has passed, on any access, funds back',
      req: ['PRF-4-EXPIRED-ON-ACCESS', 'CP-3-EXPIRED', 'PRF-2-HARNESS-CLOCK-OPERATOR', 'PRF-4-MONEY-FLOWS'],
      steps: [
        issue('issue', { n: 1, expires_at: '2026-06-01T12:01:00Z' }, { status: 201 }),
        clock('wait-59', 59),
        status('active', ref('issue.body.pack_id'), 'principal-funded', {
          status: 200,
          body: { status: 'ACTIVE' },
          balances: FUNDED_AFTER_ONE,
        }),
        clock('wait-2', 2),
        renew(
          'renew',
          { n: 2, pack: 'issue', from: 'bearer-0', to: 'bearer-1' },
          E(409, 'INSTRUMENT_NOT_ACTIVE', { balances: UNTOUCHED }),
        ),
        status('expired', ref('issue.body.pack_id'), 'principal-funded', {
          status: 200,
          body: { status: 'EXPIRED' },
        }),
      ],
    },
    {
      id: 'expiry-returns-before-issue',
      comment:
        'the low-balance principal locks all 5000, the pack expires unseen; a new issue of 5000 succeeds (funds returned whether or not a sweep ran)',
      req: ['PRF-4-EXPIRED-ON-ACCESS', 'PRF-4-MONEY-FLOWS'],
      steps: [
        issue(
          'issue',
          { n: 1, principal: 'principal-low', amount: '5000', expires_at: '2026-06-01T12:01:00Z' },
          { status: 201 },
        ),
        clock('wait', 61),
        issue(
          'again',
          { n: 2, principal: 'principal-low', amount: '5000' },
          {
            status: 201,
            balances: { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('0', '5000') },
          },
        ),
      ],
    },
    {
      id: 'well-known',
      comment:
        'the policy document and the public key (a JWK whose kid is its RFC 7638 thumbprint) at the well-known URLs; the key is the one that signs',
      req: [
        'CP-4-WELL-KNOWN-POLICY',
        'PRF-4-POLICY-SHAPE',
        'CP-4-WELL-KNOWN-PUBKEY',
        'CP-2-PUBKEY-JWK',
        'PRF-4-OPERATOR-JWK',
        'CP-9-CURRENT-KEY',
        'PRF-4-OPERATOR-KID',
      ],
      steps: [
        { step: 'policy', action: 'policy', expect: { status: 200, body: POLICY } },
        {
          step: 'public-key',
          action: 'public_key',
          expect: {
            status: 200,
            body: { kty: 'OKP', crv: 'Ed25519', x: pk('operator'), alg: 'EdDSA', use: 'sig' },
            checks: ['jwk-kid'],
          },
        },
        issue(
          'issue',
          { n: 1 },
          { status: 201, body: { kid: ref('public-key.body.kid') }, checks: ['operator-signature'] },
        ),
      ],
    },
    balanceHarnessSpec(),
    {
      id: 'status-access',
      comment:
        "status without a credential or with another principal's is 403 FORBIDDEN; an unknown pack is 403 to an outsider and 404 PACK_UNKNOWN to the Operator",
      req: [
        'CP-4-STATUS-RESTRICTED',
        'CP-5-STATUS-ACCESS',
        'PRF-4-STATUS-FORBIDDEN-403',
        'PRF-4-STATUS-UNKNOWN-404',
        'PRF-4-STATUS-NO-EXISTENCE-LEAK',
      ],
      steps: [
        issue('issue', { n: 1 }, { status: 201 }),
        status('no-credential', ref('issue.body.pack_id'), undefined, E(403, 'FORBIDDEN')),
        status('other-principal', ref('issue.body.pack_id'), 'principal-low', E(403, 'FORBIDDEN')),
        status('wrong-credential', ref('issue.body.pack_id'), 'cred-made-up', E(403, 'FORBIDDEN')),
        status('unknown-outsider', '11111111-1111-4111-8111-111111111111', undefined, E(403, 'FORBIDDEN')),
        status(
          'unknown-operator',
          '11111111-1111-4111-8111-111111111111',
          'operator',
          E(404, 'PACK_UNKNOWN'),
        ),
        status(
          'unknown-principal',
          '11111111-1111-4111-8111-111111111111',
          'principal-funded',
          E(404, 'PACK_UNKNOWN'),
        ),
      ],
    },
  ];
}

/** The initial state every operator vector starts from. */
export function initialState(): OperatorCase['initial'] {
  return structuredClone(INITIAL);
}

/** The optional balance harness of profile 4 (`POST {harness}/balance`). */
function balanceHarnessSpec(): OperatorSpec {
  return {
    id: 'balance-harness',
    comment:
      "the optional balance harness sets a principal's available balance, locked funds unchanged; an unknown principal or a malformed amount is 400 INVALID_REQUEST",
    req: ['PRF-4-HARNESS-BALANCE', 'PRF-4-HARNESS-BALANCE-INVALID-400', 'CP-7-INSUFFICIENT-BALANCE'],
    steps: [
      issue(
        'issue',
        { n: 1, principal: 'principal-low', amount: '4000' },
        {
          status: 201,
          balances: { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('1000', '4000') },
        },
      ),
      {
        step: 'set',
        action: 'set_balance',
        body: { principal_id: 'principal-low', available_balance: '300' },
        expect: {
          status: 200,
          body: { principal_id: 'principal-low', available_balance: '300' },
          balances: { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('300', '4000') },
        },
      },
      issue('over', { n: 2, principal: 'principal-low', amount: '301' }, E(422, 'INSUFFICIENT_BALANCE')),
      issue(
        'exact',
        { n: 3, principal: 'principal-low', amount: '300' },
        {
          status: 201,
          balances: { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('0', '4300') },
        },
      ),
      {
        step: 'unknown-principal',
        action: 'set_balance',
        body: { principal_id: 'principal-nobody', available_balance: '1' },
        expect: E(400, 'INVALID_REQUEST'),
      },
      {
        step: 'bad-amount',
        action: 'set_balance',
        body: { principal_id: 'principal-low', available_balance: '-5' },
        expect: E(400, 'INVALID_REQUEST'),
      },
      {
        step: 'number-amount',
        action: 'set_balance',
        body: { principal_id: 'principal-low', available_balance: 5 },
        expect: E(400, 'INVALID_REQUEST', {
          balances: { 'principal-funded': bal('5000000', '0'), 'principal-low': bal('0', '4300') },
        }),
      },
    ],
  };
}
