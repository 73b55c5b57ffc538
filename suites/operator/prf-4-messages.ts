/**
 * Profile sections 1 and 4: the shape of every message the Operator reads. Each required member
 * of the Lock Request, the Renewal Entry, the Redemption Request and the renew/redeem bodies is
 * omitted in turn, and each member is given the wrong type or shape in turn (a bare-string
 * destination, a number amount, empty strings, impossible timestamps...), the message signed
 * again so that only its shape is broken: 400 INVALID_REQUEST, or the code of a condition the
 * value breaks by nature as well (profile 4 leaves the order of tests free: a missing
 * `principal_id` also names no signer). A message without its `signature` member is refused
 * (spec CP 5 rule 1) with 401 INVALID_SIGNATURE (profile 4), never INVALID_REQUEST. A message
 * or body that is `null`, an array or a bare string is refused the same way (never a 500).
 */
import { randomUUID } from 'node:crypto';
import { type Ed25519PrivateJwk, signObject } from '../../src/crypto/ed25519.js';
import { check, eachOverlapping, expectError, type OperatorResult } from '../_lib/index.js';
import {
  type CashPack,
  expectProfileCodeIn,
  expectProfileError,
  issue,
  lockRequest,
  newKey,
  type OperatorSetup,
  operatorNow,
  redemptionRequest,
  renewalEntry,
  setup,
} from './_support/index.js';

type Obj = Record<string, unknown>;

/** One malformed message: what was done, the edit on the unsigned message, the codes allowed. */
interface Case {
  what: string;
  edit: (o: Obj) => void;
  codes: string[];
}

const INVALID = ['INVALID_REQUEST'];

/** A `signature` member of the wrong type: a schema failure and a signature that cannot verify. */
const BAD_SIGNATURES: { what: string; value: unknown }[] = [
  { what: 'a number', value: 1 },
  { what: 'an empty string', value: '' },
  { what: 'null', value: null },
  { what: 'an object', value: {} },
];
const SIGNATURE_CODES = ['INVALID_REQUEST', 'INVALID_SIGNATURE'];

/** Bodies that are JSON but no object: a message of the wrong shape as a whole. */
const NOT_OBJECTS: [string, unknown][] = [
  ['null', null],
  ['an array', []],
  ['a bare string', 'lock request'],
  ['a number', 7],
];

/** `message` with its signature member replaced by `value`. */
function withSignature(message: object, value: unknown): Obj {
  return { ...(message as Obj), signature: value };
}

/** Re-signs `message` after `edit` (the signature covers the broken shape: only it is wrong). */
function resigned(message: object, edit: (o: Obj) => void, key: Ed25519PrivateJwk): Obj {
  const o = structuredClone(message) as Obj;
  delete o.signature;
  edit(o);
  return signObject(o, key) as Obj;
}

/** Omits `member`. */
function omit(member: string): (o: Obj) => void {
  return (o) => {
    delete o[member];
  };
}

/** Sets `member` to `value`. */
function set(member: string, value: unknown): (o: Obj) => void {
  return (o) => {
    o[member] = value;
  };
}

/**
 * Timestamps that are not RFC 3339 date-times, built on the date of `ms` so that a lenient reader
 * (one that rolls hour 24 over to the next day) would find an instant near the real one.
 */
