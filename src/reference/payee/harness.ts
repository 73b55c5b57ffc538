/**
 * Parsing of the reference payee's harness bodies (profile 2, "Optional payee harness").
 * Hand-written rather than schema-driven so the reference stays independent of the checks that
 * grade it, and so every refusal names the member and says what to do.
 *
 * @packageDocumentation
 */
import { code as currencyByCode } from 'currency-codes';

// Deliberately the payee's own copy of the rail list (the suite's is src/model/cpr.ts): the
// reference stays independent of the checks that grade it.
/** The RailHint enumeration (spec 2.4). */
export const RAIL_HINTS = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI', 'SWIFT', 'OPEN'] as const;

/** One value of the RailHint enumeration (spec 2.4). */
export type RailHint = (typeof RAIL_HINTS)[number];

/** AssetDescriptor (spec 2.3). */
export interface Asset {
  /** `fiat`, `stablecoin`, `crypto` or `tokenized`. */
  type: 'fiat' | 'stablecoin' | 'crypto' | 'tokenized';
  /** ISO 4217 for fiat; token symbol or contract reference otherwise. */
  code: string;
  /** Required for stablecoin and tokenized. */
  chain_id?: string;
}

/** A parsed `POST {harness}/requests` body. */
export interface CreateRequestParams {
  /** Rail; `SEPA_CT` when the body names none. */
  railHint: RailHint;
  /** Fixed amount (digit string), or absent for an open amount. */
  amount?: string;
  /** Asset; the rail's usual asset when absent. */
  asset?: Asset;
  /** Memo (at most 140 code points). */
  memo?: string;
  /** Extensions to carry. */
  extensions?: Record<string, unknown>;
  /** Wanted token lifetime (capped by the payee). */
  tokenTtlSeconds?: number;
  /** Wanted validity window (capped by the payee). */
  validitySeconds?: number;
  /** Delivery form. */
  delivery: 'reference' | 'inline';
  /** Whether to add the QR PNG. */
  qr: boolean;
}

/** The outcome of parsing a harness body: the value or a message for a person. */
export type ParseResult<T> = { ok: true; value: T } | { ok: false; message: string };

const ASSET_TYPES = ['fiat', 'stablecoin', 'crypto', 'tokenized'] as const;
/**
 * The members profile 2 lists for each harness body (and spec 2.3 for an asset). The reference
 * refuses any other; a permitted variant ignores them.
 */
export const HARNESS_MEMBERS: {
  readonly requests: ReadonlySet<string>;
  readonly asset: ReadonlySet<string>;
  readonly clock: ReadonlySet<string>;
  readonly fulfillments: ReadonlySet<string>;
} = {
  requests: new Set([
    'rail_hint',
    'amount',
    'asset',
    'memo',
    'extensions',
    'token_ttl_seconds',
    'validity_seconds',
    'delivery',
    'qr',
  ]),
  asset: new Set(['type', 'code', 'chain_id']),
  clock: new Set(['advance_seconds']),
  fulfillments: new Set(['request_id']),
};
/** Profile 1: an amount is at most 2^256 - 1. */
const MAX_AMOUNT = 2n ** 256n - 1n;
/**
 * Spec 9 rule 5: `foundation:` or a reverse-domain prefix of two or more labels ending in `:` or `.`
 * (a third label needs no repetition here: the `.` before it ends the prefix of two).
 */
const NAMESPACED_KEY =
  /^(?:foundation:|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?[:.])/i;

// Deliberately local (src/model/util.ts has the shared isObject): see the file's header.
function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The first member of `o` that is not one of `names`. Profile 2 lists the members of each harness
 * body without closing it: the reference refuses any other (400 INVALID_REQUEST), a payee may as
 * well ignore it (the suite accepts both; `docs/mutation.md`, payee, harness.ts).
 */
function unknownMember(o: Record<string, unknown>, names: ReadonlySet<string>): string | undefined {
  // Stryker disable next-line ArrowFunction: unknown members are free (profile 2 lists the members without closing the body): ignoring them is allowed
  return Object.keys(o).find((k) => !names.has(k));
}

function positiveInteger(body: Record<string, unknown>, name: string): ParseResult<number | undefined> {
  const v = body[name];
  if (v === undefined) return { ok: true, value: undefined };
  // Number.isSafeInteger is false for every non-number: no typeof test needed
  if (!Number.isSafeInteger(v) || (v as number) < 1) {
    return { ok: false, message: `"${name}" must be a positive integer number of seconds` };
  }
  return { ok: true, value: v as number };
}

