/**
 * Turns the runner's event stream into the data every report is written from, so junit.xml,
 * results.json, summary.md and report.html never disagree.
 */
import type { Coverage } from '../catalog/coverage.js';
import type { Ambiguity, Catalog, Requirement } from '../catalog/index.js';
import { CprcError } from '../errors.js';
import type { Baseline, BaselineEntry } from '../generated/tool/baseline.js';
import {
  type FailureLevel,
  type Level,
  type RunEvent,
  type StartEvent,
  type State,
  stateAtLevel,
  type Target,
  type TestResult,
} from '../model/results.js';
import { redactConfig, redactHeaders, scrubSecrets } from '../secrets/index.js';
import type {
  BaselineOutcome,
  ConformanceResults,
  Counts,
  LevelVerdict,
  RequirementVerdict,
} from './types.js';

/** Input of {@link writeReports} (and of every single reporter). */
export interface ReportInput {
  /** Folder to write the four reports into; created when missing. */
  reportsDir: string;
  /** The parsed lines of the run's event stream (`events.ndjson`), in order. */
  events: readonly unknown[];
  /** The requirement catalog (`loadCatalog()`): the requirements, or the whole requirements.json document. */
  catalog: readonly Requirement[] | Catalog;
  /** The ambiguity register (`loadAmbiguities()`): the entries, or the ambiguities.json document holding them. */
  ambiguities: readonly Ambiguity[] | { ambiguities: readonly Ambiguity[] };
  /** True when the run was interrupted; also implied when the stream has no `end` event. */
  incomplete: boolean;
  /** Why the run is incomplete (signal, timeout, crash), for a person. */
  incomplete_reason?: string;
  /** The run configuration; redacted again here (private keys, credentials, tokens). */
  config: Record<string, unknown>;
  /**
   * The command line that produced the run (argv), recorded in results.json and shown to
   * reproduce it. When absent (results of a version that did not record it, a run started
   * through the API), the reports say that it was not recorded and offer a `cprc run` line with
   * the run's seed, runs, level and targets.
   */
  command?: readonly string[];
  /** Literal secret values to erase from every report, wherever they appear (defence in depth). */
  secrets?: readonly string[];
  /** Any skipped check fails the run (`--fail-on-skip`). */
  failOnSkip?: boolean;
  /** What covers each requirement outside this run (`loadCoverage()`), for requirements no test of the run names. */
  coverage?: Coverage;
  /** The expected-failures baseline (`--baseline FILE`), already read and validated. */
  baseline?: { file: string; document: Baseline };
  /** What the runner knows of the run beside its events: config digest, shard, selection. */
  run?: Pick<ConformanceResults, 'config_digest' | 'shard' | 'selection'>;
}

/** Everything the reporters render. */
export interface ReportModel {
  /** The results.json document. */
  doc: ConformanceResults;
  /** The catalog's requirements, for texts, sources and sections. */
  catalog: readonly Requirement[];
  /** Title of each source (`CPR-1.0` -> "Canonical Payment Request (CPR) Specification"), when the catalog names them. */
  sourceTitles: Record<string, string>;
  /** The ambiguity register. */
  ambiguities: readonly Ambiguity[];
  /** argv that reproduces the run: its recorded command, else a `cprc run` line rebuilt from the start event. */
  command: string[];
  /** False when the run recorded no command line and `command` was rebuilt (the reports say so). */
  commandRecorded: boolean;
  /** CA file to pass to curl (`tls.ca_file` of the config, else `ca.pem`). */
  caFile: string;
  /** What covers each requirement outside this run (suites/catalog/coverage.json), when known. */
  coverage?: Coverage;
  /** The wallet's stdio command, when configured (to reproduce stdio exchanges). */
  walletCommand?: string[];
}

const STATES: readonly State[] = ['passed', 'failed', 'warning', 'skipped', 'error'];

/**
 * Number of tests in each state; a test listed in the baseline (`expected_failure`) counts as an
 * expected failure, not under its state.
 */
export function countStates(tests: readonly Pick<TestResult, 'state' | 'expected_failure'>[]): Counts {
  const counts: Counts = {
    passed: 0,
    failed: 0,
    warning: 0,
    skipped: 0,
    error: 0,
    expected_failure: 0,
    total: 0,
  };
  for (const test of tests) {
    if (test.expected_failure !== undefined) counts.expected_failure += 1;
    else counts[test.state] += 1;
    counts.total += 1;
  }
  return counts;
}

