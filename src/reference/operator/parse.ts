/**
 * Structural checks of request bodies (profile sections 1 and 4). A body that fails becomes
 * 400 INVALID_REQUEST naming the member, except a signed message without its `signature` member,
 * which is 401 INVALID_SIGNATURE (profile 4). Unknown members are refused because every member
 * is signed and renewal entries are carried verbatim into the cash-pack.
 *
 * The checks are methods of {@link MessageParser}, so that a deliberately broken Operator can
 * inject a parser with exactly one check weakened (`ReferenceOperator.createParser`).
 * @packageDocumentation
 */
import { isBase64url } from '../../crypto/base64url.js';
import { OperatorError } from './errors.js';
import type { AssetDescriptor, Destination, LockRequest, RedemptionRequest, RenewalEntry } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AMOUNT = /^[1-9][0-9]*$/;
// Stryker disable next-line ArithmeticOperator: an amount above 2^256 - 1 is also above max_amount (itself an amount): profile 4 lets a request that breaks two conditions by nature get either code (INVALID_REQUEST or AMOUNT_EXCEEDS_LIMIT)
const MAX_AMOUNT = (1n << 256n) - 1n;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;
// Stryker disable next-line Regex: a malformed prev_chain_digest is never the pack's chain_digest: profile 4 lets it be INVALID_REQUEST or CHAIN_DIGEST_MISMATCH (two conditions by nature)
const HEX64 = /^[0-9a-f]{64}$/;

type Obj = Record<string, unknown>;

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp, or `undefined` when the text is not one
 * (profile 1: any offset is read correctly, `+14:00` being 14 hours ahead of UTC; impossible
 * dates and times such as February 30, month 13 or hour 24 are refused). A deliberate copy of an
 * RFC 3339 reader: the reference Operator shares no parser with the suite that grades it.
 *
 * @example
 * ```ts
 * parseRfc3339('2026-11-22T12:00:00+01:00'); // Date.UTC(2026, 10, 22, 11)
 * ```
 */
