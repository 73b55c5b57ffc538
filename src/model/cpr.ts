/**
 * The CPR vocabulary, spelt once: rail hints and rails (CPR-1.0 2.4), the four sub-interfaces
 * (2.5-2.8) and their field tables, and which sub-interface a rail_hint selects (profile
 * section 2). The validator, the derivation and the suites all read these tables.
 *
 * @packageDocumentation
 */

/** The eight rail_hint values of CPR-1.0 section 2.4. */
export const RAIL_HINTS = ['ON_CHAIN', 'SEPA_CT', 'SEPA_INST', 'ACH', 'PIX', 'UPI', 'SWIFT', 'OPEN'] as const;

/** One of the eight rail_hint values. */
export type RailHint = (typeof RAIL_HINTS)[number];

/** A rail a wallet can execute on: every RailHint but `OPEN` (which means "no preference"). */
export type Rail = Exclude<RailHint, 'OPEN'>;

/** Every executable rail (spec 2.4 without `OPEN`). */
export const RAILS: readonly Rail[] = RAIL_HINTS.filter((h): h is Rail => h !== 'OPEN');

/** The four sub-interfaces of CPR-1.0 sections 2.5-2.8 (one spelling everywhere). */
export type SubInterface = 'onchain' | 'iban' | 'account' | 'instant-key';

/** Every sub-interface, in spec order. */
export const SUB_INTERFACE_NAMES: readonly SubInterface[] = ['onchain', 'iban', 'account', 'instant-key'];

/** The sub-interface each named rail_hint selects (profile section 2); OPEN selects none by name. */
export const SUB_INTERFACE_OF_HINT: Readonly<Record<Rail, SubInterface>> = {
  ON_CHAIN: 'onchain',
  SEPA_CT: 'iban',
  SEPA_INST: 'iban',
  SWIFT: 'iban',
  ACH: 'account',
  PIX: 'instant-key',
  UPI: 'instant-key',
};

/** Spec section defining each sub-interface. */
export const SUB_INTERFACE_SECTION: Readonly<Record<SubInterface, string>> = {
  onchain: '2.5',
  iban: '2.6',
  account: '2.7',
  'instant-key': '2.8',
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

/**
 * Member names of the CPR outside the sub-interfaces, by where they sit: the base document (spec
 * 2.1), the payee descriptor (2.2), the requested value (2.3) and its asset descriptor.
 */
export const BASE_FIELDS = [
  'cpr_version',
  'request_id',
  'created_at',
  'expires_at',
  'payee',
  'value',
  'memo',
  'rail_hint',
  'extensions',
] as const;
/** Members of the payee descriptor (spec 2.2). */
export const PAYEE_FIELDS = ['display_name', 'rail_address'] as const;
/** Members of the requested value (spec 2.3). */
export const VALUE_FIELDS = ['amount', 'asset'] as const;
/** Members of the asset descriptor (spec 2.3). */
export const ASSET_FIELDS = ['type', 'code'] as const;

/** Every sub-interface field name (spec 2.5-2.8), each once, in spec order. */
export const SUB_INTERFACE_FIELD_NAMES: readonly string[] = [
  ...new Set(SUB_INTERFACE_NAMES.flatMap((s) => ALL_FIELDS[s])),
];

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

/** True when `value` is one of the RailHint values of spec 2.4. */
export function isRailHint(value: unknown): value is RailHint {
  return typeof value === 'string' && (RAIL_HINTS as readonly string[]).includes(value);
}

/** True when `value` names an executable rail (a RailHint other than `OPEN`). */
export function isRail(value: unknown): value is Rail {
  return isRailHint(value) && value !== 'OPEN';
}
