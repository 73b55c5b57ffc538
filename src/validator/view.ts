/**
 * The members of a CPR the rules read, each read once per validation: what `member(doc, name)`
 * of `util.ts` gives for each name (an own member's value, else undefined), plus the nested
 * objects several rules look into (`payee.rail_address`, `value.asset`, `value.amount`).
 *
 * @packageDocumentation
 */
import { isObject } from '../model/util.js';
import { documentMemo } from './memo.js';
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
  /** `member(payee, 'rail_address')`. */
  railAddress: unknown;
  /** `member(value, 'asset')`. */
  asset: unknown;
  /** `member(value, 'amount')`. */
  amount: unknown;
}

const hasOwn = Object.prototype.hasOwnProperty;

function own(doc: Record<string, unknown>, key: string): unknown {
  return hasOwn.call(doc, key) ? doc[key] : undefined;
}

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
      railAddress: undefined,
      asset: undefined,
      amount: undefined,
    };
  }
  const payee = own(doc, 'payee');
  const value = own(doc, 'value');
  return {
    request_id: own(doc, 'request_id'),
    created_at: own(doc, 'created_at'),
    expires_at: own(doc, 'expires_at'),
    memo: own(doc, 'memo'),
    extensions: own(doc, 'extensions'),
    rail_hint: own(doc, 'rail_hint'),
    payee,
    value,
    chain_id: own(doc, 'chain_id'),
    receiver_address: own(doc, 'receiver_address'),
    contract_address: own(doc, 'contract_address'),
    domain_separator: own(doc, 'domain_separator'),
    order_reference: own(doc, 'order_reference'),
    acquirer_id: own(doc, 'acquirer_id'),
    iban: own(doc, 'iban'),
    bic: own(doc, 'bic'),
    purpose_code: own(doc, 'purpose_code'),
    remittance_info: own(doc, 'remittance_info'),
    railAddress: member(payee, 'rail_address'),
    asset: member(value, 'asset'),
    amount: member(value, 'amount'),
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
  if (doc === memo.doc && doc !== undefined) {
    memo.view ??= buildView(doc);
    return memo.view as CprView;
  }
  return buildView(doc);
}