/** Parses an AssetDescriptor (spec 2.3): ISO 4217 code for fiat, chain_id for stablecoin/tokenized. */
export function parseAsset(v: unknown): ParseResult<Asset> {
  if (!isPlainObject(v)) return { ok: false, message: '"asset" must be an object {type, code, chain_id?}' };
  const extra = unknownMember(v, HARNESS_MEMBERS.asset);
  // Stryker disable next-line ConditionalExpression: unknown members are free (spec 2.3 and profile 2 do not close the AssetDescriptor): ignoring them is allowed
  if (extra !== undefined) {
    return {
      ok: false,
      message: `"asset.${extra}" is not a member of an asset descriptor (type, code, chain_id)`,
    };
  }
  const { type, code, chain_id } = v;
  if (typeof type !== 'string' || !(ASSET_TYPES as readonly string[]).includes(type)) {
    return { ok: false, message: `"asset.type" must be one of ${ASSET_TYPES.join(', ')}` };
  }
  if (typeof code !== 'string' || code.length === 0)
    return { ok: false, message: '"asset.code" must be a non-empty string' };
  if (type === 'fiat' && currencyByCode(code) === undefined) {
    return {
      ok: false,
      message: `"asset.code" ${JSON.stringify(code)} is not an ISO 4217 currency code (fiat)`,
    };
  }
  if (chain_id !== undefined && (typeof chain_id !== 'string' || chain_id.length === 0)) {
    return { ok: false, message: '"asset.chain_id" must be a non-empty string' };
  }
  if ((type === 'stablecoin' || type === 'tokenized') && chain_id === undefined) {
    return { ok: false, message: `"asset.chain_id" is required for a ${type} asset (spec 2.3)` };
  }
  // an absent chain_id stays absent: JSON leaves out a member whose value is undefined
  return { ok: true, value: { type: type as Asset['type'], code, chain_id: chain_id as string | undefined } };
}

/**
 * Parses a `POST {harness}/requests` body (profile 2).
 *
 * @example
 * ```ts
 * parseCreateRequest({ rail_hint: 'PIX', amount: '1500', delivery: 'reference' });
 * ```
 */
export function parseCreateRequest(body: unknown): ParseResult<CreateRequestParams> {
  if (!isPlainObject(body)) return { ok: false, message: 'the body must be a json object' };
  const extra = unknownMember(body, HARNESS_MEMBERS.requests);
  // Stryker disable next-line ConditionalExpression: unknown members are free (profile 2 lists the members without closing the body): ignoring them is allowed
  if (extra !== undefined) {
    return {
      ok: false,
      message: `"${extra}" is not a member of a create-request body; allowed: ${[...HARNESS_MEMBERS.requests].join(', ')}`,
    };
  }
  const { rail_hint, amount, asset, memo, extensions, delivery, qr } = body;
  if (delivery !== 'reference' && delivery !== 'inline') {
    return { ok: false, message: '"delivery" is required and must be "reference" or "inline"' };
  }
  // includes() is false for every non-string: no typeof test needed
  if (rail_hint !== undefined && !(RAIL_HINTS as readonly unknown[]).includes(rail_hint)) {
    return { ok: false, message: `"rail_hint" must be one of the rails of spec 2.4: ${RAIL_HINTS}` };
  }
  if (amount !== undefined) {
    // Profile 1: a digit string, no sign, no leading zero, 1 .. 2^256 - 1; never a JS number.
    if (typeof amount !== 'string' || !/^[1-9][0-9]*$/.test(amount)) {
      return {
        ok: false,
        message: '"amount" must be a string of base-10 digits without sign or leading zero, e.g. "1500"',
      };
    }
    // (the body limit, 64 KiB by default, keeps BigInt's parse short)
    // Stryker disable next-line EqualityOperator: profile 2 lets the payee refuse the largest amount ("answered 400 INVALID_REQUEST, or honoured"): payee-variant-largest-amount-refused
    if (BigInt(amount) > MAX_AMOUNT) {
      return { ok: false, message: '"amount" must be at most 2^256 - 1' };
    }
  }
  let parsedAsset: Asset | undefined;
  if (asset !== undefined) {
    const a = parseAsset(asset);
    if (!a.ok) return a;
    parsedAsset = a.value;
  }
  if (memo !== undefined) {
    if (typeof memo !== 'string') return { ok: false, message: '"memo" must be a string' };
    // Spec 2.1 / 8: at most 140 characters; profile 2: counted in code points.
    const length = [...memo].length;
    if (length > 140)
      return { ok: false, message: `"memo" has ${length} characters; at most 140 are allowed` };
  }
  if (extensions !== undefined) {
    if (!isPlainObject(extensions)) return { ok: false, message: '"extensions" must be a json object' };
    // Profile 2: a request the payee cannot honour conformantly is refused, never answered with a
    // non-conformant CPR: extension keys carry a namespace (spec 9 rule 5) and no member, at any
    // depth, is payer, authorization or state data (spec 1.2, INV-1, profile 2).
    for (const key of Object.keys(extensions)) {
      if (!NAMESPACED_KEY.test(key)) {
        return {
          ok: false,
          message: `extension key "${key}" has no "foundation:" or reverse-domain prefix (e.g. "com.example:${key}")`,
        };
      }
    }
    const payerMember = findPayerMember(extensions);
    if (payerMember !== undefined) {
      return {
        ok: false,
        message: `the extensions carry a member "${payerMember}", named after payer, authorization or state data, which a CPR never carries (spec 1.2, INV-1)`,
      };
    }
  }
  if (qr !== undefined && typeof qr !== 'boolean')
    return { ok: false, message: '"qr" must be true or false' };
  const ttl = positiveInteger(body, 'token_ttl_seconds');
  if (!ttl.ok) return ttl;
  const validity = positiveInteger(body, 'validity_seconds');
  if (!validity.ok) return validity;
  // an absent option stays undefined, which every reader of CreateRequestParams takes as absent
  return {
    ok: true,
    value: {
      railHint: (rail_hint as RailHint | undefined) ?? 'SEPA_CT',
      amount: amount as string | undefined,
      asset: parsedAsset,
      memo: memo as string | undefined,
      extensions: extensions as Record<string, unknown> | undefined,
      tokenTtlSeconds: ttl.value,
      validitySeconds: validity.value,
      delivery,
      qr: qr === true,
    },
  };
}

