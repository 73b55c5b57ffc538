/**
 * Rails and sub-interfaces of CPR-1.0 (spec 2.4-2.8) and which sub-interface applies to a
 * document (profile section 2).
 */

import {
  ALL_FIELDS,
  isRail,
  RAILS,
  type Rail,
  REQUIRED_FIELDS,
  SUB_INTERFACE_OF_HINT,
  SUB_INTERFACE_SECTION,
  type SubInterface,
} from '../../model/cpr.js';

/** Rails the reference wallet supports unless configured otherwise: all but `SWIFT`. */
export const DEFAULT_SUPPORTED_RAILS: readonly Rail[] = RAILS.filter((r) => r !== 'SWIFT');

/** Fields of one sub-interface: required and optional, and the rails it serves. */
export interface SubInterfaceFields {
  /** Spec section defining the sub-interface. */
  section: string;
  /** Fields the sub-interface requires (besides `rail_hint`). */
  required: readonly string[];
  /** Optional fields. */
  optional: readonly string[];
  /** Rails this sub-interface serves (profile section 2). */
  rails: readonly Rail[];
}

function fieldsOf(sub: SubInterface): SubInterfaceFields {
  const required = REQUIRED_FIELDS[sub].filter((f) => f !== 'rail_hint');
  return {
    section: SUB_INTERFACE_SECTION[sub],
    required,
    optional: ALL_FIELDS[sub].filter((f) => !required.includes(f)),
    rails: RAILS.filter((r) => SUB_INTERFACE_OF_HINT[r] === sub),
  };
}

/** Field lists of every sub-interface (spec 2.5-2.8; rails per profile section 2), from the validator's tables. */
export const SUB_INTERFACES: Readonly<Record<SubInterface, SubInterfaceFields>> = {
  onchain: fieldsOf('onchain'),
  iban: fieldsOf('iban'),
  account: fieldsOf('account'),
  'instant-key': fieldsOf('instant-key'),
};

/** The sub-interface a rail is served by (profile section 2). */
export function subInterfaceOfRail(rail: Rail): SubInterface {
  return SUB_INTERFACE_OF_HINT[rail];
}

/**
 * The sub-interface that applies to a CPR (profile section 2): named by a specific
 * `rail_hint`; with `OPEN`, no hint or an unrecognised hint, the one whose required address
 * field is present (`iban`, `account_number`, `key_type`; on-chain needs `rail_hint: ON_CHAIN`).
 * Returns `undefined` when none or more than one applies.
 *
 * @example
 * ```ts
 * subInterfaceOf({ rail_hint: 'OPEN', iban: 'DE89...' }); // 'iban'
 * ```
 */
export function subInterfaceOf(doc: Record<string, unknown>): SubInterface | undefined {
  const hint = doc.rail_hint;
  if (isRail(hint)) return subInterfaceOfRail(hint);
  const present: SubInterface[] = [];
  if ('iban' in doc) present.push('iban');
  if ('account_number' in doc) present.push('account');
  if ('key_type' in doc) present.push('instant-key');
  return present.length === 1 ? present[0] : undefined;
}

/**
 * Parses a comma-separated list of rails (`SEPA_CT,ACH`), as given to `--supported-rails`.
 * Throws an `Error` naming the bad entry and the allowed values.
 */
export function parseRailList(list: string): Rail[] {
  const rails: Rail[] = [];
  for (const raw of list.split(',')) {
    const name = raw.trim().toUpperCase();
    if (name === '') continue;
    if (!isRail(name)) {
      throw new Error(`"${raw.trim()}" is not a rail; use a comma-separated list of ${RAILS.join(', ')}`);
    }
    if (!rails.includes(name)) rails.push(name);
  }
  return rails;
}
