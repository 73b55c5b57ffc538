/**
 * Turns ajv errors of the CPR schemas into findings, each with a specific requirement ID chosen
 * by the failing member's path (the same IDs the schemas' `x-requirement` annotations name).
 *
 * @packageDocumentation
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { SubInterface } from '../model/cpr.js';
import { type Finding, finding } from '../model/finding.js';
import { appliedSubInterface } from './subinterface.js';
import { member, pointer, pointerSegments } from './util.js';

/** Requirement of a missing required base member (CPR-1.0 2.1). */
const BASE_REQUIRED: Readonly<Record<string, string>> = {
  cpr_version: 'CPR-2.1-REQUIRED-FIELDS',
  request_id: 'CPR-2.1-REQUIRED-FIELDS',
  created_at: 'CPR-2.1-REQUIRED-FIELDS',
  expires_at: 'CPR-2.1-REQUIRED-FIELDS',
  payee: 'CPR-2.1-REQUIRED-FIELDS',
  value: 'CPR-2.1-REQUIRED-FIELDS',
};

/** Requirement of each top-level member whose value a schema keyword rejected. */
const TOP_LEVEL: Readonly<Record<string, string>> = {
  cpr_version: 'CPR-2.1-VERSION',
  request_id: 'PRF-1-IDENTIFIER-UUID',
  created_at: 'CPR-2.1-TIMESTAMPS-UTC',
  expires_at: 'CPR-2.1-TIMESTAMPS-UTC',
  memo: 'CPR-2.1-MEMO-LENGTH',
  // a map of any proprietary or future fields (CPR-2.1-EXTENSIONS-MAP): only its type is checked
  extensions: 'CPR-2.1-FIELD-TYPES',
  rail_hint: 'CPR-2.4-RAIL-HINT-ENUM',
  payee: 'CPR-2.1-FIELD-TYPES',
  value: 'CPR-2.1-FIELD-TYPES',
  chain_id: 'CPR-2.5-CHAIN-ID',
  receiver_address: 'CPR-2.5-RECEIVER-ADDRESS',
  domain_separator: 'CPR-2.5-DOMAIN-SEPARATOR',
  order_reference: 'CPR-2.5-ORDER-REFERENCE',
  acquirer_id: 'CPR-2.5-ACQUIRER-ID',
  contract_address: 'CPR-2.5-CONTRACT-ADDRESS',
  iban: 'CPR-2.6-IBAN-VALID',
  bic: 'CPR-2.6-BIC-VALID',
  purpose_code: 'CPR-2.6-PURPOSE-CODE',
  account_number: 'CPR-2.7-ACCOUNT-NUMBER',
  routing_code: 'CPR-2.7-ROUTING-FIELDS',
  routing_code_type: 'CPR-2.7-ROUTING-FIELDS',
  bank_name: 'CPR-2.7-OPTIONAL-FIELD-TYPES',
  key_type: 'CPR-2.8-KEY-TYPE',
  key_value: 'CPR-2.8-KEY-VALUE',
  txid: 'CPR-2.8-OPTIONAL-FIELD-TYPES',
};

/** Requirement of the members several sub-interfaces share, per applied sub-interface. */
const SHARED: Readonly<Record<string, Readonly<Record<SubInterface, string>>>> = {
  beneficiary_name: {
    onchain: 'CPR-2.6-BENEFICIARY-NAME',
    iban: 'CPR-2.6-BENEFICIARY-NAME',
    account: 'CPR-2.7-ACCOUNT-FIELDS',
    'instant-key': 'CPR-2.8-OPTIONAL-FIELD-TYPES',
  },
  end_to_end_id: {
    onchain: 'CPR-2.6-END-TO-END-ID',
    iban: 'CPR-2.6-END-TO-END-ID',
    account: 'CPR-2.7-OPTIONAL-FIELD-TYPES',
    'instant-key': 'CPR-2.6-END-TO-END-ID',
  },
  remittance_info: {
    onchain: 'CPR-2.6-REMITTANCE-LENGTH',
    iban: 'CPR-2.6-REMITTANCE-LENGTH',
    account: 'CPR-2.7-REMITTANCE-LENGTH',
    'instant-key': 'CPR-2.6-REMITTANCE-LENGTH',
  },
};

