/**
 * junit.xml through mocha-junit-reporter (2.2.1) in `antMode`, whose output validates against the
 * Jenkins JUnit XSD. The reporter listens to a mocha runner; here a small EventEmitter replays
 * the recorded results as mocha runner events, so junit.xml is written from the same data as the
 * other reports, even after an interruption.
 */
import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { CprcError } from '../errors.js';
import type { TestResult } from '../model/results.js';
import type { ReportModel } from './model.js';

const require = createRequire(import.meta.url);

/** The parts of mocha-junit-reporter used here (it ships no types). */
interface JUnitReporter {
  _options: Record<string, unknown>;
  _testsuites: { testsuite: unknown[] }[];
  _generateSuiteTitle: (suite: FakeSuite) => string;
  getTestcaseData(test: FakeTest, err?: FakeError): { testcase: unknown[] };
  writeXmlToDisk(xml: string, path: string): void;
  removeInvalidCharacters(text: string): string;
}
type JUnitReporterClass = new (runner: EventEmitter, options: Record<string, unknown>) => JUnitReporter;

/** The fields of a mocha Suite the reporter and mocha's Base reporter read. */
interface FakeSuite {
  title: string;
  root: boolean;
  file?: string;
  parent?: FakeSuite;
  tests: FakeTest[];
  suites: FakeSuite[];
}

/** The fields of a mocha Test the reporter and mocha's Base reporter read. */
interface FakeTest {
  title: string;
  fullTitle(): string;
  duration: number;
  parent: FakeSuite;
  consoleOutputs?: string[];
  slow(): number;
}

/** The fields of an Error the reporter reads (`stack` becomes the failure text). */
interface FakeError {
  name: string;
  message: string;
  stack: string;
}

/** Testsuite grouping: target, and channel when the target has several. */
function groupName(test: TestResult): string {
  return test.channel ? `${test.target} (${test.channel})` : test.target;
}

function exchangeLine(exchange: TestResult['exchanges'][number]): string {
  if (exchange.kind === 'stdio') {
    return `stdio -> ${exchange.error ? `error: ${exchange.error}` : 'answered'}`;
  }
  const outcome = exchange.error ? `error: ${exchange.error}` : `HTTP ${exchange.status ?? '?'}`;
  return `${exchange.method ?? 'GET'} ${exchange.url ?? ''} -> ${outcome}`;
}

/** The failure text of a failed or errored test: message, requirements, property, exchanges. */
function failureText(test: TestResult): string {
  const lines = [
    test.message ?? '(no message)',
    '',
    `requirements: ${test.requirements.join(', ') || '(none)'}`,
  ];
  if (test.property) {
    const p = test.property;
    lines.push(
      `property: seed ${p.seed}${p.path ? `, path ${p.path}` : ''}, ${p.num_runs} runs`,
      ...(p.counterexample ? [`counterexample: ${p.counterexample}`] : []),
    );
  }
  if (test.exchanges.length > 0) {
    lines.push('exchanges (full requests and responses in report.html):');
    for (const exchange of test.exchanges) lines.push(`  ${exchangeLine(exchange)}`);
  }
  lines.push(`file: ${test.file}`);
  return lines.join('\n');
}

/**
 * Renders junit.xml: one `<testsuite>` per target (and channel), one `<testcase>` per test,
 * named by its full title (requirement IDs included). failed -> `<failure type="failed">`,
 * error -> `<failure type="error">`, skipped -> `<skipped>` holding the reason, warning -> passed
 * with the warning in `<system-out>` (CI stays green, the text stays visible), passed -> passed.
 *
 * @example
 * ```ts
 * const xml = renderJunit(buildModel(input));
 * ```
 */
