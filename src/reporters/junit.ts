/**
 * junit.xml, written with xmlbuilder2 (a maintained XML writer, through its public API) in the
 * shape of the Jenkins JUnit XSD: `<testsuites>` of one `<testsuite>` per target (and wallet
 * channel), one `<testcase>` per test, children in the XSD's order (skipped, error, failure,
 * system-out). Characters XML 1.0 cannot carry become visible escapes; every other character,
 * those outside the BMP included, is kept.
 */
import { hostname } from 'node:os';
import { create } from 'xmlbuilder2';
import type { TestResult } from '../model/results.js';
import type { ReportModel } from './model.js';
import { visibleEscape } from './safe-text.js';

/** Testsuite grouping: target, and channel when the target has several. */
function groupName(test: TestResult): string {
  return test.channel ? `${test.target} (${test.channel})` : test.target;
}

/**
 * The `classname` of a test: `<target>[.<channel>].<section file>`, e.g. `payee.section-2_10`
 * or `wallet.http.cpr-4-derivation`. Dots inside a part become `_`, so Jenkins (which splits
 * package and class at the last dot) never cuts a section number such as `2.10`.
 * @example
 * ```ts
 * junitClassname({ target: 'payee', file: 'payee/section-2.10.js' }); // 'payee.section-2_10'
 * ```
 */
export function junitClassname(test: Pick<TestResult, 'target' | 'file' | 'channel'>): string {
  const base = (test.file.split('/').at(-1) ?? test.file).replace(/\.[cm]?js$/, '');
  const part = (s: string): string => s.replace(/[.\s]+/g, '_') || '_';
  return [test.target, ...(test.channel ? [test.channel] : []), base].map(part).join('.');
}

/**
 * The `name` of a test: its requirement IDs first, then its title (the check's normative
 * sentence) and its wallet channel, e.g. `[CPR-5-TOKEN-SINGLE-USE] a second fetch is refused`.
 */
export function junitName(test: Pick<TestResult, 'title' | 'requirements' | 'channel'>): string {
  const ids = `[${test.requirements.join(' ')}]`;
  const title = test.title.startsWith('[') ? test.title.replace(/^\[[^\]]*\]\s*/, '') : test.title;
  return `${test.requirements.length > 0 ? `${ids} ` : ''}${title}${test.channel ? ` (${test.channel})` : ''}`;
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
    `check: ${test.id}`,
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
  lines.push(`file: ${test.file}`, `report: report.html#check-${test.id}`);
  return lines.join('\n');
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(3);
}

/**
 * Renders junit.xml: one `<testsuite>` per target (and channel), one `<testcase>` per test named
 * requirement IDs first ({@link junitName}), with a `classname` Jenkins does not split inside a
 * section number ({@link junitClassname}). failed -> `<failure type="failed">`, error ->
 * `<error type="error">`, skipped -> `<skipped>` holding the reason, warning and expected
 * failure -> passed with the text in `<system-out>` (CI stays green, the text stays visible).
 *
 * @example
 * ```ts
 * const xml = renderJunit(buildModel(input));
 * ```
 */
export function renderJunit(model: ReportModel): string {
  const { doc } = model;
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
  const groups = new Map<string, TestResult[]>();
  for (const test of doc.tests) {
    const name = groupName(test);
    groups.set(name, [...(groups.get(name) ?? []), test]);
  }
  const failedOf = (tests: readonly TestResult[]): number =>
    tests.filter((t) => t.state === 'failed' && t.expected_failure === undefined).length;
  const erroredOf = (tests: readonly TestResult[]): number =>
    tests.filter((t) => t.state === 'error' && t.expected_failure === undefined).length;
  const time = (tests: readonly TestResult[]): number => tests.reduce((n, t) => n + t.duration_ms, 0);

  const root = create({
    version: '1.0',
    encoding: 'UTF-8',
    invalidCharReplacement: (c: string) => visibleEscape(c.codePointAt(0) ?? 0),
  }).ele('testsuites', {
    name: 'cprc',
    tests: String(doc.tests.length),
    failures: String(failedOf(doc.tests)),
    errors: String(erroredOf(doc.tests)),
    time: seconds(time(doc.tests)),
  });
  let started = Date.parse(doc.started_at) || 0;
  let index = 0;
  for (const [name, tests] of groups) {
    const suite = root.ele('testsuite', {
      name,
      tests: String(tests.length),
      failures: String(failedOf(tests)),
      errors: String(erroredOf(tests)),
      skipped: String(tests.filter((t) => t.state === 'skipped').length),
      time: seconds(time(tests)),
      timestamp: new Date(started).toISOString().slice(0, 19),
      hostname: hostname(),
      id: String(index++),
      package: tests[0]?.target ?? name,
    });
    started += time(tests);
    const props = suite.ele('properties');
    for (const [key, value] of Object.entries(properties)) props.ele('property', { name: key, value });
    for (const test of tests) {
      const testcase = suite.ele('testcase', {
        name: junitName(test),
        classname: junitClassname(test),
        time: seconds(test.duration_ms),
      });
      if (test.expected_failure !== undefined) {
        testcase
          .ele('system-out')
          .txt(
            `expected failure (baseline: ${test.expected_failure}): ${test.message ?? '(no message)'}\n` +
              `requirements: ${test.requirements.join(', ') || '(none)'}`,
          );
      } else if (test.state === 'skipped') {
        testcase.ele('skipped').txt(`skipped: ${test.skip_reason ?? '(no reason given)'}`);
      } else if (test.state === 'warning') {
        testcase
          .ele('system-out')
          .txt(
            `warning: ${test.message ?? '(no message)'}\nrequirements: ${test.requirements.join(', ') || '(none)'}`,
          );
      } else if (test.state === 'failed' || test.state === 'error') {
        const message = (test.message ?? '(no message)').split('\n')[0] ?? '';
        testcase
          .ele(test.state === 'failed' ? 'failure' : 'error', { message, type: test.state })
          .txt(failureText(test));
      }
    }
  }
  return `${root.end({ prettyPrint: true })}\n`;
}