/**
 * Verdict of a requirement from the states of the tests that name it: failed if any failed;
 * error if any errored (none failed); warning if any warned (none failed or errored); passed if
 * at least one passed (the rest skipped); skipped if all were skipped; untested if there are none.
 *
 * @example
 * ```ts
 * requirementVerdict(['passed', 'skipped']); // 'passed'
 * requirementVerdict(['passed', 'error']); // 'error'
 * ```
 */
export function requirementVerdict(states: readonly State[]): RequirementVerdict['verdict'] {
  if (states.length === 0) return 'untested';
  for (const state of ['failed', 'error', 'warning', 'passed'] as const) {
    if (states.includes(state)) return state;
  }
  return 'skipped';
}

/** True when a failed or warning test fails at `level` (an expected failure never does). */
export function failsAt(test: TestResult, level: Level): boolean {
  if (test.expected_failure !== undefined) return false;
  if (test.state !== 'failed' && test.state !== 'warning') return false;
  const failure = test.failure_level ?? (test.state === 'failed' ? 'spec' : 'advisory');
  return stateAtLevel(failure, level) === 'failed';
}

/** Reasons, beside failed checks, that fail a run at every level. */
function runBlockers(facts: {
  incomplete: boolean;
  errors: number;
  skipped: number;
  stale: number;
}): string[] {
  const out: string[] = [];
  if (facts.incomplete) out.push('the run is incomplete');
  if (facts.errors > 0) out.push(`${facts.errors} checks ended in error`);
  if (facts.skipped > 0) out.push(`${facts.skipped} checks were skipped (--fail-on-skip)`);
  if (facts.stale > 0)
    out.push(`${facts.stale} baseline entries are stale (their checks now pass: remove them)`);
  return out;
}

/** True when a catalog requirement binds one of the targets run (`document` rules: payee or wallet). */
function appliesTo(requirement: Requirement, targets: readonly Target[]): boolean {
  if (requirement.actor === 'document') return targets.includes('payee') || targets.includes('wallet');
  return targets.includes(requirement.actor);
}

/**
 * The verdict at one conformance level, saying how much ran: the MUST requirements that apply to
 * the targets run (SPEC MUSTs at level spec; SPEC and PROFILE MUSTs at level profile; those the
 * catalog marks untestable left out), how many a check that ran (not skipped) exercised, and how
 * many only skipped checks named.
 *
 * @example
 * ```ts
 * levelVerdict('spec', tests, catalog, ['payee'], []).summary;
 * // 'PASS (spec): 22 of 23 applicable MUST requirements exercised; 1 skipped'
 * ```
 */
export function levelVerdict(
  level: Level,
  tests: readonly TestResult[],
  catalog: readonly Requirement[],
  targets: readonly Target[],
  blockers: readonly string[],
): LevelVerdict {
  const applicable = catalog.filter(
    (r) =>
      r.level === 'MUST' &&
      (level === 'profile' || r.kind === 'SPEC') &&
      !r.untestable &&
      appliesTo(r, targets),
  );
  const ran = new Set<string>();
  const named = new Set<string>();
  for (const test of tests) {
    for (const id of test.requirements) {
      named.add(id);
      if (test.state !== 'skipped') ran.add(id);
    }
  }
  const exercised = applicable.filter((r) => ran.has(r.id)).length;
  const skipped = applicable.filter((r) => named.has(r.id) && !ran.has(r.id)).length;
  const failed = tests.filter((test) => failsAt(test, level)).length;
  const verdict = failed === 0 && blockers.length === 0 ? 'pass' : 'fail';
  const why = [...(failed > 0 ? [`${failed} checks failed`] : []), ...blockers];
  const untested = applicable.length - exercised - skipped;
  const summary =
    `${verdict === 'pass' ? 'PASS' : 'FAIL'} (${level}): ${exercised} of ${applicable.length} applicable MUST requirements exercised; ` +
    `${skipped} skipped${untested > 0 ? `; ${untested} named by no check that ran` : ''}` +
    (why.length > 0 ? `; ${why.join('; ')}` : '');
  return {
    verdict,
    failed,
    must_applicable: applicable.length,
    must_exercised: exercised,
    must_skipped: skipped,
    summary,
  };
}

/** True when a baseline entry names this test (its check ID and/or one of its requirement IDs). */
function entryMatches(entry: BaselineEntry, test: TestResult): boolean {
  if (entry.check !== undefined && entry.check !== test.id) return false;
  if (entry.requirement !== undefined && !test.requirements.includes(entry.requirement)) return false;
  return entry.check !== undefined || entry.requirement !== undefined;
}

