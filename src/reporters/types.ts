/**
 * Types of the reporters' input (the runner's NDJSON events, the requirement catalog and the
 * ambiguity register) and output (results.json). Each is the type generated from its schema
 * (`schemas/tool/results.schema.json`, `requirement-catalog.schema.json`,
 * `ambiguity-register.schema.json`), under the name the reporters use; the event and test types
 * are the runner's (`src/runner/types.ts`), the catalog types the catalog loader's
 * (`src/catalog/index.ts`), re-exported. `results.json` is validated against the schema before it is written.
 */

import type { Catalog, Requirement } from '../catalog/index.js';
import type {
  ConformanceResults,
  Endpoints as GeneratedEndpoints,
  RequirementVerdict as GeneratedRequirementVerdict,
} from '../generated/tool/results.js';
import type { ResultState } from '../runner/types.js';

export type { Ambiguity } from '../catalog/index.js';
export type {
  EndEvent,
  Exchange,
  PropertyInfo,
  ResultState,
  RunEvent,
  StartEvent,
  Target,
  TestEvent,
  TestResult,
} from '../runner/types.js';

/** Result state of one test (docs/conventions.md, "Result states"); the runner's `ResultState`. */
export type TestState = ResultState;

/** Verdict of one requirement: a test state, or `untested` when no test names it. */
export type RequirementVerdictState = GeneratedRequirementVerdict['verdict'];

/** Endpoints of one target: URLs, or a stdio command line. */
export type Endpoints = GeneratedEndpoints;

/** One entry of the requirement catalog (`suites/catalog/requirements.json`); the loader's `Requirement`. */
export type CatalogRequirement = Requirement;

/** The requirements.json document: the sources and their requirements; the loader's `Catalog`. */
export type CatalogDocument = Catalog;

/** Number of tests in each state (results.json `counts`). */
export type Counts = ConformanceResults['counts'];

/** Verdict of one catalog requirement in results.json. */
export type RequirementVerdict = GeneratedRequirementVerdict;

/** The results.json document (`schemas/tool/results.schema.json`). */
export type ResultsDocument = ConformanceResults;
