/**
 * Structural checks of request bodies (profile sections 1 and 4). A body that fails becomes
 * 400 INVALID_REQUEST naming the member; unknown members are refused because every member is
 * signed and renewal entries are carried verbatim into the cash-pack.
 * @packageDocumentation
 */
import { isBase64url } from '../../crypto/base64url.js';
import { OperatorError } from './errors.js';
import type { AssetDescriptor, Destination, LockRequest, RedemptionRequest, RenewalEntry } from './types.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AMOUNT = /^[1-9][0-9]*$/;
const MAX_AMOUNT = (1n << 256n) - 1n;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const HEX64 = /^[0-9a-f]{64}$/;
const ASSET_TYPES = new Set(['fiat', 'stablecoin', 'crypto', 'tokenized']);

type Obj = Record<string, unknown>;

function bad(message: string): OperatorError {
  return new OperatorError('INVALID_REQUEST', message);
}

/** The body as an object with exactly the allowed members, the required ones present. */
function object(value: unknown, where: string, required: string[], optional: string[] = []): Obj {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw bad(`${where} must be a JSON object`);
  }
  const obj = value as Obj;
  for (const key of required) {
    if (!(key in obj)) throw bad(`missing required "${key}" member in ${where}`);
  }
  const allowed = new Set([...required, ...optional]);
  for (const key of Object.keys(obj)) {
    if (!allowed.has(key)) throw bad(`unknown member "${key}" in ${where}`);
  }
  return obj;
}

function str(obj: Obj, key: string, where: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || v.length === 0) throw bad(`"${key}" in ${where} must be a non-empty string`);
  return v;
}

function uuid(obj: Obj, key: string, where: string): string {
  const v = str(obj, key, where);
  if (!UUID.test(v)) throw bad(`"${key}" in ${where} must be a UUID (profile 1)`);
  return v;
}

function publicKey(obj: Obj, key: string, where: string): string {
  const v = obj[key];
  if (!isBase64url(v, 32)) {
    throw bad(`"${key}" in ${where} must be base64url (no padding) of a raw 32-byte Ed25519 key (profile 4)`);
  }
  return v;
}

function signature(obj: Obj, where: string): string {
  const v = obj.signature;
  if (typeof v !== 'string' || v.length === 0) {
    throw bad(`"signature" in ${where} must be a base64url Ed25519 signature`);
  }
  return v;
}

function digest(obj: Obj, key: string, where: string): string {
  const v = str(obj, key, where);
  if (!HEX64.test(v)) throw bad(`"${key}" in ${where} must be 64 lowercase hex digits (profile 4)`);
  return v;
}

/**
 * Milliseconds since the epoch of an RFC 3339 timestamp, or `undefined` when the text is not one
 * (profile 1: any offset is read correctly; impossible dates such as February 30 are refused).
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
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  if (mo === undefined || d === undefined || h === undefined || mi === undefined || s === undefined)
    return undefined;
  if (mo < 1 || mo > 12 || h > 23 || mi > 59 || s > 60) return undefined;
  const daysInMonth = new Date(Date.UTC(y ?? 0, mo, 0)).getUTCDate();
  if (d < 1 || d > daysInMonth) return undefined;
  const ms = Date.parse(text.toUpperCase());
  return Number.isNaN(ms) ? undefined : ms;
}

function timestamp(obj: Obj, key: string, where: string): string {
  const v = obj[key];
  if (parseRfc3339(v) === undefined) throw bad(`"${key}" in ${where} must be an RFC 3339 timestamp`);
  return v as string;
}

/** Profile 1 amount: base-10 digits, no sign, no leading zero, 1 to 2^256 - 1. */
function amount(obj: Obj, key: string, where: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || !AMOUNT.test(v) || BigInt(v) > MAX_AMOUNT) {
    throw bad(
      `"${key}" in ${where} must be a string of base-10 digits without sign or leading zero, from 1 to 2^256-1 (profile 1)`,
    );
  }
  return v;
}