/** Requirement of the members of value.asset. */
const ASSET: Readonly<Record<string, string>> = {
  type: 'CPR-2.3-ASSET-TYPE',
  code: 'CPR-2.3-ASSET-CODE-ISO4217',
  chain_id: 'CPR-2.3-CHAIN-ID-REQUIRED',
};

/** Requirement of a document no schema keyword below the root explains (spec 4.3 rule 3). */
const REQ_STRUCTURE = 'CPR-4.3-VALIDATE-BEFORE-PROCESSING';
/** Requirement of a value member that is not a RequestedValue (spec 2.1 field types). */
const REQ_FIELD_TYPES = 'CPR-2.1-FIELD-TYPES';
/** Requirement of a missing value.asset, asset.type or asset.code (spec 2.3). */
const REQ_ASSET_REQUIRED = 'CPR-2.3-ASSET-REQUIRED';
/** Requirement of value.amount (profile 1). */
const REQ_AMOUNT = 'PRF-1-AMOUNT-FORMAT';
/** Requirement of an asset member with no entry in {@link ASSET}. */
const REQ_ASSET_TYPE = 'CPR-2.3-ASSET-TYPE';
/** Requirements of payee.display_name and of the rest of the payee descriptor (spec 2.2). */
const REQ_DISPLAY_NAME = 'CPR-2.2-DISPLAY-NAME';
const REQ_RAIL_ADDRESS = 'CPR-2.2-RAIL-ADDRESS';
/** Requirements of created_at / expires_at: the profile's `Z` form, and RFC 3339 UTC (spec 2.1). */
const REQ_TIMESTAMP_Z = 'PRF-1-TIMESTAMP-Z';
const REQ_TIMESTAMPS_UTC = 'CPR-2.1-TIMESTAMPS-UTC';
/** Requirement of the fallback finding (profile 2, sub-interface selection). */
const REQ_SELECTION = 'PRF-2-SUB-INTERFACE-SELECTION';

/**
 * Every requirement ID a schema finding of {@link cprSchemaFindings} or
 * {@link schemaFallbackFinding} can carry, sorted.
 */
export const SCHEMA_FINDING_REQUIREMENTS: readonly string[] = [
  ...new Set([
    ...Object.values(BASE_REQUIRED),
    ...Object.values(TOP_LEVEL),
    ...Object.values(SHARED).flatMap((bySub) => Object.values(bySub)),
    ...Object.values(ASSET),
    REQ_STRUCTURE,
    REQ_FIELD_TYPES,
    REQ_ASSET_REQUIRED,
    REQ_AMOUNT,
    REQ_ASSET_TYPE,
    REQ_DISPLAY_NAME,
    REQ_RAIL_ADDRESS,
    REQ_TIMESTAMP_Z,
    REQ_TIMESTAMPS_UTC,
    REQ_SELECTION,
  ]),
].sort();

/** The ajv message rewritten to name the member (conventions: lower case, names the member). */
function messageFor(e: ErrorObject, path: string[]): string {
  const name = path.length === 0 ? 'the document' : path.join('.');
  switch (e.keyword) {
    case 'required':
      return `${[...path, String(e.params.missingProperty)].join('.')} is missing`;
    case 'const':
      return `${name} must equal ${JSON.stringify(e.params.allowedValue)}`;
    case 'enum':
      return `${name} must be one of ${JSON.stringify(e.params.allowedValues)}`;
    case 'type':
      return `${name} must be of type ${String(e.params.type)}`;
    case 'pattern':
      return `${name} does not match the required form ${String(e.params.pattern)}`;
    case 'format':
      return `${name} is not a valid ${String(e.params.format)}`;
    case 'maxLength':
      return `${name} is longer than ${String(e.params.limit)} characters`;
    case 'minLength':
      return `${name} must not be empty`;
    default:
      return `${name} ${e.message ?? 'is invalid'}`;
  }
}

