/**
 * Output types of the reporters, as generated from `schemas/tool/results.schema.json`. Their
 * input types are the results model (`src/model/results.ts`) and the catalog loader's
 * (`src/catalog/index.ts`), imported from there. `results.json` is validated against the schema
 * before it is written.
 */
import type { ConformanceResults } from '../generated/tool/results.js';

export type {
  BaselineOutcome,
  ConformanceResults,
  Endpoints,
  LevelVerdict,
  RequirementVerdict,
} from '../generated/tool/results.js';

/** Number of tests in each state (results.json `counts`). */
export type Counts = ConformanceResults['counts'];
