/**
 * The members of a CPR the rules read, each read once per validation: what `member(doc, name)`
 * of `util.ts` gives for each name (an own member's value, else undefined), plus the nested
 * objects several rules look into (`payee.rail_address`, `value.asset`, `value.amount`).
 *
 * @packageDocumentation
 */
import { isObject } from '../model/util.js';
import { documentMemo } from './memo.js';
import { instantOf, type Rfc3339Instant } from './rfc3339.js';
import { member } from './util.js';

/** Own members of a CPR document, as `member()` reads them (undefined when absent or not own). */
export interface CprView {
  request_id: unknown;
  created_at: unknown;
  expires_at: unknown;
  memo: unknown;
  extensions: unknown;
  rail_hint: unknown;
  payee: unknown;
  value: unknown;
  chain_id: unknown;
  receiver_address: unknown;
  contract_address: unknown;
  domain_separator: unknown;
  order_reference: unknown;
  acquirer_id: unknown;
  iban: unknown;
  bic: unknown;
  purpose_code: unknown;
  remittance_info: unknown;
  /**
   * The sub-interface members some rules read only on some paths: read on first use, through
   * {@link lateMember} ({@link UNREAD} until then), so that no member is read that the rules
   * would not have read.
   */
  beneficiary_name: unknown;
  account_number: unknown;
  key_type: unknown;
  key_value: unknown;
  /** The document (for {@link lateMember}). */
  doc: unknown;
  /** `member(payee, 'rail_address')`. */
  railAddress: unknown;
  /** `member(value, 'asset')`. */
  asset: unknown;
  /** `member(value, 'amount')`. */
  amount: unknown;
  /** `instantOf(created_at)` once {@link createdInstant} asked for it (undefined until then). */
  createdInstant: Readonly<Rfc3339Instant> | null | undefined;
  /** `instantOf(expires_at)` once {@link expiresInstant} asked for it (undefined until then). */
  expiresInstant: Readonly<Rfc3339Instant> | null | undefined;
}

const hasOwn = Object.prototype.hasOwnProperty;

/** A member of the view not read yet (see {@link lateMember}). */
const UNREAD: unique symbol = Symbol('unread');

/** The members of the view read on first use. */
export type LateMember = 'beneficiary_name' | 'account_number' | 'key_type' | 'key_value';

/**
 * `member(doc, name)` for a member the view reads on first use: read once, then remembered.
 *
 * @example
 * ```ts
 * lateMember(viewOf({ key_type: 'CPF' }), 'key_type'); // 'CPF'
 * ```
 */
export function lateMember(view: CprView, name: LateMember): unknown {
  const v = view[name];
  if (v !== UNREAD) return v;
  const doc = view.doc;
  const read = isObject(doc) && hasOwn.call(doc, name) ? doc[name] : undefined;
  view[name] = read;
  return read;
}

// Each member is read by its own expression (what `member(doc, name)` gives): a named read per
// member, rather than one shared keyed read, is the cheaper property access.
function buildView(doc: unknown): CprView {
  if (!isObject(doc)) {
    return {
      request_id: undefined,
      created_at: undefined,
      expires_at: undefined,
      memo: undefined,
      extensions: undefined,
      rail_hint: undefined,
      payee: undefined,
      value: undefined,
      chain_id: undefined,
      receiver_address: undefined,
      contract_address: undefined,
      domain_separator: undefined,
      order_reference: undefined,
      acquirer_id: undefined,
      iban: undefined,
      bic: undefined,
      purpose_code: undefined,
      remittance_info: undefined,
      beneficiary_name: undefined,
      account_number: undefined,
      key_type: undefined,
      key_value: undefined,
      doc,
      railAddress: undefined,
      asset: undefined,
      amount: undefined,
      createdInstant: undefined,
      expiresInstant: undefined,
    };
  }
  const payee = hasOwn.call(doc, 'payee') ? doc.payee : undefined;
  const value = hasOwn.call(doc, 'value') ? doc.value : undefined;
  return {
    request_id: hasOwn.call(doc, 'request_id') ? doc.request_id : undefined,
    created_at: hasOwn.call(doc, 'created_at') ? doc.created_at : undefined,
    expires_at: hasOwn.call(doc, 'expires_at') ? doc.expires_at : undefined,
    memo: hasOwn.call(doc, 'memo') ? doc.memo : undefined,
    extensions: hasOwn.call(doc, 'extensions') ? doc.extensions : undefined,
    rail_hint: hasOwn.call(doc, 'rail_hint') ? doc.rail_hint : undefined,
    payee,
    value,
    chain_id: hasOwn.call(doc, 'chain_id') ? doc.chain_id : undefined,
    receiver_address: hasOwn.call(doc, 'receiver_address') ? doc.receiver_address : undefined,
    contract_address: hasOwn.call(doc, 'contract_address') ? doc.contract_address : undefined,
    domain_separator: hasOwn.call(doc, 'domain_separator') ? doc.domain_separator : undefined,
    order_reference: hasOwn.call(doc, 'order_reference') ? doc.order_reference : undefined,
    acquirer_id: hasOwn.call(doc, 'acquirer_id') ? doc.acquirer_id : undefined,
    iban: hasOwn.call(doc, 'iban') ? doc.iban : undefined,
    bic: hasOwn.call(doc, 'bic') ? doc.bic : undefined,
    purpose_code: hasOwn.call(doc, 'purpose_code') ? doc.purpose_code : undefined,
    remittance_info: hasOwn.call(doc, 'remittance_info') ? doc.remittance_info : undefined,
    beneficiary_name: UNREAD,
    account_number: UNREAD,
    key_type: UNREAD,
    key_value: UNREAD,
    doc,
    railAddress: member(payee, 'rail_address'),
    asset: member(value, 'asset'),
    amount: member(value, 'amount'),
    createdInstant: undefined,
    expiresInstant: undefined,
  };
}