/** Spec CPR 2.3 AssetDescriptor. */
function asset(value: unknown, where: string): AssetDescriptor {
  const obj = object(value, where, ['type', 'code'], ['chain_id']);
  if (typeof obj.type !== 'string' || !ASSET_TYPES.has(obj.type)) {
    throw bad(`"type" in ${where} must be one of fiat, stablecoin, crypto, tokenized`);
  }
  const code = str(obj, 'code', where);
  const needsChain = obj.type === 'stablecoin' || obj.type === 'tokenized';
  if (needsChain || obj.chain_id !== undefined) {
    const chainId = str(obj, 'chain_id', where);
    return { type: obj.type as AssetDescriptor['type'], code, chain_id: chainId };
  }
  return { type: obj.type as AssetDescriptor['type'], code };
}

/** Profile 4 LockRequest (issue body). */
export function parseLockRequest(body: unknown): LockRequest {
  const w = 'the lock request';
  const o = object(body, w, [
    'request_id',
    'principal_id',
    'amount',
    'asset',
    'initial_bearer_pk',
    'expires_at',
    'created_at',
    'signature',
  ]);
  return {
    request_id: uuid(o, 'request_id', w),
    principal_id: str(o, 'principal_id', w),
    amount: amount(o, 'amount', w),
    asset: asset(o.asset, `"asset" of ${w}`),
    initial_bearer_pk: publicKey(o, 'initial_bearer_pk', w),
    expires_at: timestamp(o, 'expires_at', w),
    created_at: timestamp(o, 'created_at', w),
    signature: signature(o, w),
  };
}

/** Profile 4 RenewalEntry. */
export function parseRenewalEntry(value: unknown): RenewalEntry {
  const w = '"renewal_entry"';
  const o = object(value, w, [
    'renewal_id',
    'pack_id',
    'prev_chain_digest',
    'bearer_pk',
    'new_bearer_pk',
    'created_at',
    'signature',
  ]);
  return {
    renewal_id: uuid(o, 'renewal_id', w),
    pack_id: uuid(o, 'pack_id', w),
    prev_chain_digest: digest(o, 'prev_chain_digest', w),
    bearer_pk: publicKey(o, 'bearer_pk', w),
    new_bearer_pk: publicKey(o, 'new_bearer_pk', w),
    created_at: timestamp(o, 'created_at', w),
    signature: signature(o, w),
  };
}

function destination(value: unknown, where: string): Destination {
  const o = object(value, where, ['type', 'reference']);
  if (o.type !== 'account') throw bad(`"type" in ${where} must be "account" (profile 4)`);
  return { type: 'account', reference: str(o, 'reference', where) };
}

/** Profile 4 RedemptionRequest; `redeemer` may be absent (then REDEEMER_NOT_IDENTIFIED later). */
export function parseRedemptionRequest(value: unknown): RedemptionRequest {
  const w = '"redemption_request"';
  const o = object(
    value,
    w,
    ['redemption_id', 'pack_id', 'prev_chain_digest', 'bearer_pk', 'destination', 'created_at', 'signature'],
    ['redeemer'],
  );
  const request: RedemptionRequest = {
    redemption_id: uuid(o, 'redemption_id', w),
    pack_id: uuid(o, 'pack_id', w),
    prev_chain_digest: digest(o, 'prev_chain_digest', w),
    bearer_pk: publicKey(o, 'bearer_pk', w),
    destination: destination(o.destination, `"destination" of ${w}`),
    created_at: timestamp(o, 'created_at', w),
    signature: signature(o, w),
  };
  if (o.redeemer !== undefined) {
    const r = object(o.redeemer, `"redeemer" of ${w}`, ['identity_token']);
    request.redeemer = { identity_token: str(r, 'identity_token', `"redeemer" of ${w}`) };
  }
  return request;
}

/**
 * A submitted cash-pack copy: only its shape is checked here (an object naming a pack); whether
 * it is genuine is decided by the Operator's signature check, and what it says is never trusted.
 */
export function parseSubmittedPack(value: unknown): Obj & { pack_id: string } {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw bad('"cashpack" must be the cash-pack object as the operator returned it');
  }
  const o = value as Obj;
  uuid(o, 'pack_id', '"cashpack"');
  return o as Obj & { pack_id: string };
}

/** A body with exactly the given object members (renew, redeem, harness bodies). */
export function parseEnvelope(body: unknown, where: string, members: string[]): Obj {
  return object(body, where, members);
}

/** A harness body `{pack_id}`. */
export function parsePackIdBody(body: unknown): string {
  const o = object(body, 'the harness request', ['pack_id']);
  return uuid(o, 'pack_id', 'the harness request');
}
