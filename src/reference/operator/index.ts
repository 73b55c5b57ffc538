/**
 * The reference cash-pack Operator (spec CP, profile section 4).
 * @packageDocumentation
 */
export { OPERATOR_ERROR_STATUS, OperatorError, type OperatorErrorCode } from './errors.js';
export {
  type KnownPrincipal,
  type OperatorDeps,
  type OperatorResponse,
  ReferenceOperator,
  type StatusCaller,
} from './operator.js';
export { MessageParser, parseRfc3339 } from './parse.js';
export {
  DEFAULT_POLICY,
  type ReferenceOperatorOptions,
  type RunningOperator,
  startReferenceOperator,
} from './server.js';
export {
  type Account,
  assetKey,
  type IdKind,
  type LedgerSnapshot,
  OperatorStore,
  type PackRecord,
  type StoreState,
  type Transaction,
} from './store.js';
export type * from './types.js';
