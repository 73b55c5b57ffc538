/// <reference types="node" preserve="true" />
/**
 * Public barrel of cpr-conformance. Every export is documented where it is defined.
 * @packageDocumentation
 */
export {
  type Ambiguity,
  type AmbiguityRegister,
  ambiguitiesFor,
  type Catalog,
  type Classification,
  classify,
  loadAmbiguities,
  loadCatalog,
  type Requirement,
  requirementById,
} from './catalog/index.js';
export {
  CODEC_REQUIREMENTS,
  type CodecFinding,
  type CodecResult,
  type DecodedCprUri,
  decodeCprUri,
  encodeInlineUri,
  encodeReferenceUri,
  QR_REQUIREMENTS,
  readQrPng,
  renderQrPng,
  tokenFormatFindings,
} from './codec/index.js';
export {
  base64urlDecode,
  base64urlEncode,
  canonicalBytes,
  canonicalize,
  chainDigestOf,
  type Ed25519KeyPair,
  type Ed25519PublicJwk,
  generateEd25519KeyPair,
  initialChainDigest,
  isBase64url,
  jwkFromPublicKey,
  jwkThumbprint,
  nextChainDigest,
  publicKeyFromJwk,
  signBytes,
  signObject,
  verifyBytes,
  verifyObject,
} from './crypto/index.js';
export {
  type CreateDrivers,
  createDefaultDrivers,
  type Drivers,
  DriverTransportError,
  HttpClient,
  loadDriverModule,
  type OperatorDriver,
  type PayeeDriver,
  Recorder,
  type WalletDriver,
} from './drivers/index.js';
export type * from './generated/index.js';
export { type ReferenceStack, type StackRunConfig, startReferenceStack } from './loopback/stack.js';
export {
  type CertificateAuthority,
  createCertificateAuthority,
  createLoopbackPki,
  issueServerCertificate,
  type LoopbackPki,
  type ServerCertificate,
  writeCaFile,
} from './loopback/tls.js';
export {
  type CheckOutcome,
  type ConformanceResults,
  type FailureLevel,
  type Level,
  type RunEvent,
  type State,
  stateAtLevel,
  type Target,
  type TestResult,
} from './model/results.js';
export {
  DEFAULT_POLICY,
  type OperatorDeps,
  OperatorError,
  type OperatorIdentities,
  OperatorStore,
  ReferenceOperator,
  type ReferenceOperatorOptions,
  type RunningOperator,
  startReferenceOperator,
} from './reference/operator/index.js';
export {
  DocumentBuilder,
  ReferencePayee,
  type ReferencePayeeOptions,
  RequestRegistry,
  type RunningPayee,
  startReferencePayee,
  TokenStore,
} from './reference/payee/index.js';
export {
  type DerivationInput,
  type DerivationResult,
  type DerivedPayment,
  derivePayment,
  type ReferenceWallet,
  startReferenceWallet,
} from './reference/wallet/index.js';
export { type ReportInput, type WriteReportsResult, writeReports } from './reporters/index.js';
export {
  loadBaseline,
  loadRunConfig,
  type RunSuitesOptions,
  type RunSuitesResult,
  runSuites,
} from './runner/index.js';
export { getSchemaValidator, schemaIds } from './schemas/registry.js';
export {
  type Finding,
  isValidUnderEveryRule,
  type ValidateCprOptions,
  type ValidationMode,
  type ValidationResult,
  validateCpr,
  validateCprBytes,
  validateCprText,
  validateMessage,
} from './validator/index.js';