function badTimestamps(ms: number): { what: string; value: unknown }[] {
  const day = new Date(ms).toISOString().slice(0, 10);
  const [y] = day.split('-');
  const month = day.slice(0, 7);
  return [
    { what: 'a number', value: Math.floor(ms / 1000) },
    { what: 'an empty string', value: '' },
    { what: 'month 13', value: `${y}-13-01T10:00:00Z` },
    { what: 'day 32', value: `${y}-01-32T10:00:00Z` },
    { what: 'February 30', value: `${y}-02-30T10:00:00Z` },
    { what: 'hour 24', value: `${day}T24:00:00Z` },
    { what: 'minute 60', value: `${day}T10:60:00Z` },
    { what: 'no offset', value: `${day}T10:00:00` },
    { what: 'a date only', value: day },
    { what: 'offset +25:00', value: `${day}T10:00:00+25:00` },
    { what: 'not a time', value: 'tomorrow' },
    // A lenient reader rolls each of these over to a neighbouring instant, or finds a timestamp
    // inside a longer text: none is an RFC 3339 date-time (section 5.6 grammar, 5.7 ranges).
    { what: 'month 00', value: `${y}-00-10T10:00:00Z` },
    { what: 'day 00', value: `${month}-00T10:00:00Z` },
    { what: 'second 61', value: `${day}T10:00:61Z` },
    { what: 'offset +24:00', value: `${day}T10:00:00+24:00` },
    { what: 'offset minute 60', value: `${day}T10:00:00+01:60` },
    { what: 'a fraction without digits', value: `${day}T10:00:00.Z` },
    { what: 'text before it', value: `x${day}T10:00:00Z` },
    { what: 'text after it', value: `${day}T10:00:00Zx` },
    { what: 'a one-digit hour', value: `${day}T9:00:00Z` },
    { what: 'an array holding a valid timestamp', value: [`${day}T10:00:00Z`] },
  ];
}

/** Wrong shapes of a base64url raw 32-byte public key. */
const BAD_KEYS: { what: string; value: unknown }[] = [
  { what: 'a number', value: 12345 },
  { what: 'an empty string', value: '' },
  { what: 'not base64url', value: 'not a key!' },
  { what: '31 bytes', value: Buffer.alloc(31, 7).toString('base64url') },
  { what: 'padded standard base64', value: Buffer.alloc(32, 7).toString('base64') },
];

/** Wrong shapes of an identifier (a UUID string). */
const BAD_IDS: { what: string; value: unknown }[] = [
  { what: 'a number', value: 42 },
  { what: 'an empty string', value: '' },
  { what: 'null', value: null },
  { what: 'an array', value: ['5b1f0c1e-8d0a-4c57-9d43-3a1f2b9e7c10'] },
];

/**
 * Strings that are not a UUID (profile 1). Sent as `renewal_id` and `redemption_id`, which the
 * Operator writes back (in `renewal_chain`, in the Redemption Confirmation): accepting one would
 * make it emit a non-UUID identifier. (`request_id` is never written back: profile 1 binds what
 * an implementation emits, so whether the Operator refuses a non-UUID one is left open.)
 */
function nonUuids(): { what: string; value: string }[] {
  const u = randomUUID();
  return [
    { what: 'not a UUID', value: 'not-a-uuid' },
    { what: 'a UUID with a urn:uuid: prefix', value: `urn:uuid:${u}` },
    { what: 'a UUID with a character after it', value: `${u}0` },
    { what: 'a UUID with a character before it', value: `0${u}` },
    { what: 'a UUID without hyphens', value: u.replaceAll('-', '') },
    { what: 'a UUID with a non-hex digit', value: `${u.slice(0, -1)}g` },
    { what: 'a UUID in braces', value: `{${u}}` },
  ];
}

/** Wrong shapes of a non-empty string member. */
const BAD_STRINGS: { what: string; value: unknown }[] = [
  { what: 'a number', value: 7 },
  { what: 'an empty string', value: '' },
  { what: 'null', value: null },
  { what: 'an object', value: {} },
  { what: 'true', value: true },
];