/**
 * Applies an expected-failures baseline: a failed or warning test failing a MUST (level `spec` or
 * `profile`) that an entry names becomes an expected failure (`expected_failure` = the reason);
 * an entry whose tests ran and all passed is `stale` (the run fails until it is removed); an
 * entry whose tests did not run (or were skipped, warned on a SHOULD or errored) is `not-run`.
 * Mutates `tests`; returns one outcome per entry.
 */
export function applyBaseline(tests: TestResult[], entries: readonly BaselineEntry[]): BaselineOutcome[] {
  return entries.map((entry) => {
    const named = tests.filter((test) => entryMatches(entry, test));
    const matched = named.filter(
      (test) =>
        (test.state === 'failed' || test.state === 'warning') &&
        (test.failure_level === 'spec' || test.failure_level === 'profile'),
    );
    for (const test of matched) test.expected_failure ??= entry.reason;
    const ran = named.filter((test) => test.state !== 'skipped');
    const status: BaselineOutcome['status'] =
      matched.length > 0
        ? 'matched'
        : ran.length > 0 && ran.every((test) => test.state === 'passed')
          ? 'stale'
          : 'not-run';
    return {
      ...(entry.check !== undefined ? { check: entry.check } : {}),
      ...(entry.requirement !== undefined ? { requirement: entry.requirement } : {}),
      reason: entry.reason,
      status,
      tests: (matched.length > 0 ? matched : named).map((test) => test.id),
    };
  });
}

function describe(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}

function asEvent(value: unknown, index: number): RunEvent {
  const type = value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
  if (type !== 'start' && type !== 'test' && type !== 'end') {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `events[${index}]: "type" must be "start", "test" or "end", got ${describe(type)}; ` +
        'the events file is not a cprc run stream (or is damaged): run again',
    );
  }
  if (type === 'test') {
    const test = value as Partial<TestResult>;
    if (
      typeof test.id !== 'string' ||
      typeof test.title !== 'string' ||
      !STATES.includes(test.state as State)
    ) {
      throw new CprcError(
        'CPRC_INPUT_INVALID',
        `events[${index}]: a "test" event needs a string "id" and "title" and a "state" among ${STATES.join(', ')}; ` +
          'the events file is damaged: run again',
      );
    }
  }
  return value as RunEvent;
}

/** A `cprc run` command line from the start event (seed, runs, level, targets), when the run recorded none. */
function defaultCommand(start: StartEvent): string[] {
  const argv = [
    'cprc',
    'run',
    '--config',
    '<config.json>',
    '--seed',
    String(start.seed),
    '--runs',
    String(start.runs),
  ];
  if (start.level) argv.push('--level', start.level);
  for (const target of start.targets) argv.push('--target', target);
  return argv;
}

function clean(test: TestResult): TestResult {
  const { type: _type, ...rest } = test as TestResult & { type?: string };
  // a stream of an older version has no failure_level: a failure was a SPEC MUST, a warning advisory
  const failureLevel: FailureLevel | undefined =
    rest.failure_level ??
    (rest.state === 'failed' ? 'spec' : rest.state === 'warning' ? 'advisory' : undefined);
  return {
    ...rest,
    ...(failureLevel ? { failure_level: failureLevel } : {}),
    requirements: [...(rest.requirements ?? [])],
    exchanges: (rest.exchanges ?? []).map((exchange) => ({
      ...exchange,
      ...(exchange.request_headers ? { request_headers: redactHeaders(exchange.request_headers) } : {}),
      ...(exchange.response_headers ? { response_headers: redactHeaders(exchange.response_headers) } : {}),
    })),
  };
}

/**
 * Builds the report model: the results.json document (counts, verdicts of every requirement of
 * the catalog) plus what the human-readable reports need. Throws `CPRC_INPUT_INVALID` when the
 * stream has no start event or an event of an unknown type.
 */