export function renderJunit(model: ReportModel): string {
  const { doc } = model;
  const Reporter = require('mocha-junit-reporter') as JUnitReporterClass;
  const runner = new EventEmitter();
  const clock = { now: Date.parse(doc.started_at) || 0 };
  // The reporter stamps suites with `Date.now()`; this clock replays the recorded times.
  class RecordedDate extends Date {
    static override now(): number {
      return clock.now;
    }
  }
  const properties: Record<string, string> = {
    suite_version: doc.suite_version,
    seed: String(doc.seed),
    runs: String(doc.runs),
    incomplete: String(doc.incomplete),
    level: doc.level,
    verdict: doc.verdict,
    verdict_spec: doc.verdicts.spec.summary,
    verdict_profile: doc.verdicts.profile.summary,
    expected_failures: String(doc.counts.expected_failure),
  };
  const reporter = new Reporter(runner, { reporterOptions: { antMode: true }, Date: RecordedDate });
  // Fixed options, so environment variables meant for other mocha runs (MOCHA_FILE, JENKINS_MODE,
  // PROPERTIES, ...) cannot change or delete anything here.
  reporter._options = {
    mochaFile: '',
    attachments: false,
    antMode: true,
    antHostname: hostname(),
    jenkinsMode: false,
    properties,
    toConsole: false,
    rootSuiteTitle: 'cprc',
    testsuitesTitle: 'cprc',
    suiteTitleSeparatedBy: ' ',
    includePending: false,
    outputs: true,
  };
  reporter._generateSuiteTitle = (suite) => suite.title;
  let xml: string | undefined;
  reporter.writeXmlToDisk = (text) => {
    xml = text;
  };

  const root: FakeSuite = { title: '', root: true, tests: [], suites: [] };
  const groups = new Map<string, { suite: FakeSuite; results: TestResult[] }>();
  for (const result of doc.tests) {
    const name = groupName(result);
    let group = groups.get(name);
    if (!group) {
      group = { suite: { title: name, root: false, parent: root, tests: [], suites: [] }, results: [] };
      groups.set(name, group);
      root.suites.push(group.suite);
    }
    group.results.push(result);
  }

  runner.emit('start');
  for (const { suite, results } of groups.values()) {
    for (const result of results) {
      suite.tests.push({
        title: result.title,
        fullTitle: () => result.full_title,
        duration: result.duration_ms,
        parent: suite,
        slow: () => 75,
      });
    }
    runner.emit('suite', suite);
    results.forEach((result, index) => {
      const test = suite.tests[index] as FakeTest;
      clock.now += result.duration_ms;
      if (result.state === 'passed') {
        runner.emit('pass', test);
      } else if (result.expected_failure !== undefined) {
        test.consoleOutputs = [
          `expected failure (baseline: ${result.expected_failure}): ${result.message ?? '(no message)'}`,
          `requirements: ${result.requirements.join(', ') || '(none)'}`,
        ];
        runner.emit('pass', test);
      } else if (result.state === 'warning') {
        test.consoleOutputs = [
          `warning: ${result.message ?? '(no message)'}`,
          `requirements: ${result.requirements.join(', ') || '(none)'}`,
        ];
        runner.emit('pass', test);
      } else if (result.state === 'skipped') {
        // The reporter's own `pending` handler writes an empty <skipped/>; the reason belongs in it.
        runner.emit('pending', test);
        const testcase = reporter.getTestcaseData(test);
        const reason = reporter.removeInvalidCharacters(result.skip_reason ?? '(no reason given)');
        testcase.testcase.push({ skipped: `skipped: ${reason}` });
        reporter._testsuites.at(-1)?.testsuite.push(testcase);
      } else {
        const err: FakeError = {
          name: result.state,
          message: result.message ?? '(no message)',
          stack: failureText(result),
        };
        runner.emit('fail', test, err);
      }
      runner.emit('test end', test);
    });
    runner.emit('suite end', suite);
  }
  runner.emit('end');
  if (xml === undefined)
    throw new CprcError('CPRC_INTERNAL', 'mocha-junit-reporter produced no junit.xml on "end"');
  return xml;
}
