/**
 * The reference payee system (spec 4.1-4.3, 5, 7, INV-8; profile 2).
 *
 * Seams for deliberately broken variants (one override, one fault): {@link TokenStore}
 * (`generateToken`, `expiryFor`, `isExpired`, `invalidate`, `consume`), {@link DocumentBuilder}
 * (`newRequestId`, `validityWindow`, `build`, per-rail field methods), {@link RequestRegistry}
 * (`fulfill`, `isExpired`), and {@link ReferencePayee} (`handlePlainHttp`, `retrieve`,
 * `advanceClock`, `fulfill`, `now`, ...).
 *
 * @packageDocumentation
 */
export {
  CPR_VERSION,
  type CprDocument,
  DocumentBuilder,
  eip712DomainSeparator,
  type RailFields,
  rfc3339,
  type ValidityWindow,
} from './documents.js';
export {
  type Asset,
  type CreateRequestParams,
  HARNESS_MEMBERS,
  type ParseResult,
  parseAsset,
  parseClockAdvance,
  parseCreateRequest,
  parseFulfillment,
  RAIL_HINTS,
  type RailHint,
} from './harness.js';
export { type FulfillResult, type IssuedRequest, RequestRegistry } from './requests.js';
export {
  ReferencePayee,
  type ReferencePayeeOptions,
  type RunningPayee,
  startReferencePayee,
} from './server.js';
export {
  base32Lower,
  type ConsumeResult,
  MAX_TOKEN_TTL_SECONDS,
  TOKEN_RANDOM_BYTES,
  type TokenRecord,
  TokenStore,
} from './tokens.js';
