/**
 * The reference validator: `validateCpr` for CPR-1.0 documents, `validateMessage` for any
 * message the schema registry knows, and the finding types.
 *
 * @example
 * ```ts
 * import { validateCpr } from 'cpr-conformance';
 * const result = validateCpr(doc, { mode: 'payee', now: new Date() });
 * ```
 * @packageDocumentation
 */

// the CPR vocabulary (one spelling: src/model/cpr.ts), part of the validator's public API
export {
  ADDRESS_FIELDS,
  ALL_FIELDS,
  FIELDS_REQUIREMENT,
  RAIL_HINTS,
  type RailHint,
  REQUIRED_FIELDS,
  SUB_INTERFACE_OF_HINT,
  type SubInterface,
} from '../model/cpr.js';
export type { Finding, FindingLevel, FindingSeverity } from '../model/finding.js';
export { ISO20022_PURPOSE_CODES } from './data/iso20022-purpose-codes.js';
export { isValidUnderEveryRule } from './every-rule.js';
export {
  DEFAULT_MAX_BYTES,
  type InputResult,
  type ValidateInputsOptions,
  validateInputs,
} from './inputs/index.js';
export {
  type DuplicateMember,
  decodeJsonBytes,
  JSON_TEXT_REQUIREMENTS,
  type JsonTextScan,
  type ParsedText,
  parseJsonText,
  scanJsonText,
  validateCprBytes,
  validateCprText,
} from './json-text.js';
export { parseRfc3339, type Rfc3339Instant } from './rfc3339.js';
export { chainKey } from './rules/chain-id-agrees.js';
export { toChecksumAddress } from './rules/evm-address-checksum.js';
export { CPR_RULES } from './rules/index.js';
export { isPayerDataName, nameReadings, PAYER_KEYS, SEPARATION_KEYS } from './rules/no-payer-data.js';
export { appliedSubInterface, type Selection, selectSubInterface } from './subinterface.js';
export type {
  Rule,
  RuleContext,
  ValidateCprOptions,
  ValidationMode,
  ValidationResult,
} from './types.js';
export { DEFAULT_MAX_VALIDITY_SECONDS, documentRequirementIds, validateCpr } from './validate-cpr.js';
export { validateMessage } from './validate-message.js';