/**
 * Parses a `POST {harness}/fulfillments` body `{request_id}` (profile 2). A missing or non-string
 * `request_id` is refused; a string is returned in lower case. One that is not a UUID was never
 * issued, so the reference answers it 404 `REQUEST_UNKNOWN` (profile 2: 400 `INVALID_REQUEST` or
 * 404 `REQUEST_UNKNOWN`).
 */
export function parseFulfillment(body: unknown): ParseResult<string> {
  if (!isPlainObject(body))
    return { ok: false, message: 'the body must be a json object {"request_id": "<uuid>"}' };
  const extra = unknownMember(body, HARNESS_MEMBERS.fulfillments);
  // Stryker disable next-line ConditionalExpression: unknown members are free (profile 2 lists the members without closing the body): ignoring them is allowed
  if (extra !== undefined)
    return { ok: false, message: `"${extra}" is not a member of a fulfillment body; send only "request_id"` };
  const id = body.request_id;
  if (typeof id !== 'string') {
    return { ok: false, message: '"request_id" is required and must be a uuid string' };
  }
  // a UUID in either case names the same request; any other string was never issued
  return { ok: true, value: id.toLowerCase() };
}

/**
 * Parses a `POST {harness}/clock` body `{"advance_seconds": N}` (profile 2, optional test clock):
 * N is a non-negative integer number of seconds; the clock never moves back.
 */
export function parseClockAdvance(body: unknown): ParseResult<number> {
  if (!isPlainObject(body))
    return { ok: false, message: 'the body must be a json object {"advance_seconds": <seconds>}' };
  const extra = unknownMember(body, HARNESS_MEMBERS.clock);
  // Stryker disable next-line ConditionalExpression: unknown members are free (profile 2 lists the members without closing the body): ignoring them is allowed
  if (extra !== undefined)
    return { ok: false, message: `"${extra}" is not a member of a clock body; send only "advance_seconds"` };
  const n = body.advance_seconds;
  // Number.isSafeInteger is false for every non-number: no typeof test needed
  if (!Number.isSafeInteger(n)) {
    return { ok: false, message: '"advance_seconds" is required and must be an integer number of seconds' };
  }
  if ((n as number) < 0)
    return { ok: false, message: '"advance_seconds" must not be negative: the clock never moves back' };
  return { ok: true, value: n as number };
}

/**
 * Profile 2 payer vocabulary (a floor), compared case- and separator-insensitively on each reading
 * of the name: the name itself and every tail after a `:`, `/` or `.` (a namespace prefix
 * removed): `com.example:payer`, `acme:payer.email`, `com.example.status` and `Execution.Date` are
 * all payer, authorization or state data. (The payee's own copy, kept on purpose: it drops every
 * character that is not a letter or digit, more than the profile's `_`, `-`, `.` and white space,
 * so it refuses a little more than the floor, which a harness may.)
 */
function isPayerName(name: string): boolean {
  if (isPayerTerm(name)) return true;
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if ((c === ':' || c === '/' || c === '.') && isPayerTerm(name.slice(i + 1))) return true;
  }
  return false;
}

/** Whether `name`, lower case with letters and digits only, is a term of the profile 2 floor. */
function isPayerTerm(name: string): boolean {
  const n = name.toLowerCase().replace(/[^a-z0-9]/g, '');
  return (
    n.startsWith('payer') ||
    n.startsWith('debtor') ||
    n === 'authorization' ||
    n === 'signedtx' ||
    n === 'rawtx' ||
    n === 'permit' ||
    n.startsWith('mandate') ||
    n === 'executiondate' ||
    n === 'state' ||
    n === 'status' ||
    n.startsWith('settlement')
  );
}

/** The name of the first member named after payer data in `v`, at any depth (iterative walk). */
function findPayerMember(v: unknown): string | undefined {
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      // one by one: spreading a long array into push() overflows the call stack
      for (const y of x) stack.push(y);
    } else if (isPlainObject(x)) {
      for (const [k, y] of Object.entries(x)) {
        if (isPayerName(k)) return k;
        stack.push(y);
      }
    }
  }
  return undefined;
}