/**
 * The view of `doc`. Within one `validateCpr` call (see `memo.ts`) it is built once and shared
 * by every rule; otherwise it is built afresh.
 *
 * @example
 * ```ts
 * viewOf({ memo: 'x' }).memo; // 'x'
 * ```
 */
export function viewOf(doc: unknown): CprView {
  const memo = documentMemo;
  // (outside a validation memo.doc is undefined: a view kept for an undefined doc has every
  // member undefined, as a new one would, and the next validation clears it)
  if (doc === memo.doc) {
    memo.view ??= buildView(doc);
    return memo.view as CprView;
  }
  return buildView(doc);
}

/**
 * `instantOf(view.created_at)`, parsed once per view (the four timestamp rules share it).
 * `view.created_at` must be a string.
 *
 * @example
 * ```ts
 * createdInstant(viewOf({ created_at: '2026-01-01T00:00:00Z' }))?.zulu; // true
 * ```
 */
export function createdInstant(view: CprView): Readonly<Rfc3339Instant> | null {
  let t = view.createdInstant;
  if (t === undefined) {
    t = instantOf(view.created_at as string);
    view.createdInstant = t;
  }
  return t;
}

/**
 * `instantOf(view.expires_at)`, parsed once per view (see {@link createdInstant}).
 * `view.expires_at` must be a string.
 *
 * @example
 * ```ts
 * expiresInstant(viewOf({ expires_at: '2026-01-01T00:00:00Z' }))?.epochMs; // 1767225600000
 * ```
 */
export function expiresInstant(view: CprView): Readonly<Rfc3339Instant> | null {
  let t = view.expiresInstant;
  if (t === undefined) {
    t = instantOf(view.expires_at as string);
    view.expiresInstant = t;
  }
  return t;
}

/**
 * The validity window of the view's document, `expires_at - created_at` in ms, when both are
 * strings that read as RFC 3339 instants ({@link createdInstant}, {@link expiresInstant});
 * undefined otherwise (the timestamps rule reports those). The window rules share it.
 *
 * @example
 * ```ts
 * windowMs(viewOf({ created_at: '2026-01-01T00:00:00Z', expires_at: '2026-01-01T00:10:00Z' })); // 600000
 * ```
 */
export function windowMs(view: CprView): number | undefined {
  if (typeof view.created_at !== 'string' || typeof view.expires_at !== 'string') return undefined;
  const c = createdInstant(view);
  const e = expiresInstant(view);
  return c !== null && e !== null ? e.epochMs - c.epochMs : undefined;
}

/**
 * `member(doc, field)` for a top-level sub-interface field: a late member of the view is read
 * through it (once, on first use), any other from the document.
 *
 * @example
 * ```ts
 * topMember(viewOf({ iban: 'DE89370400440532013000' }), 'iban'); // 'DE89370400440532013000'
 * ```
 */
export function topMember(view: CprView, field: string): unknown {
  // the late members are read once through the view; every other member reads as it is
  if (
    field === 'beneficiary_name' ||
    field === 'account_number' ||
    field === 'key_type' ||
    field === 'key_value'
  ) {
    return lateMember(view, field);
  }
  return member(view.doc, field);
}