/** Lock Request cases: every member omitted, every member malformed. */
function lockRequestCases(s: OperatorSetup): Case[] {
  const cases: Case[] = [];
  const codesOf = (member: string): string[] =>
    member === 'principal_id'
      ? ['INVALID_REQUEST', 'INVALID_SIGNATURE'] // no principal_id names no signer either
      : member === 'expires_at'
        ? ['INVALID_REQUEST', 'EXPIRY_INVALID'] // an expiry that is no instant is in no range
        : INVALID;
  for (const member of [
    'request_id',
    'principal_id',
    'amount',
    'asset',
    'initial_bearer_pk',
    'expires_at',
    'created_at',
  ]) {
    cases.push({ what: `without "${member}"`, edit: omit(member), codes: codesOf(member) });
  }
  for (const bad of BAD_IDS)
    cases.push({ what: `"request_id" ${bad.what}`, edit: set('request_id', bad.value), codes: INVALID });
  for (const bad of BAD_STRINGS)
    cases.push({
      what: `"principal_id" ${bad.what}`,
      edit: set('principal_id', bad.value),
      codes: codesOf('principal_id'),
    });
  const tooBig = (1n << 256n).toString();
  for (const [what, value, codes] of [
    ['a JSON number', 100, INVALID],
    ['an empty string', '', INVALID],
    ['"0"', '0', INVALID],
    ['with a leading zero', '0100', INVALID],
    ['negative', '-5', INVALID],
    ['with a plus sign', '+5', INVALID],
    ['with a fraction', '1.5', INVALID],
    ['with spaces', ' 100', INVALID],
    ['in exponent form', '1e2', INVALID],
    ['in hex', '0x10', INVALID],
    ['2^256', tooBig, ['INVALID_REQUEST', 'AMOUNT_EXCEEDS_LIMIT']],
  ] as const) {
    cases.push({ what: `"amount" ${what}`, edit: set('amount', value), codes: [...codes] });
  }
  const first = s.policy.assets[0] as Obj;
  for (const [what, value] of [
    ['a bare string', String(first.code)],
    ['an empty object', {}],
    ['without "code"', { type: first.type }],
    ['without "type"', { code: first.code }],
    ['with a number "code"', { ...first, code: 978 }],
    ['with an empty "code"', { ...first, code: '' }],
    ['with an unknown "type"', { ...first, type: 'cash' }],
    ['with an array "type"', { ...first, type: [first.type] }],
    ['of type stablecoin without "chain_id"', { type: 'stablecoin', code: first.code }],
    ['of type tokenized without "chain_id"', { type: 'tokenized', code: first.code }],
    ['with an empty "chain_id"', { ...first, chain_id: '' }],
    ['with a number "chain_id"', { ...first, chain_id: 1 }],
    ['with a null "chain_id"', { ...first, chain_id: null }],
    ['an array', [first]],
    ['null', null],
  ] as const) {
    cases.push({ what: `"asset" ${what}`, edit: set('asset', value), codes: INVALID });
  }
  for (const bad of BAD_KEYS)
    cases.push({
      what: `"initial_bearer_pk" ${bad.what}`,
      edit: set('initial_bearer_pk', bad.value),
      codes: INVALID,
    });
  for (const bad of badTimestamps(operatorNow() + 86_400_000)) {
    cases.push({
      what: `"expires_at" ${bad.what}`,
      edit: set('expires_at', bad.value),
      codes: codesOf('expires_at'),
    });
  }
  for (const bad of badTimestamps(operatorNow()))
    cases.push({ what: `"created_at" ${bad.what}`, edit: set('created_at', bad.value), codes: INVALID });
  return cases;
}

/** Renewal Entry cases (the entry re-signed by the current bearer). */
function renewalEntryCases(pack: CashPack): Case[] {
  const cases: Case[] = [];
  const codes: Record<string, string[]> = {
    pack_id: ['INVALID_REQUEST', 'PACK_UNKNOWN'],
    prev_chain_digest: ['INVALID_REQUEST', 'CHAIN_DIGEST_MISMATCH'],
    bearer_pk: ['INVALID_REQUEST', 'INVALID_SIGNATURE', 'BEARER_MISMATCH'],
  };
  const codesOf = (m: string) => codes[m] ?? INVALID;
  for (const member of [
    'renewal_id',
    'pack_id',
    'prev_chain_digest',
    'bearer_pk',
    'new_bearer_pk',
    'created_at',
  ])
    cases.push({ what: `without "${member}"`, edit: omit(member), codes: codesOf(member) });
  for (const bad of [...BAD_IDS, ...nonUuids()]) {
    cases.push({ what: `"renewal_id" ${bad.what}`, edit: set('renewal_id', bad.value), codes: INVALID });
    cases.push({ what: `"pack_id" ${bad.what}`, edit: set('pack_id', bad.value), codes: codesOf('pack_id') });
  }
  for (const [what, value] of [
    ['a number', 12],
    ['an empty string', ''],
    ['in upper case', pack.chain_digest.toUpperCase()],
    ['of 63 digits', pack.chain_digest.slice(1)],
  ] as const) {
    cases.push({
      what: `"prev_chain_digest" ${what}`,
      edit: set('prev_chain_digest', value),
      codes: codesOf('prev_chain_digest'),
    });
  }
  for (const bad of BAD_KEYS) {
    cases.push({
      what: `"bearer_pk" ${bad.what}`,
      edit: set('bearer_pk', bad.value),
      codes: codesOf('bearer_pk'),
    });
    cases.push({
      what: `"new_bearer_pk" ${bad.what}`,
      edit: set('new_bearer_pk', bad.value),
      codes: INVALID,
    });
  }
  for (const bad of badTimestamps(operatorNow()))
    cases.push({ what: `"created_at" ${bad.what}`, edit: set('created_at', bad.value), codes: INVALID });
  return cases;
}

