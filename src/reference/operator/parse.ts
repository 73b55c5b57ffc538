/**
 * Structural checks of request bodies (profile sections 1 and 4). A body that fails becomes
 * 400 INVALID_REQUEST naming the member, except a signed message without its `signature` member,
 * which is 401 INVALID_SIGNATURE (profile 4). Unknown members are ignored (the profile and the
 * message shapes do not refuse them): a message is read as its known members only, so its
 * signature is verified over those, and a renewal entry enters the cash-pack as read.
 *
 * Labels in error messages are the member names the parser reads (or {@link BODY} for a request
 * body itself), so that no literal exists only for the wording of a message.
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

/** How error messages name a request body itself (its members are named by their keys). */
// Stryker disable next-line StringLiteral: only the label in error messages (wording is free: profile 1 normative is the code)
const BODY = 'the request body';
// Members read by key, the key also naming them in error messages.
const ASSET = 'asset';
const DESTINATION = 'destination';
const REDEEMER = 'redeemer';
const CASHPACK = 'cashpack';

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
   * The value as a JSON object. Members it does not know are ignored; a required member that is
   * missing is refused by the check of its value (every member has one), naming it.
   */
  protected object(value: unknown, where: string): Obj {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.bad(`${where} must be a JSON object`);
    }
    return value as Obj;
  }

  /**
   * A signed message: an object whose `signature` member is present. Profile 4: a missing
   * signature is 401 INVALID_SIGNATURE on issue, renew and redeem, never INVALID_REQUEST.
   */
  protected signedObject(value: unknown, where: string): Obj {
    if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('signature' in value)) {
      throw new OperatorError('INVALID_SIGNATURE', `${where} has no "signature" member: it must be signed`);
    }
    return this.object(value, where);
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
   * Spec CPR 2.3 AssetDescriptor, member `key` of `obj`: string members. Which types exist and
   * which need a `chain_id` is not checked here: the Operator accepts only an asset equal to one
   * of its policy's assets (`ReferenceOperator.checkAssetOffered`), and those are well-formed, so
   * a malformed asset is refused as not offered (INVALID_REQUEST either way).
   */
  protected asset(obj: Obj, key: string): AssetDescriptor {
    const a = this.object(obj[key], key);
    const type = this.str(a, 'type', key) as AssetDescriptor['type'];
    const code = this.str(a, 'code', key);
    if (a.chain_id === undefined) return { type, code };
    // Stryker disable next-line StringLiteral: reached only by an asset with a chain_id, and the reference policy offers none (fiat EUR): such an asset is refused as not offered either way
    return { type, code, chain_id: this.str(a, 'chain_id', key) };
  }

  /** Profile 4 redemption destination `{type: "account", reference: string}`, member `key` of `obj`. */
  protected destination(obj: Obj, key: string): Destination {
    const d = this.object(obj[key], key);
    if (d.type !== 'account') throw this.bad(`"type" in ${key} must be "account" (profile 4)`);
    return { type: 'account', reference: this.str(d, 'reference', key) };
  }

  /** Profile 4 LockRequest (issue body). */
  lockRequest(body: unknown): LockRequest {
    const o = this.signedObject(body, BODY);
    return {
      request_id: this.uuid(o, 'request_id', BODY),
      principal_id: this.str(o, 'principal_id', BODY),
      amount: this.amount(o, 'amount', BODY),
      asset: this.asset(o, ASSET),
      initial_bearer_pk: this.publicKey(o, 'initial_bearer_pk', BODY),
      expires_at: this.timestamp(o, 'expires_at', BODY),
      created_at: this.timestamp(o, 'created_at', BODY),
      signature: this.signature(o, BODY),
    };
  }

  /** Profile 4 RenewalEntry, member `key` of a renew body. */
  renewalEntry(body: Obj, key: string): RenewalEntry {
    const o = this.signedObject(body[key], key);
    return {
      renewal_id: this.uuid(o, 'renewal_id', key),
      pack_id: this.uuid(o, 'pack_id', key),
      prev_chain_digest: this.digest(o, 'prev_chain_digest', key),
      bearer_pk: this.publicKey(o, 'bearer_pk', key),
      new_bearer_pk: this.publicKey(o, 'new_bearer_pk', key),
      created_at: this.timestamp(o, 'created_at', key),
      signature: this.signature(o, key),
    };
  }

  /**
   * Profile 4 RedemptionRequest, member `key` of a redeem body; `redeemer` may be absent (then
   * REDEEMER_NOT_IDENTIFIED later).
   */
  redemptionRequest(body: Obj, key: string): RedemptionRequest {
    const o = this.signedObject(body[key], key);
    const request: RedemptionRequest = {
      redemption_id: this.uuid(o, 'redemption_id', key),
      pack_id: this.uuid(o, 'pack_id', key),
      prev_chain_digest: this.digest(o, 'prev_chain_digest', key),
      bearer_pk: this.publicKey(o, 'bearer_pk', key),
      destination: this.destination(o, DESTINATION),
      created_at: this.timestamp(o, 'created_at', key),
      signature: this.signature(o, key),
    };
    if (o[REDEEMER] !== undefined) {
      const r = this.object(o[REDEEMER], REDEEMER);
      request.redeemer = { identity_token: this.str(r, 'identity_token', REDEEMER) };
    }
    return request;
  }

  /**
   * A submitted cash-pack copy (member `cashpack` of a renew or redeem body): only its shape is
   * checked here (an object naming a pack); whether it is genuine (signed at all, and by the
   * Operator) is decided by the Operator's signature check, 401 INVALID_SIGNATURE, and what it
   * says is never trusted.
   */
  submittedPack(body: Obj): Obj & { pack_id: string } {
    const value = body[CASHPACK];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      throw this.bad('"cashpack" must be the cash-pack object as the operator returned it');
    }
    const o = value as Obj;
    this.uuid(o, 'pack_id', CASHPACK);
    return o as Obj & { pack_id: string };
  }

  /** A renew or redeem body: a JSON object (its members are read by the methods above). */
  envelope(body: unknown): Obj {
    return this.object(body, BODY);
  }

  /** A harness body `{pack_id}`. */
  packIdBody(body: unknown): string {
    return this.uuid(this.object(body, BODY), 'pack_id', BODY);
  }

  /**
   * A harness balance body `{principal_id, available_balance}` (profile 4, optional capability):
   * a non-empty principal id and a balance of base-10 digits without sign or leading zero, "0"
   * (a balance holding nothing) up to 2^256 - 1.
   */
  balanceBody(body: unknown): { principal_id: string; available_balance: bigint } {
    const o = this.object(body, BODY);
    const principal_id = this.str(o, 'principal_id', BODY);
    const v = o.available_balance;
    if (typeof v !== 'string' || !(v === '0' || AMOUNT.test(v)) || BigInt(v) > MAX_AMOUNT) {
      throw this.bad(
        '"available_balance" must be a string of base-10 digits without sign or leading zero, at most 2^256 - 1 (profile 1 amounts)',
      );
    }
    return { principal_id, available_balance: BigInt(v) };
  }

  /** A harness clock body `{"advance_seconds": N}`: N a non-negative integer (never back). */
  clockAdvance(body: unknown): number {
    const o = this.object(body, BODY);
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