export function parseRfc3339(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  const m = RFC3339.exec(text);
  if (m === null) return undefined;
  const [y, mo, d, h, mi, s] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  if (mo < 1 || mo > 12 || h > 23 || mi > 59) return undefined;
  // Stryker disable next-line EqualityOperator: RFC 3339 5.7 leaves second 60 to the reader's leap-second table: refusing :60 is allowed, accepting :61 never is
  if (s > 60) return undefined;
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (d < 1 || d > daysInMonth) return undefined;
  let offsetMinutes = 0;
  if (m[8] !== 'Z' && m[8] !== 'z') {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  // Stryker disable next-line ConditionalExpression,ArithmeticOperator,StringLiteral: sub-second precision: the profile fixes none (an Operator may keep whole seconds), so the suite reads instants to the second
  const fraction = m[7] === undefined ? 0 : Math.floor(Number(`0${m[7]}`) * 1000);
  // A leap second (:60) is read as the first instant of the next minute.
  const utcMs = Date.UTC(y, mo - 1, d, h, mi, s) - offsetMinutes * 60_000;
  // Stryker disable next-line ArithmeticOperator: sub-second precision (as above)
  return utcMs + fraction;
}

/**
 * Profile 4 message shapes. Each `parse*` method returns the typed message or throws an
 * {@link OperatorError}; the protected member checks are the seams a broken parser overrides.
 *
 * @example
 * ```ts
 * const request = new MessageParser().lockRequest(body); // throws OperatorError INVALID_REQUEST
 * ```
 */
export class MessageParser {
  /** Profile 1: a schema failure is 400 INVALID_REQUEST. */
  protected bad(message: string): OperatorError {
    return new OperatorError('INVALID_REQUEST', message);
  }

  /**
   * The value as an object with no members besides the allowed ones. A required member that is
   * missing is refused by the check of its value (every member has one), naming it.
   */
  // Stryker disable next-line ArrayDeclaration: reached only by unknown members, whose acceptance profile 4 leaves free (no additionalProperties in the message shapes)
  protected object(value: unknown, where: string, required: string[], optional: string[] = []): Obj {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.bad(`${where} must be a JSON object`);
    }
    const obj = value as Obj;
    const allowed = new Set([...required, ...optional]);
    // Stryker disable next-line BlockStatement: profile 4 and the message schemas set no additionalProperties: an Operator may ignore an unknown member
    for (const key of Object.keys(obj)) {
      // Stryker disable next-line ConditionalExpression,StringLiteral: profile 4 and the message schemas set no additionalProperties: an Operator may ignore an unknown member, so no check sends one expecting a refusal
      if (!allowed.has(key)) throw this.bad(`unknown member "${key}" in ${where}`);
    }
    return obj;
  }

  /**
   * A signed message: an object whose `signature` member is present. Profile 4: a missing
   * signature is 401 INVALID_SIGNATURE on issue, renew and redeem, never INVALID_REQUEST.
   */
  // Stryker disable next-line ArrayDeclaration: reached only by unknown members, whose acceptance profile 4 leaves free (no additionalProperties in the message shapes)
  protected signedObject(value: unknown, where: string, required: string[], optional: string[] = []): Obj {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('signature' in value)) {
      throw new OperatorError('INVALID_SIGNATURE', `${where} has no "signature" member: it must be signed`);
    }
    return this.object(value, where, [...required, 'signature'], optional);
  }

  /** A non-empty string member. */
  protected str(obj: Obj, key: string, where: string): string {
    const v = obj[key];
    if (typeof v !== 'string' || v.length === 0)
      throw this.bad(`"${key}" in ${where} must be a non-empty string`);
    return v;
  }

  /** Profile 1: identifiers are UUIDs. */
  protected uuid(obj: Obj, key: string, where: string): string {
    const v = this.str(obj, key, where);
    if (!UUID.test(v)) throw this.bad(`"${key}" in ${where} must be a UUID (profile 1)`);
    return v;
  }

  /** Profile 4: base64url of a raw 32-byte Ed25519 public key. */
  protected publicKey(obj: Obj, key: string, where: string): string {
    const v = obj[key];
    if (!isBase64url(v, 32)) {
      throw this.bad(
        `"${key}" in ${where} must be base64url (no padding) of a raw 32-byte Ed25519 key (profile 4)`,
      );
    }
    return v;
  }

  /** The `signature` member: a non-empty string (whether it verifies is the Operator's step). */
  protected signature(obj: Obj, where: string): string {
    const v = obj.signature;
    // Stryker disable next-line ConditionalExpression,BlockStatement: a signature of the wrong type cannot verify: profile 4 lets it be INVALID_REQUEST or INVALID_SIGNATURE (two conditions by nature; see the variant operator-variant-malformed-signature-401)
    if (typeof v !== 'string' || v.length === 0) {
      throw this.bad(`"signature" in ${where} must be a base64url Ed25519 signature`);
    }
    return v;
  }

  /** Profile 4: a chain digest is 64 lowercase hex digits. */
  protected digest(obj: Obj, key: string, where: string): string {
    const v = this.str(obj, key, where);
    // Stryker disable next-line ConditionalExpression: a malformed prev_chain_digest is never the pack's chain_digest: profile 4 lets it be INVALID_REQUEST or CHAIN_DIGEST_MISMATCH (two conditions by nature)
    if (!HEX64.test(v)) throw this.bad(`"${key}" in ${where} must be 64 lowercase hex digits (profile 4)`);
    return v;
  }

  /** Profile 1: an RFC 3339 timestamp with any offset. */
  protected timestamp(obj: Obj, key: string, where: string): string {
    const v = obj[key];
    if (parseRfc3339(v) === undefined) {
      throw this.bad(`"${key}" in ${where} must be an RFC 3339 timestamp such as 2026-01-31T12:00:00Z`);
    }
    return v as string;
  }

  /** Profile 1 amount: base-10 digits, no sign, no leading zero, 1 to 2^256 - 1. */
  protected amount(obj: Obj, key: string, where: string): string {
    const v = obj[key];
    const message = `"${key}" in ${where} must be a string of base-10 digits without sign or leading zero, from 1 to 2^256-1 (profile 1)`;
    if (typeof v !== 'string' || !AMOUNT.test(v)) throw this.bad(message);
    // Stryker disable next-line ConditionalExpression: an amount above 2^256 - 1 is also above max_amount (itself an amount): profile 4 lets it be INVALID_REQUEST or AMOUNT_EXCEEDS_LIMIT (two conditions by nature)
    if (BigInt(v) > MAX_AMOUNT) throw this.bad(message);
    return v;
  }

  /**
   * Spec CPR 2.3 AssetDescriptor: string members. Which types exist and which need a `chain_id`
   * is not checked here: the Operator accepts only an asset equal to one of its policy's assets
   * (`ReferenceOperator.checkAssetOffered`), and those are well-formed, so a malformed asset is
   * refused as not offered (INVALID_REQUEST either way).
   */
  protected asset(value: unknown, where: string): AssetDescriptor {
    // Stryker disable next-line ArrayDeclaration,StringLiteral: reached only by an asset with a chain_id, and the reference policy offers none (fiat EUR): such an asset is refused as not offered either way
    const optional = ['chain_id'];
    const obj = this.object(value, where, ['type', 'code'], optional);
    const type = this.str(obj, 'type', where) as AssetDescriptor['type'];
    const code = this.str(obj, 'code', where);
    if (obj.chain_id === undefined) return { type, code };
    // Stryker disable next-line StringLiteral: reached only by an asset with a chain_id, and the reference policy offers none (fiat EUR): such an asset is refused as not offered either way
    return { type, code, chain_id: this.str(obj, 'chain_id', where) };
  }

  /** Profile 4 redemption destination `{type: "account", reference: string}`. */
  protected destination(value: unknown, where: string): Destination {
    const o = this.object(value, where, ['type', 'reference']);
    if (o.type !== 'account') throw this.bad(`"type" in ${where} must be "account" (profile 4)`);
    return { type: 'account', reference: this.str(o, 'reference', where) };
  }

  /** Profile 4 LockRequest (issue body). */
  lockRequest(body: unknown): LockRequest {
    // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
    const w = 'the lock request';
    const o = this.signedObject(body, w, [
      'request_id',
      'principal_id',
      'amount',
      'asset',
      'initial_bearer_pk',
      'expires_at',
      'created_at',
    ]);
    return {
      request_id: this.uuid(o, 'request_id', w),
      principal_id: this.str(o, 'principal_id', w),
      amount: this.amount(o, 'amount', w),
      // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
      asset: this.asset(o.asset, `"asset" of ${w}`),
      initial_bearer_pk: this.publicKey(o, 'initial_bearer_pk', w),
      expires_at: this.timestamp(o, 'expires_at', w),
      created_at: this.timestamp(o, 'created_at', w),
      signature: this.signature(o, w),
    };
  }

  /** Profile 4 RenewalEntry. */
  renewalEntry(value: unknown): RenewalEntry {
    // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
    const w = '"renewal_entry"';
    const o = this.signedObject(value, w, [
      'renewal_id',
      'pack_id',
      'prev_chain_digest',
      'bearer_pk',
      'new_bearer_pk',
      'created_at',
    ]);
    return {
      renewal_id: this.uuid(o, 'renewal_id', w),
      pack_id: this.uuid(o, 'pack_id', w),
      prev_chain_digest: this.digest(o, 'prev_chain_digest', w),
      bearer_pk: this.publicKey(o, 'bearer_pk', w),
      new_bearer_pk: this.publicKey(o, 'new_bearer_pk', w),
      created_at: this.timestamp(o, 'created_at', w),
      signature: this.signature(o, w),
    };
  }

  /** Profile 4 RedemptionRequest; `redeemer` may be absent (then REDEEMER_NOT_IDENTIFIED later). */
  redemptionRequest(value: unknown): RedemptionRequest {
    // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
    const w = '"redemption_request"';
    const o = this.signedObject(
      value,
      w,
      ['redemption_id', 'pack_id', 'prev_chain_digest', 'bearer_pk', 'destination', 'created_at'],
      ['redeemer'],
    );
    const request: RedemptionRequest = {
      redemption_id: this.uuid(o, 'redemption_id', w),
      pack_id: this.uuid(o, 'pack_id', w),
      prev_chain_digest: this.digest(o, 'prev_chain_digest', w),
      bearer_pk: this.publicKey(o, 'bearer_pk', w),
      // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
      destination: this.destination(o.destination, `"destination" of ${w}`),
      created_at: this.timestamp(o, 'created_at', w),
      signature: this.signature(o, w),
    };
    if (o.redeemer !== undefined) {
      // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
      const rw = `"redeemer" of ${w}`;
      const r = this.object(o.redeemer, rw, ['identity_token']);
      request.redeemer = { identity_token: this.str(r, 'identity_token', rw) };
    }
    return request;
  }

  /**
   * A submitted cash-pack copy: only its shape is checked here (an object naming a pack);
   * whether it is genuine (signed at all, and by the Operator) is decided by the Operator's
   * signature check, 401 INVALID_SIGNATURE, and what it says is never trusted.
   */
  submittedPack(value: unknown): Obj & { pack_id: string } {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.bad('"cashpack" must be the cash-pack object as the operator returned it');
    }
    const o = value as Obj;
    // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
    this.uuid(o, 'pack_id', '"cashpack"');
    return o as Obj & { pack_id: string };
  }

  /** A body with exactly the given members (renew, redeem bodies). */
  envelope(body: unknown, where: string, members: string[]): Obj {
    return this.object(body, where, members);
  }

  /** A harness body `{pack_id}`. */
  packIdBody(body: unknown): string {
    // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
    const w = 'the harness request';
    return this.uuid(this.object(body, w, ['pack_id']), 'pack_id', w);
  }

  /** A harness clock body `{"advance_seconds": N}`: N a non-negative integer (never back). */
  clockAdvance(body: unknown): number {
    // Stryker disable next-line StringLiteral: only the label in an error message (wording is free: profile 1 normative is the code)
    const w = 'the clock request';
    const o = this.object(body, w, ['advance_seconds']);
    const n = o.advance_seconds;
    // Number.isSafeInteger is false for anything but a number
    if (!Number.isSafeInteger(n)) {
      throw this.bad('"advance_seconds" must be an integer number of seconds');
    }
    if ((n as number) < 0)
      throw this.bad('"advance_seconds" must not be negative: the clock never moves back');
    return n as number;
  }
}