/** Redemption Request cases (the request re-signed by the current bearer). */
function redemptionRequestCases(pack: CashPack): Case[] {
  const cases: Case[] = [];
  const codes: Record<string, string[]> = {
    pack_id: ['INVALID_REQUEST', 'PACK_UNKNOWN'],
    prev_chain_digest: ['INVALID_REQUEST', 'CHAIN_DIGEST_MISMATCH'],
    bearer_pk: ['INVALID_REQUEST', 'INVALID_SIGNATURE', 'BEARER_MISMATCH'],
    redeemer: ['INVALID_REQUEST', 'REDEEMER_NOT_IDENTIFIED'],
  };
  const codesOf = (m: string) => codes[m] ?? INVALID;
  for (const member of [
    'redemption_id',
    'pack_id',
    'prev_chain_digest',
    'bearer_pk',
    'destination',
    'created_at',
  ])
    cases.push({ what: `without "${member}"`, edit: omit(member), codes: codesOf(member) });
  for (const bad of [...BAD_IDS, ...nonUuids()]) {
    cases.push({
      what: `"redemption_id" ${bad.what}`,
      edit: set('redemption_id', bad.value),
      codes: INVALID,
    });
    cases.push({ what: `"pack_id" ${bad.what}`, edit: set('pack_id', bad.value), codes: codesOf('pack_id') });
  }
  for (const [what, value] of [
    ['a number', 12],
    ['an empty string', ''],
    ['in upper case', pack.chain_digest.toUpperCase()],
  ] as const) {
    cases.push({
      what: `"prev_chain_digest" ${what}`,
      edit: set('prev_chain_digest', value),
      codes: codesOf('prev_chain_digest'),
    });
  }
  for (const bad of BAD_KEYS)
    cases.push({
      what: `"bearer_pk" ${bad.what}`,
      edit: set('bearer_pk', bad.value),
      codes: codesOf('bearer_pk'),
    });
  for (const [what, value] of [
    ['a bare string', 'cprc-suite-destination'],
    ['an empty object', {}],
    ['without "reference"', { type: 'account' }],
    ['without "type"', { reference: 'cprc-suite-destination' }],
    ['of another type', { type: 'iban', reference: 'cprc-suite-destination' }],
    ['with a number "reference"', { type: 'account', reference: 12345 }],
    ['with an empty "reference"', { type: 'account', reference: '' }],
    ['an array', [{ type: 'account', reference: 'cprc-suite-destination' }]],
    ['null', null],
  ] as const) {
    cases.push({ what: `"destination" ${what}`, edit: set('destination', value), codes: INVALID });
  }
  for (const [what, value] of [
    ['a bare string', 'token'],
    ['an empty object', {}],
    ['with a number "identity_token"', { identity_token: 12345 }],
    ['with an empty "identity_token"', { identity_token: '' }],
  ] as const) {
    cases.push({ what: `"redeemer" ${what}`, edit: set('redeemer', value), codes: codesOf('redeemer') });
  }
  for (const bad of badTimestamps(operatorNow()))
    cases.push({ what: `"created_at" ${bad.what}`, edit: set('created_at', bad.value), codes: INVALID });
  return cases;
}

