/**
 * Public barrel of cpr-conformance. Every export is documented where it is defined.
 * @packageDocumentation
 */
export type * from './generated/index.js';
export { getSchemaValidator, schemaIds } from './schemas/registry.js';
export { type ReportInput, type WriteReportsResult, writeReports } from './reporters/index.js';
export {
  type Ambiguity,
  type AmbiguityRegister,
  type Catalog,
  type Classification,
  type Requirement,
  ambiguitiesFor,
  classify,
  loadAmbiguities,
  loadCatalog,
  requirementById,
} from './catalog/index.js';
