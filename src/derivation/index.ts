/**
 * Spec 4.4 derivation: the reference wallet's library.
 * @packageDocumentation
 */
export { describeType, isAmountString, type NormalizedAmount, normalizeAmount } from './amount.js';
export {
  type DerivationContextInput,
  type DerivationInput,
  type DerivationOptions,
  type DerivationResult,
  type DerivedPayment,
  derivePayment,
  type JsonObject,
} from './derive.js';
export {
  DERIVATION_ERROR_CODES,
  type DerivationError,
  type DerivationErrorCode,
  DerivationFailure,
} from './errors.js';
export {
  type CprFetcher,
  createHttpsCprFetcher,
  type HttpsCprFetcher,
  type HttpsCprFetcherOptions,
} from './fetch.js';
export {
  DEFAULT_SUPPORTED_RAILS,
  isRail,
  isRailHint,
  parseRailList,
  RAIL_HINTS,
  RAILS,
  type Rail,
  type RailHint,
  SUB_INTERFACES,
  type SubInterface,
  type SubInterfaceFields,
  subInterfaceOf,
  subInterfaceOfRail,
} from './rails.js';