describe('Profile sections 1 and 4: every member of every message, omitted or malformed', () => {
  check(
    'lock-request-members-omitted-or-malformed',
    ['PRF-1-INVALID-REQUEST', 'PRF-4-LOCK-REQUEST-SHAPE'],
    'a Lock Request with a required member omitted, or a member of the wrong type or shape (each in turn, signed again), answers 400 INVALID_REQUEST',
    async () => {
      const s = await setup();
      const key = s.config.principals.funded.private_key_jwk as Ed25519PrivateJwk;
      // each case a Lock Request of its own
      await eachOverlapping(
        lockRequestCases(s),
        (c) => s.op.issue(resigned(lockRequest(s, { amount: '2' }).request, c.edit, key)),
        (r, c) => expectProfileCodeIn(r, c.codes, `issue of a Lock Request ${c.what}`),
      );
      for (const bad of BAD_SIGNATURES) {
        const r = await s.op.issue(withSignature(lockRequest(s, { amount: '2' }).request, bad.value));
        expectProfileCodeIn(r, SIGNATURE_CODES, `issue of a Lock Request whose "signature" is ${bad.what}`);
      }
      for (const [what, body] of NOT_OBJECTS) {
        expectProfileCodeIn(await s.op.issue(body), INVALID, `issue whose body is ${what}`);
      }
    },
  );

  check(
    'renewal-entry-members-omitted-or-malformed',
    ['PRF-1-INVALID-REQUEST', 'PRF-4-RENEWAL-ENTRY-SHAPE', 'PRF-4-RENEW-BINDING'],
    'a renewal with a required member of the Renewal Entry or the body omitted, or a member of the wrong type or shape (each in turn, signed again), answers 400 INVALID_REQUEST',
    async () => {
      const s = await setup();
      const { pack, bearer } = await issue(s);
      for (const c of renewalEntryCases(pack)) {
        const entry = resigned(renewalEntry(pack, bearer, newKey()), c.edit, bearer.privateJwk);
        expectProfileCodeIn(await s.op.renew(pack, entry), c.codes, `renewal with a Renewal Entry ${c.what}`);
      }
      for (const bad of BAD_SIGNATURES) {
        const entry = withSignature(renewalEntry(pack, bearer, newKey()), bad.value);
        expectProfileCodeIn(
          await s.op.renew(pack, entry),
          SIGNATURE_CODES,
          `renewal whose Renewal Entry "signature" is ${bad.what}`,
        );
      }
      const entry = renewalEntry(pack, bearer, newKey());
      for (const [what, copy, body, codes] of [
        ['without "renewal_entry"', pack, undefined, INVALID],
        ['with "renewal_entry" a bare string', pack, 'entry', INVALID],
        ['with "renewal_entry" an array', pack, [entry], INVALID],
        ['with "renewal_entry" null', pack, null, INVALID],
        ['with "cashpack" null', null, entry, ['INVALID_REQUEST', 'INVALID_SIGNATURE']],
        ['without "cashpack"', undefined, entry, INVALID],
        ['with "cashpack" a bare string', 'pack', entry, ['INVALID_REQUEST', 'INVALID_SIGNATURE']],
        ['with "cashpack" an array', [pack], entry, ['INVALID_REQUEST', 'INVALID_SIGNATURE']],
      ] as const) {
        expectProfileCodeIn(await s.op.renew(copy, body), [...codes], `renewal ${what}`);
      }
    },
  );

  check(
    'redemption-request-members-omitted-or-malformed',
    [
      'PRF-1-INVALID-REQUEST',
      'PRF-4-REDEMPTION-REQUEST-SHAPE',
      'PRF-4-DESTINATION-SHAPE',
      'PRF-4-REDEEM-BINDING',
    ],
    'a redemption with a required member of the Redemption Request or the body omitted, or a member of the wrong type or shape (a bare-string destination...; each in turn, signed again), answers 400 INVALID_REQUEST',
    async () => {
      const s = await setup();
      const { pack, bearer } = await issue(s);
      for (const c of redemptionRequestCases(pack)) {
        const request = resigned(redemptionRequest(s, pack, bearer), c.edit, bearer.privateJwk);
        expectProfileCodeIn(
          await s.op.redeem(pack, request),
          c.codes,
          `redemption with a Redemption Request ${c.what}`,
        );
      }
      for (const bad of BAD_SIGNATURES) {
        const request = withSignature(redemptionRequest(s, pack, bearer), bad.value);
        expectProfileCodeIn(
          await s.op.redeem(pack, request),
          SIGNATURE_CODES,
          `redemption whose Redemption Request "signature" is ${bad.what}`,
        );
      }
      const request = redemptionRequest(s, pack, bearer);
      for (const [what, copy, body, codes] of [
        ['without "redemption_request"', pack, undefined, INVALID],
        ['with "redemption_request" a bare string', pack, 'request', INVALID],
        ['with "redemption_request" an array', pack, [request], INVALID],
        ['with "redemption_request" null', pack, null, INVALID],
        ['with "cashpack" null', null, request, ['INVALID_REQUEST', 'INVALID_SIGNATURE']],
        ['with "cashpack" an array', [pack], request, ['INVALID_REQUEST', 'INVALID_SIGNATURE']],
        ['without "cashpack"', undefined, request, INVALID],
        ['with "cashpack" a bare string', 'pack', request, ['INVALID_REQUEST', 'INVALID_SIGNATURE']],
      ] as const) {
        expectProfileCodeIn(await s.op.redeem(copy, body), [...codes], `redemption ${what}`);
      }
    },
  );
});

