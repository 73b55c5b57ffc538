/**
 * Turns the runner's event stream into the data every report is written from, so junit.xml,
 * results.json, summary.md and report.html never disagree.
 */
import { CprcError } from '../errors.js';
import { redactConfig, redactHeaders, scrubSecrets } from './redact.js';
import type {
  Ambiguity,
  CatalogDocument,
  CatalogRequirement,
  Counts,
  RequirementVerdict,
  RequirementVerdictState,
  ResultsDocument,
  RunEvent,
  StartEvent,
  TestResult,
  TestState,
} from './types.js';

/** Input of {@link writeReports} (and of every single reporter). */
export interface ReportInput {
  /** Folder to write the four reports into; created when missing. */
  reportsDir: string;
  /** The parsed lines of `<reportsDir>/.raw/events.ndjson`, in order. */
  events: readonly unknown[];
  /** The requirement catalog (`loadCatalog()`): the requirements, or the whole requirements.json document. */
  catalog: readonly CatalogRequirement[] | CatalogDocument;
  /** The ambiguity register (`loadAmbiguities()`): the entries, or the ambiguities.json document holding them. */
  ambiguities: readonly Ambiguity[] | { ambiguities: readonly Ambiguity[] };
  /** True when the run was interrupted; also implied when the stream has no `end` event. */
  incomplete: boolean;
  /** Why the run is incomplete (signal, timeout, crash), for a person. */
  incomplete_reason?: string;
  /** The run configuration; redacted again here (private keys, credentials, tokens). */
  config: Record<string, unknown>;
  /** The exact command line that reproduces the run (argv); a `cprc run` line is made when absent. */
  command?: readonly string[];
  /** Literal secret values to erase from every report, wherever they appear (defence in depth). */
  secrets?: readonly string[];
}

/** Everything the reporters render. */
export interface ReportModel {
  /** The results.json document. */
  doc: ResultsDocument;
  /** The catalog's requirements, for texts, sources and sections. */
  catalog: readonly CatalogRequirement[];
  /** Title of each source (`CPR-1.0` -> "Canonical Payment Request (CPR) Specification"), when the catalog names them. */
  sourceTitles: Record<string, string>;
  /** The ambiguity register. */
  ambiguities: readonly Ambiguity[];
  /** argv that reproduces the run. */
  command: string[];
  /** CA file to pass to curl (`tls.ca_file` of the config, else `ca.pem`). */
  caFile: string;
  /** The wallet's stdio command, when configured (to reproduce stdio exchanges). */
  walletCommand?: string[];
}

const STATES: readonly TestState[] = ['passed', 'failed', 'warning', 'skipped', 'error'];

/** Number of tests in each state. */
export function countStates(tests: readonly Pick<TestResult, 'state'>[]): Counts {
  const counts: Counts = { passed: 0, failed: 0, warning: 0, skipped: 0, error: 0, total: 0 };
  for (const test of tests) {
    counts[test.state] += 1;
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
export function requirementVerdict(states: readonly TestState[]): RequirementVerdictState {
  if (states.length === 0) return 'untested';
  for (const state of ['failed', 'error', 'warning', 'passed'] as const) {
    if (states.includes(state)) return state;
  }
  return 'skipped';
}

/** Run verdict: fail when any test failed or errored, or the run is incomplete. */
export function runVerdict(counts: Counts, incomplete: boolean): 'pass' | 'fail' {
  return counts.failed > 0 || counts.error > 0 || incomplete ? 'fail' : 'pass';
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
      !STATES.includes(test.state as TestState)
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

/** A `cprc run` command line from the start event, when the runner gives none. */
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
  for (const target of start.targets) argv.push('--target', target);
  return argv;
}

function clean(test: TestResult): TestResult {
  const { type: _type, ...rest } = test as TestResult & { type?: string };
  return {
    ...rest,
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

  const byRequirement = new Map<string, TestResult[]>();
  for (const test of tests) {
    for (const id of new Set(test.requirements)) {
      const list = byRequirement.get(id) ?? [];
      list.push(test);
      byRequirement.set(id, list);
    }
  }
  const catalog = Array.isArray(input.catalog)
    ? (input.catalog as readonly CatalogRequirement[])
    : (input.catalog as CatalogDocument).requirements;
  if (!Array.isArray(catalog)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'catalog: expected the requirements array (or the requirements.json document holding it); pass loadCatalog()',
    );
  }
  const sourceTitles: Record<string, string> = {};
  if (!Array.isArray(input.catalog)) {
    for (const [source, spec] of Object.entries((input.catalog as CatalogDocument).specs ?? {})) {
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

  const doc: ResultsDocument = {
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
    targets: [...(start.targets ?? [])],
    target_urls: redactConfig(start.target_urls ?? {}) as ResultsDocument['target_urls'],
    config_summary: config,
    counts,
    verdict: runVerdict(counts, incomplete),
    tests,
    requirements,
    unknown_requirements: [...byRequirement.keys()].filter((id) => !known.has(id)).sort(),
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
    command: input.command ? [...input.command] : defaultCommand(start),
    caFile: typeof tls?.ca_file === 'string' && tls.ca_file !== '' ? tls.ca_file : 'ca.pem',
    ...(walletCommand ? { walletCommand } : {}),
  };
  return input.secrets && input.secrets.length > 0 ? scrubSecrets(model, input.secrets) : model;
}