/** The entry of `table` for `key` (an own entry: a member named `constructor` has none). */
function entry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Requirement ID for one ajv error of the CPR schemas (not the branch bookkeeping of `if` and of
 * the root `oneOf`, which {@link cprSchemaFindings} skips), or null when the error only restates
 * one already reported (a sub-interface `required` at the root, which the sub-interface rule
 * reports with a precise message).
 */
function requirementFor(e: ErrorObject, path: string[], doc: unknown): { id: string; at: string[] } | null {
  if (path.length === 0) {
    if (e.keyword === 'required') {
      const missing = String(e.params.missingProperty);
      const id = entry(BASE_REQUIRED, missing);
      return id ? { id, at: [missing] } : null; // sub-interface fields: rule sub-interface-fields
    }
    return { id: REQ_STRUCTURE, at: [] };
  }
  const first = path[0] as string;
  const second = path[1];
  const third = path[2];
  if (first === 'value') {
    if (second === undefined) {
      return e.keyword === 'required'
        ? { id: REQ_ASSET_REQUIRED, at: ['value', 'asset'] }
        : { id: REQ_FIELD_TYPES, at: path };
    }
    if (second === 'amount') return { id: REQ_AMOUNT, at: path };
    if (second === 'asset') {
      if (third === undefined) {
        if (e.keyword === 'required') {
          const missing = String(e.params.missingProperty);
          const id = missing === 'chain_id' ? (ASSET.chain_id as string) : REQ_ASSET_REQUIRED;
          return { id, at: [...path, missing] };
        }
        return { id: REQ_ASSET_REQUIRED, at: path };
      }
      return { id: entry(ASSET, third) ?? REQ_ASSET_TYPE, at: path };
    }
    return { id: REQ_FIELD_TYPES, at: path };
  }
  if (first === 'payee') {
    return { id: second === 'display_name' ? REQ_DISPLAY_NAME : REQ_RAIL_ADDRESS, at: path };
  }
  if (first === 'created_at' || first === 'expires_at') {
    return { id: e.keyword === 'pattern' ? REQ_TIMESTAMP_Z : REQ_TIMESTAMPS_UTC, at: path };
  }
  const shared = entry(SHARED, first);
  if (shared) {
    const sub =
      appliedSubInterface(doc) ?? (member(doc, 'account_number') !== undefined ? 'account' : 'iban');
    return { id: shared[sub], at: path };
  }
  return { id: entry(TOP_LEVEL, first) ?? REQ_STRUCTURE, at: path };
}

/**
 * Findings for the ajv errors of a CPR schema (`cpr/cpr-payee` or `cpr/cpr-wallet`), one per
 * distinct (requirement, path).
 *
 * @example
 * ```ts
 * const validate = getSchemaValidator('cpr/cpr-payee');
 * if (!validate(doc)) findings.push(...cprSchemaFindings(validate.errors ?? [], doc));
 * ```
 */
export function cprSchemaFindings(errors: readonly ErrorObject[], doc: unknown): Finding[] {
  const out: Finding[] = [];
  // (requirement, path) pairs reported
  const seen = new Set<string>();
  for (const e of errors) {
    // branch bookkeeping (requirementFor's first test), skipped before decoding its path
    if (e.keyword === 'if' || (e.keyword === 'oneOf' && e.instancePath === '')) continue;
    const path = pointerSegments(e.instancePath);
    const req = requirementFor(e, path, doc);
    if (!req) continue;
    const at = pointer(req.at);
    const key = `${req.id} ${at}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(finding(req.id, at, messageFor(e, path)));
  }
  return out;
}

/**
 * The finding for a schema failure that no mapped finding and no rule explains (a safety net:
 * the document is invalid and must not pass). Names the sub-interface selection, the only
 * schema part whose errors the mapping treats as bookkeeping.
 */
export function schemaFallbackFinding(errors: readonly ErrorObject[]): Finding {
  const e = errors.find((x) => x.keyword !== 'if') ?? errors[0];
  const path = e ? pointerSegments(e.instancePath) : [];
  return finding(
    REQ_SELECTION,
    pointer(path),
    e ? messageFor(e, path) : 'the document does not match the CPR schema',
  );
}