/** Every signed message of issue, renew and redeem sent without its `signature` member. */
async function unsigned(s: OperatorSetup): Promise<{ what: string; result: OperatorResult }[]> {
  const out: { what: string; result: OperatorResult }[] = [];
  const strip = <T extends object>(o: T): Obj => {
    const copy = structuredClone(o) as Obj;
    delete copy.signature;
    return copy;
  };
  out.push({
    what: 'a Lock Request without "signature"',
    result: await s.op.issue(strip(lockRequest(s).request)),
  });
  const { pack, bearer } = await issue(s);
  out.push({
    what: 'a renewal whose Renewal Entry has no "signature"',
    result: await s.op.renew(pack, strip(renewalEntry(pack, bearer, newKey()))),
  });
  out.push({
    what: 'a renewal whose cash-pack copy has no "signature"',
    result: await s.op.renew(strip(pack), renewalEntry(pack, bearer, newKey())),
  });
  out.push({
    what: 'a redemption whose Redemption Request has no "signature"',
    result: await s.op.redeem(pack, strip(redemptionRequest(s, pack, bearer))),
  });
  out.push({
    what: 'a redemption whose cash-pack copy has no "signature"',
    result: await s.op.redeem(strip(pack), redemptionRequest(s, pack, bearer)),
  });
  return out;
}

describe('Cash-Pack API section 5 rule 1 and profile section 4: a message without its signature', () => {
  check(
    'message-without-signature-refused',
    ['CP-5-MESSAGES-SIGNED'],
    'a Lock Request, Renewal Entry, Redemption Request or cash-pack copy without its signature member is refused',
    async () => {
      const s = await setup();
      for (const u of await unsigned(s)) expectError(u.result, u.what);
    },
  );

  check(
    'message-without-signature-401-invalid-signature',
    ['PRF-4-SIGNATURE-MISSING-401'],
    'a message whose signature member is missing answers 401 INVALID_SIGNATURE on issue, renew and redeem alike, never INVALID_REQUEST',
    async () => {
      const s = await setup();
      for (const u of await unsigned(s)) {
        expectProfileCodeIn(u.result, ['INVALID_SIGNATURE'], u.what);
        expectProfileError(u.result, 401, u.what);
      }
    },
  );
});
