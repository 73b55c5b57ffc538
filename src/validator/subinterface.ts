/**
 * Which CPR sub-interface applies to a document (CPR-1.0 2.4-2.8, profile section 2).
 *
 * @packageDocumentation
 */
import { isObject } from './util.js';

/** The four sub-interfaces of CPR-1.0 sections 2.5-2.8. */
export type SubInterface = 'onchain' | 'iban' | 'account' | 'instant-key';

/** The eight rail_hint values of CPR-1.0 section 2.4. */
export const RAIL_HINTS = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI', 'SWIFT', 'OPEN'] as const;

/** One of the eight rail_hint values. */
export type RailHint = (typeof RAIL_HINTS)[number];

/** The sub-interface each named rail_hint selects (profile section 2); OPEN selects none by name. */
export const SUB_INTERFACE_OF_HINT: Readonly<Record<Exclude<RailHint, 'OPEN'>, SubInterface>> = {
  ON_CHAIN: 'onchain',
  SEPA_CT: 'iban',
  SEPA_INST: 'iban',
  SWIFT: 'iban',
  ACH: 'account',
  PIX: 'instant-key',
  UPI: 'instant-key',
};

/** Required top-level fields of each sub-interface (CPR-1.0 2.5-2.8). */
export const REQUIRED_FIELDS: Readonly<Record<SubInterface, readonly string[]>> = {
  onchain: ['rail_hint', 'chain_id', 'receiver_address'],
  iban: ['iban', 'beneficiary_name'],
  account: ['account_number', 'beneficiary_name'],
  'instant-key': ['key_type', 'key_value'],
};

/** Every top-level field of each sub-interface (CPR-1.0 2.5-2.8). */
export const ALL_FIELDS: Readonly<Record<SubInterface, readonly string[]>> = {
  onchain: [
    'chain_id',
    'receiver_address',
    'domain_separator',
    'order_reference',
    'acquirer_id',
    'contract_address',
  ],
  iban: ['iban', 'bic', 'beneficiary_name', 'remittance_info', 'end_to_end_id', 'purpose_code'],
  account: [
    'account_number',
    'routing_code',
    'routing_code_type',
    'bank_name',
    'beneficiary_name',
    'remittance_info',
    'end_to_end_id',
  ],
  'instant-key': ['key_type', 'key_value', 'beneficiary_name', 'txid'],
};

/** Address fields `payee.rail_address` carries for each sub-interface (CPR-1.0 2.2, 2.5, 2.6, 2.8). */
export const ADDRESS_FIELDS: Readonly<Record<SubInterface, readonly string[]>> = {
  onchain: ['receiver_address', 'chain_id'],
  iban: ['iban', 'bic'],
  account: ['account_number', 'routing_code', 'routing_code_type'],
  'instant-key': ['key_type', 'key_value'],
};

/** The requirement ID of each sub-interface's field list. */
export const FIELDS_REQUIREMENT: Readonly<Record<SubInterface, string>> = {
  onchain: 'CPR-2.5-ONCHAIN-FIELDS',
  iban: 'CPR-2.6-IBAN-FIELDS',
  account: 'CPR-2.7-ACCOUNT-FIELDS',
  'instant-key': 'CPR-2.8-INSTANT-KEY-FIELDS',
};

/** True when every required field of `sub` is present (any value) at the top level of `doc`. */
export function isComplete(doc: Record<string, unknown>, sub: SubInterface): boolean {
  return REQUIRED_FIELDS[sub].every((f) => Object.hasOwn(doc, f) && doc[f] !== undefined && doc[f] !== null);
}

/** Result of {@link selectSubInterface}. */
export type Selection =
  /** rail_hint names a sub-interface. */
  | { kind: 'named'; hint: string; sub: SubInterface }
  /** OPEN or no rail_hint: the complete sub-interfaces among IBAN, account, instant-key. */
  | { kind: 'open'; complete: SubInterface[] }
  /** rail_hint is not one of the eight values (or not a string): no sub-interface applies. */
  | { kind: 'unknown'; hint: unknown };

/**
 * The sub-interface selection of profile section 2: a named rail_hint selects its
 * sub-interface; with OPEN or no rail_hint the candidates are the complete IBAN, account and
 * instant-key sub-interfaces (on-chain needs `rail_hint: ON_CHAIN`, spec 2.5).
 *
 * @example
 * ```ts
 * selectSubInterface({ rail_hint: 'PIX' }); // { kind: 'named', hint: 'PIX', sub: 'instant-key' }
 * ```
 */
export function selectSubInterface(doc: unknown): Selection {
  const hint = isObject(doc) && Object.hasOwn(doc, 'rail_hint') ? doc.rail_hint : undefined;
  if (hint === undefined || hint === 'OPEN') {
    const complete = isObject(doc)
      ? (['iban', 'account', 'instant-key'] as const).filter((s) => isComplete(doc, s))
      : [];
    return { kind: 'open', complete: [...complete] };
  }
  if (typeof hint === 'string' && Object.hasOwn(SUB_INTERFACE_OF_HINT, hint)) {
    return { kind: 'named', hint, sub: SUB_INTERFACE_OF_HINT[hint as Exclude<RailHint, 'OPEN'>] };
  }
  return { kind: 'unknown', hint };
}

/**
 * The single sub-interface that applies, or null (unknown rail_hint, or OPEN with zero or two
 * complete sub-interfaces).
 */
export function appliedSubInterface(doc: unknown): SubInterface | null {
  const sel = selectSubInterface(doc);
  if (sel.kind === 'named') return sel.sub;
  if (sel.kind === 'open' && sel.complete.length === 1) return sel.complete[0] ?? null;
  return null;
}