export function buildModel(input: ReportInput): ReportModel {
  const events = input.events.map((event, index) => asEvent(event, index));
  const start = events.find((event): event is StartEvent => event.type === 'start');
  if (!start) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'events: no "start" event, so the run never began (the suite process failed before its first test); ' +
        'see the error printed above and run again',
    );
  }
  const end = events.find((event) => event.type === 'end');
  const tests = events.filter((event) => event.type === 'test').map((event) => clean(event as TestResult));
  const incomplete = input.incomplete || end === undefined;
  const level: Level = start.level ?? 'profile';
  const baseline = input.baseline ? applyBaseline(tests, input.baseline.document.entries) : undefined;

  const byRequirement = new Map<string, TestResult[]>();
  for (const test of tests) {
    for (const id of new Set(test.requirements)) {
      const list = byRequirement.get(id) ?? [];
      list.push(test);
      byRequirement.set(id, list);
    }
  }
  const catalog = Array.isArray(input.catalog)
    ? (input.catalog as readonly Requirement[])
    : (input.catalog as Catalog).requirements;
  if (!Array.isArray(catalog)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'catalog: expected the requirements array (or the requirements.json document holding it); pass loadCatalog()',
    );
  }
  const sourceTitles: Record<string, string> = {};
  if (!Array.isArray(input.catalog)) {
    for (const [source, spec] of Object.entries((input.catalog as Catalog).specs ?? {})) {
      if (typeof spec?.title === 'string') sourceTitles[source] = spec.title;
    }
  }
  const known = new Set(catalog.map((requirement) => requirement.id));
  const requirements: RequirementVerdict[] = catalog.map((requirement) => {
    const covering = byRequirement.get(requirement.id) ?? [];
    const verdict: RequirementVerdict = {
      id: requirement.id,
      level: requirement.level,
      kind: requirement.kind,
      verdict: requirementVerdict(covering.map((test) => test.state)),
      tests: covering.map((test) => test.id),
    };
    if (requirement.untestable) {
      verdict.untestable = requirement.untestable;
    }
    return verdict;
  });
  const counts = countStates(tests);
  const config = redactConfig(input.config ?? {}) as Record<string, unknown>;
  const targets = [...(start.targets ?? [])];
  const blockers = runBlockers({
    incomplete,
    errors: counts.error,
    skipped: input.failOnSkip === true ? counts.skipped : 0,
    stale: baseline?.filter((entry) => entry.status === 'stale').length ?? 0,
  });
  const verdicts = {
    spec: levelVerdict('spec', tests, catalog, targets, blockers),
    profile: levelVerdict('profile', tests, catalog, targets, blockers),
  };

  const recorded = input.command && input.command.length > 0 ? input.command : undefined;
  const doc: ConformanceResults = {
    results_version: '1.0',
    suite_version: start.suite_version,
    started_at: start.started_at,
    ...(end && end.type === 'end' ? { finished_at: end.finished_at } : {}),
    incomplete,
    ...(incomplete
      ? {
          incomplete_reason:
            input.incomplete_reason ??
            (end === undefined
              ? 'the run was interrupted before it finished (the event stream has no end event)'
              : 'the run was interrupted before it finished'),
        }
      : {}),
    seed: start.seed,
    runs: start.runs,
    level,
    fail_on_skip: input.failOnSkip === true,
    targets,
    target_urls: redactConfig(start.target_urls ?? {}) as ConformanceResults['target_urls'],
    config_summary: config,
    ...(input.run?.config_digest ? { config_digest: input.run.config_digest } : {}),
    ...(recorded ? { command: [...recorded] } : {}),
    counts,
    verdict: verdicts[level].verdict,
    verdicts,
    tests,
    requirements,
    unknown_requirements: [...byRequirement.keys()].filter((id) => !known.has(id)).sort(),
    ...(input.baseline && baseline ? { baseline: { file: input.baseline.file, entries: baseline } } : {}),
    ...(input.run?.shard ? { shard: input.run.shard } : {}),
    ...(input.run?.selection ? { selection: input.run.selection } : {}),
  };

  const tls = config.tls as { ca_file?: unknown } | undefined;
  const wallet = config.wallet as { command?: unknown } | undefined;
  const walletCommand =
    Array.isArray(wallet?.command) && wallet.command.every((arg) => typeof arg === 'string')
      ? (wallet.command as string[])
      : undefined;
  const model: ReportModel = {
    doc,
    catalog,
    sourceTitles,
    ambiguities: Array.isArray(input.ambiguities)
      ? (input.ambiguities as readonly Ambiguity[])
      : ((input.ambiguities as { ambiguities?: readonly Ambiguity[] }).ambiguities ?? []),
    command: recorded ? [...recorded] : defaultCommand(start),
    commandRecorded: recorded !== undefined,
    caFile: typeof tls?.ca_file === 'string' && tls.ca_file !== '' ? tls.ca_file : 'ca.pem',
    ...(walletCommand ? { walletCommand } : {}),
    ...(input.coverage ? { coverage: input.coverage } : {}),
  };
  return input.secrets && input.secrets.length > 0 ? scrubSecrets(model, input.secrets) : model;
}
