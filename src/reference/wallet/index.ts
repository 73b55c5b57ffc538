/**
 * The reference wallet (spec 4.4, profile section 3): the HTTP-free derivation (`derive.ts`,
 * `amount.ts`, `rails.ts`, `errors.ts`), its fetcher of reference URIs (`fetch.ts`), the core
 * (`core.ts`) and its transports, the HTTPS harness and stdio (`server.ts`).
 * @packageDocumentation
 */
export { isAmountString } from './amount.js';
export { createWalletCore, type WalletCore, type WalletCoreOptions } from './core.js';
export {
  type DerivationContextInput,
  type DerivationInput,
  type DerivationOptions,
  type DerivationResult,
  type DerivedPayment,
  derivePayment,
  type JsonObject,
} from './derive.js';
export { type DerivationError, type DerivationErrorCode, DerivationFailure } from './errors.js';
export {
  type CprFetcher,
  createHttpsCprFetcher,
  type HttpsCprFetcher,
  type HttpsCprFetcherOptions,
} from './fetch.js';
export {
  DEFAULT_SUPPORTED_RAILS,
  parseRailList,
  SUB_INTERFACES,
  type SubInterfaceFields,
  subInterfaceOf,
  subInterfaceOfRail,
} from './rails.js';
export {
  harnessAnswer,
  type ReferenceWallet,
  type ReferenceWalletOptions,
  serveWalletLines,
  serveWalletStdio,
  startReferenceWallet,
  startWalletHarness,
  stdioAnswer,
  type WalletHarnessOptions,
} from './server.js';
