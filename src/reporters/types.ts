/**
 * Types of the reporters' input (the runner's NDJSON events) and output (results.json). They
 * mirror `schemas/tool/results.schema.json`; the event and test types are the runner's
 * (`src/runner/types.ts`), re-exported. `results.json` is validated against the schema before it is written.
 */

import type { ResultState, Target, TestResult } from '../runner/types.js';

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
export type RequirementVerdictState = TestState | 'untested';

/** Endpoints of one target: URLs, or a stdio command line. */
export type Endpoints = Record<string, string | string[]>;

/** One entry of the requirement catalog (`suites/catalog/requirements.json`). */
export interface CatalogRequirement {
  id: string;
  source: string;
  section: string;
  text: string;
  level: 'MUST' | 'SHOULD' | 'MAY';
  kind: 'SPEC' | 'PROFILE';
  actor?: string;
  checks?: unknown;
  /** Why no black-box test can check it (a reason, or `true` without one). */
  untestable?: string | boolean;
}

/** The requirements.json document: the sources and their requirements. */
export interface CatalogDocument {
  catalog_version?: string;
  specs?: Record<string, { title?: string; version?: string; file?: string }>;
  requirements: readonly CatalogRequirement[];
}

/** One entry of the ambiguity register (`suites/catalog/ambiguities.json`). */
export interface Ambiguity {
  id: string;
  section: string;
  spec_text: string;
  problem: string;
  reading: string;
  level?: string;
  affects?: string[] | string;
}

/** Number of tests in each state. */
export interface Counts {
  passed: number;
  failed: number;
  warning: number;
  skipped: number;
  error: number;
  total: number;
}

/** Verdict of one catalog requirement in results.json. */
export interface RequirementVerdict {
  id: string;
  level: 'MUST' | 'SHOULD' | 'MAY';
  kind: 'SPEC' | 'PROFILE';
  verdict: RequirementVerdictState;
  tests: string[];
  untestable?: string;
}

/** The results.json document (`schemas/tool/results.schema.json`). */
export interface ResultsDocument {
  results_version: '1.0';
  suite_version: string;
  started_at: string;
  finished_at?: string;
  incomplete: boolean;
  incomplete_reason?: string;
  seed: number;
  runs: number;
  targets: Target[];
  target_urls: Partial<Record<Target, Endpoints>>;
  config_summary: Record<string, unknown>;
  counts: Counts;
  verdict: 'pass' | 'fail';
  tests: TestResult[];
  requirements: RequirementVerdict[];
  unknown_requirements: string[];
}
