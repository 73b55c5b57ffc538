/**
 * report.html: one self-contained offline page for a standards reviewer. Inline CSS and a few
 * lines of inline JS (filtering) pinned by a Content-Security-Policy with their hashes, so nothing
 * else can run or load even if a hostile body slipped through; everything from a target is
 * escaped.
 */
import { createHash } from 'node:crypto';
import type { Requirement } from '../catalog/index.js';
import type { Exchange, TestResult } from '../model/results.js';
import type { ReportModel } from './model.js';
import { commandLine, commandNotRecorded, curlCommand, stdioCommand } from './reproduce.js';
import { partOfRun } from './summary.js';
import type { RequirementVerdict } from './types.js';
import { waitSummary } from './waits.js';

/**
 * Escapes text for HTML element content and quoted attribute values; control characters other
 * than tab and line breaks become U+FFFD.
 *
 * @example
 * ```ts
 * escapeHtml('</script><img onerror=x>'); // '&lt;/script&gt;&lt;img onerror=x&gt;'
 * ```
 */
export function escapeHtml(text: string): string {
  return text
    .replace(/[^\P{Cc}\t\n\r]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const e = escapeHtml;

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1200px;padding:0 16px 48px;color:#1b1b1b}
h1{margin:24px 0 8px}h2{margin-top:32px;border-bottom:1px solid #ccc}h3{margin:20px 0 6px}
table{border-collapse:collapse;width:100%;margin:6px 0}th,td{border:1px solid #ddd;padding:4px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4}code,pre{font:12px/1.4 ui-monospace,monospace}pre{background:#f7f7f7;border:1px solid #e2e2e2;padding:8px;overflow:auto;white-space:pre-wrap;word-break:break-all}
.v{font-weight:600;white-space:nowrap}.passed{color:#1a7f37}.failed{color:#cf222e}.error{color:#8250df}.warning{color:#9a6700}.skipped,.untested{color:#6e7781}
.banner{padding:10px 14px;border-radius:6px;margin:12px 0;font-weight:600}.banner.incomplete{background:#fff8c5;border:1px solid #d4a72c}
.verdict-pass{color:#1a7f37}.verdict-fail{color:#cf222e}dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px}dl.meta dt{font-weight:600}
.filters label{margin-right:12px;white-space:nowrap}article.failure{border:1px solid #ddd;border-radius:6px;padding:8px 12px;margin:12px 0}
.hidden{display:none}.muted{color:#6e7781}details>summary{cursor:pointer;font-weight:600;margin:8px 0}
`;

const SCRIPT = `
(function(){
  var boxes=document.querySelectorAll('input[data-filter]');
  function apply(){
    var on={};boxes.forEach(function(b){on[b.getAttribute('data-filter')]=b.checked;});
    document.querySelectorAll('tr[data-verdict]').forEach(function(r){
      r.classList.toggle('hidden',!on[r.getAttribute('data-verdict')]);
    });
  }
  boxes.forEach(function(b){b.addEventListener('change',apply);});
  apply();
})();
`;

/**
 * Why a requirement has no test in this run, escaped: untestable (the catalog's reason), checked
 * elsewhere (`suites/catalog/coverage.json`: checks of targets not in this run, or the validator
 * modules, codec and schemas that declare it), or no check yet.
 */
function uncoveredReason(
  requirement: Pick<Requirement, 'id' | 'untestable'>,
  coverage: ReportModel['coverage'],
  incomplete: boolean,
): string {
  if (requirement.untestable) {
    return `untestable: ${e(requirement.untestable)}`;
  }
  const covered = coverage?.requirements[requirement.id];
  const elsewhere = [...(covered?.checks ?? []), ...(covered?.modules ?? [])];
  if (elsewhere.length > 0) {
    return `no test of this run names it; coverage.json lists: ${elsewhere.map((c) => e(c)).join('; ')}`;
  }
  return incomplete ? 'no test ran for it (the run is incomplete), or no check yet' : 'no check yet';
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

function verdictCell(verdict: string): string {
  return `<span class="v ${e(verdict)}">${e(verdict)}</span>`;
}

function headersText(headers: Exchange['request_headers']): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}: ${Array.isArray(value) ? value.join(', ') : value}`)
    .join('\n');
}

/** Bodies at least this long are written once per report; later copies link to the first. */
const SHARED_BODY_MIN = 256;

/**
 * Writes each long body once: the first time as a `<pre id="body-N">`, later as a link to it
 * (a failing run repeats the same CPR or error body across checks and exchanges).
 */
class BodyStore {
  private readonly seen = new Map<string, string>();
  pre(text: string, label: string): string {
    if (text.length < SHARED_BODY_MIN) return `<pre>${e(text)}</pre>`;
    const known = this.seen.get(text);
    if (known)
      return `<p class="muted">${e(label)}: the same ${text.length} characters as <a href="#${known}">this body</a>.</p>`;
    const id = `body-${this.seen.size + 1}`;
    this.seen.set(text, id);
    return `<pre id="${id}">${e(text)}</pre>`;
  }
}

function exchangeHtml(exchange: Exchange, index: number, model: ReportModel, bodies: BodyStore): string {
  const parts: string[] = [];
  if (exchange.failing) parts.push('<p><strong>The failing exchange of the counterexample.</strong></p>');
  else if (exchange.counterexample) parts.push('<p class="muted">Exchange of the counterexample replay.</p>');
  const replay =
    exchange.kind === 'http'
      ? curlCommand(exchange, model.caFile)
      : stdioCommand(exchange, model.walletCommand);
  if (exchange.kind === 'http' && replay) {
    // the curl line is the request (method, URL, headers, body): written once
    parts.push(
      `<h5>Request (as a curl command that reproduces it)</h5><pre>${e(replay)}</pre>` +
        (replay.includes('[redacted]')
          ? '<p class="muted">Replace each [redacted] value with your own credential.</p>'
          : ''),
    );
  }
  if (exchange.kind === 'http') {
    const request = [
      `${exchange.method ?? 'GET'} ${exchange.url ?? ''}`,
      headersText(exchange.request_headers),
    ]
      .filter((line) => line !== '')
      .join('\n');
    if (!replay) {
      parts.push(
        `<h5>Request</h5><pre>${e(request)}</pre>${exchange.request_body !== undefined ? bodies.pre(exchange.request_body, 'request body') : ''}`,
      );
    }
    if (exchange.status !== undefined || exchange.response_body !== undefined) {
      const head = [`HTTP ${exchange.status ?? '?'}`, headersText(exchange.response_headers)].filter(
        (l) => l !== '',
      );
      parts.push(
        `<h5>Response</h5><pre>${e(head.join('\n'))}</pre>${exchange.response_body !== undefined ? bodies.pre(exchange.response_body, 'response body') : ''}`,
      );
    }
  } else {
    parts.push(`<h5>stdin</h5>${bodies.pre(exchange.request_body ?? '', 'stdin')}`);
    if (exchange.response_body !== undefined)
      parts.push(`<h5>stdout</h5>${bodies.pre(exchange.response_body, 'stdout')}`);
  }
  if (exchange.error) parts.push(`<p><strong>Transport error:</strong> ${e(exchange.error)}</p>`);
  if (replay && exchange.kind !== 'http') {
    parts.push(
      `<h5>Reproduce</h5><pre>${e(replay)}</pre>` +
        (replay.includes('[redacted]')
          ? '<p class="muted">Replace each [redacted] value with your own credential.</p>'
          : ''),
    );
  }
  return `<h4>Exchange ${index + 1} (${e(exchange.kind)}, ${e(String(exchange.duration_ms))} ms)</h4>${parts.join('')}`;
}

function failureHtml(test: TestResult, model: ReportModel, anchor: string, bodies: BodyStore): string {
  const property = test.property
    ? `<h4>Property</h4><dl class="meta"><dt>seed</dt><dd><code>${e(String(test.property.seed))}</code></dd>` +
      (test.property.path !== undefined
        ? `<dt>path</dt><dd><code>${e(test.property.path)}</code></dd>`
        : '') +
      `<dt>runs</dt><dd>${e(String(test.property.num_runs))}</dd>` +
      (test.property.counterexample !== undefined
        ? `<dt>counterexample</dt><dd><pre>${e(test.property.counterexample)}</pre></dd>`
        : '') +
      (test.property.error !== undefined
        ? `<dt>assertion that failed</dt><dd><pre>${e(test.property.error)}</pre></dd>`
        : '') +
      `</dl><p class="muted">Replay with fast-check: <code>${e(
        `fc.assert(property, { seed: ${test.property.seed}${test.property.path !== undefined ? `, path: ${JSON.stringify(test.property.path)}` : ''}, endOnFailure: true })`,
      )}</code>, or run the whole suite again with the seed below.</p>`
    : '';
  const exchanges =
    test.exchanges.length > 0
      ? test.exchanges.map((exchange, index) => exchangeHtml(exchange, index, model, bodies)).join('')
      : '<p class="muted">No exchange was recorded for this test.</p>';
  return (
    `<article class="failure" id="${anchor}"><h3>${verdictCell(test.state)} ${e(test.title)}</h3>` +
    `<dl class="meta"><dt>target</dt><dd>${e(test.target)}${test.channel ? ` (${e(test.channel)})` : ''}</dd>` +
    (test.failure_level ? `<dt>level of what failed</dt><dd>${e(test.failure_level)}</dd>` : '') +
    (test.expected_failure !== undefined
      ? `<dt>expected failure</dt><dd>listed in the baseline: ${e(test.expected_failure)}</dd>`
      : '') +
    `<dt>requirements</dt><dd>${test.requirements.map((id) => `<a href="#${reqAnchor(id)}"><code>${e(id)}</code></a>`).join(', ') || '(none)'}</dd>` +
    `<dt>file</dt><dd><code>${e(test.file)}</code></dd><dt>test id</dt><dd><code>${e(test.id)}</code></dd></dl>` +
    `<pre>${e(test.message ?? '(no message)')}</pre>${property}${exchanges}</article>`
  );
}

/** Stable anchor of a requirement: `req-<ID>` (linkable from an issue tracker). */
export function reqAnchor(id: string): string {
  return `req-${e(id)}`;
}

/**
 * Stable anchors of the tests: `check-<check id>` (e.g. `check-payee/token-reuse`), with `-2`,
 * `-3`... for a check id that repeats in one run.
 */
export function checkAnchors(tests: readonly TestResult[]): Map<TestResult, string> {
  const used = new Map<string, number>();
  return new Map(
    tests.map((test) => {
      const n = (used.get(test.id) ?? 0) + 1;
      used.set(test.id, n);
      return [test, `check-${e(test.id)}${n > 1 ? `-${n}` : ''}`];
    }),
  );
}

/** Natural order of section numbers ("2.10" after "2.9"). */
function bySection(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

function requirementRows(
  requirements: readonly Requirement[],
  verdicts: Map<string, RequirementVerdict>,
  covering: Map<string, TestResult[]>,
  anchors: Map<TestResult, string>,
): string {
  return requirements
    .map((requirement) => {
      const verdict = verdicts.get(requirement.id);
      const state = verdict?.verdict ?? 'untested';
      const links = (covering.get(requirement.id) ?? [])
        .map((test) => `<a href="#${anchors.get(test)}" class="${e(test.state)}">${e(test.state)}</a>`)
        .join(' ');
      const why =
        state === 'untested' ? `<a href="#uncovered-${e(requirement.id)}" class="muted">why</a>` : links;
      return (
        `<tr id="${reqAnchor(requirement.id)}" data-verdict="${e(state)}"><td><code>${e(requirement.id)}</code></td><td>${e(requirement.level)}</td>` +
        `<td>${e(requirement.kind)}</td><td>${verdictCell(state)}</td><td>${why}</td><td>${e(requirement.text)}</td></tr>`
      );
    })
    .join('');
}

/**
 * Renders report.html: verdict and counts; first every failure and error with its exchanges, a
 * curl (or stdin) line that reproduces each request, and the property seed and counterexample;
 * then the verdict of every requirement of the targets run grouped by source and section
 * (SPEC/PROFILE, MUST/SHOULD/MAY, filterable by verdict; those of other targets collapsed, by
 * ID), the requirements no test covers and why, the ambiguity register with the tool's reading,
 * and the list of all tests, passed ones collapsed (`<details>`, no script needed). Stable
 * anchors: `#req-<ID>`, `#check-<check id>`, `#amb-<ID>`, `#uncovered-<ID>`. A long body is
 * written once; later copies link to it.
 *
 * @example
 * ```ts
 * const html = renderHtml(buildModel(input));
 * ```
 */
export function renderHtml(model: ReportModel): string {
  const { doc } = model;
  const verdicts = new Map(doc.requirements.map((requirement) => [requirement.id, requirement]));
  // Stable anchors: #check-<check id>, #req-<requirement ID>.
  const anchors = checkAnchors(doc.tests);
  const bodies = new BodyStore();
  const covering = new Map<string, TestResult[]>();
  for (const test of doc.tests) {
    for (const id of new Set(test.requirements)) covering.set(id, [...(covering.get(id) ?? []), test]);
  }
  const out: string[] = [];
  const csp = `default-src 'none'; style-src ${sha256(STYLE)}; script-src ${sha256(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`;
  out.push(
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${e(csp)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>CPR conformance: ${doc.verdict === 'pass' ? 'PASS' : 'FAIL'} (${e(doc.level)})</title>`,
    `<style>${STYLE}</style></head><body>`,
    `<h1>CPR conformance: <span class="verdict-${doc.verdict}">${doc.verdict === 'pass' ? 'PASS' : 'FAIL'}</span> (${e(doc.level)})</h1>`,
    `<p>${e(String(doc.verdicts[doc.level].must_exercised))} of ${e(String(doc.verdicts[doc.level].must_applicable))} applicable MUST requirements exercised at level ${e(doc.level)}.</p>`,
  );
  if (doc.incomplete) {
    out.push(
      `<div class="banner incomplete">Incomplete run: ${e(doc.incomplete_reason ?? 'the run was interrupted')}. ` +
        `Only the ${doc.counts.total} tests that finished are reported; the verdict is FAIL until a full run completes.</div>`,
    );
  }
  const part = partOfRun(doc);
  if (part) out.push(`<div class="banner incomplete">${e(part)}</div>`);
  const urls = Object.entries(doc.target_urls)
    .map(([target, endpoints]) =>
      Object.entries(endpoints ?? {})
        .map(
          ([name, value]) =>
            `${e(target)}.${e(name)}: <code>${e(Array.isArray(value) ? commandLine(value) : value)}</code>`,
        )
        .join('<br>'),
    )
    .join('<br>');
  out.push(
    '<dl class="meta">',
    `<dt>suite version</dt><dd>${e(doc.suite_version)}</dd>`,
    `<dt>targets</dt><dd>${e(doc.targets.join(', ') || '(none)')}</dd>`,
    urls ? `<dt>endpoints</dt><dd>${urls}</dd>` : '',
    `<dt>started</dt><dd>${e(doc.started_at)}</dd>`,
    `<dt>finished</dt><dd>${doc.finished_at ? e(doc.finished_at) : '(not finished)'}</dd>`,
    `<dt>seed</dt><dd><code>${e(String(doc.seed))}</code> (${e(String(doc.runs))} runs per property)</dd>`,
    `<dt>waits</dt><dd>${e(waitSummary(doc.tests))}</dd>`,
    model.commandRecorded
      ? `<dt>reproduce</dt><dd><code>${e(commandLine(model.command))}</code></dd>`
      : `<dt>command</dt><dd>${e(commandNotRecorded(doc))} A run with the same seed, runs, level and targets ` +
          `(give your configuration): <code>${e(commandLine(model.command))}</code></dd>`,
    '</dl>',
    `<p>Level asked: <strong>${e(doc.level)}</strong> (the verdict above and the exit status follow it)${doc.fail_on_skip ? '; --fail-on-skip' : ''}.</p>`,
    `<ul><li>SPEC conformance: <span class="verdict-${e(doc.verdicts.spec.verdict)}">${e(doc.verdicts.spec.summary)}</span></li>` +
      `<li>PROFILE conformance: <span class="verdict-${e(doc.verdicts.profile.verdict)}">${e(doc.verdicts.profile.summary)}</span></li></ul>`,
    '<table><tr><th>passed</th><th>failed</th><th>warning</th><th>skipped</th><th>error</th><th>expected failure</th><th>total</th></tr>',
    `<tr><td>${doc.counts.passed}</td><td>${doc.counts.failed}</td><td>${doc.counts.warning}</td><td>${doc.counts.skipped}</td>` +
      `<td>${doc.counts.error}</td><td>${doc.counts.expected_failure}</td><td>${doc.counts.total}</td></tr></table>`,
    ...(doc.baseline
      ? [
          `<h2 id="baseline">Baseline ${e(doc.baseline.file)}</h2><table><tr><th>entry</th><th>status</th><th>reason</th><th>tests</th></tr>` +
            doc.baseline.entries
              .map(
                (entry) =>
                  `<tr><td><code>${e([entry.check, entry.requirement].filter(Boolean).join(' '))}</code></td><td>${e(entry.status)}</td>` +
                  `<td>${e(entry.reason)}</td><td>${entry.tests.map((id) => `<code>${e(id)}</code>`).join(' ')}</td></tr>`,
              )
              .join('') +
            '</table>',
        ]
      : []),
    '<p><a href="#failures">Failures and errors</a> · <a href="#requirements">Requirements</a> · <a href="#uncovered">Not covered</a> · ' +
      '<a href="#ambiguities">Ambiguities</a> · <a href="#tests">All tests</a></p>',
  );

  // Failures and errors first, with what reproduces them.
  const failures = doc.tests.filter((test) => test.state === 'failed' || test.state === 'error');
  out.push(`<h2 id="failures">Failures and errors (${failures.length})</h2>`);
  if (failures.length === 0) out.push('<p>No test failed or errored.</p>');
  out.push(...failures.map((test) => failureHtml(test, model, anchors.get(test) ?? '', bodies)));
  if (failures.length > 0) {
    out.push(
      `<p class="muted">curl lines trust <code>${e(model.caFile)}</code> (the run configuration's <code>tls.ca_file</code>); ` +
        'the here-document adds a final line break to the body, which JSON ignores.</p>',
    );
  }

  // Requirements of the whole catalog, grouped by source and section.
  const states = ['failed', 'error', 'warning', 'passed', 'skipped', 'untested'];
  out.push(
    '<h2 id="requirements">Requirements</h2>',
    '<p>Verdict of every requirement of the targets run (those of other targets are listed, collapsed, at the end): failed if any of its tests failed; error if one errored; warning if one warned; ' +
      'passed when at least one test passed and none failed, errored or warned; skipped when all its tests were skipped; untested when no test names it. ' +
      'SPEC: the specification states it; PROFILE: a choice of the test profile.</p>',
    `<p class="filters">Show: ${states
      .map(
        (state) =>
          `<label><input type="checkbox" data-filter="${state}" checked> ${verdictCell(state)}</label>`,
      )
      .join('')}</p>`,
  );
  const applies = (requirement: Requirement): boolean =>
    requirement.actor === 'document'
      ? doc.targets.includes('payee') || doc.targets.includes('wallet')
      : doc.targets.includes(requirement.actor as never) ||
        (verdicts.get(requirement.id)?.tests.length ?? 0) > 0;
  const elsewhere = model.catalog.filter((requirement) => !applies(requirement));
  const sources = new Map<string, Map<string, Requirement[]>>();
  for (const requirement of model.catalog.filter(applies)) {
    const sections = sources.get(requirement.source) ?? new Map<string, Requirement[]>();
    sections.set(requirement.section, [...(sections.get(requirement.section) ?? []), requirement]);
    sources.set(requirement.source, sections);
  }
  const head =
    '<tr><th>ID</th><th>level</th><th>kind</th><th>verdict</th><th>tests</th><th>requirement</th></tr>';
  for (const [source, sections] of sources) {
    out.push(
      `<h3>${e(source)}${model.sourceTitles[source] ? `: ${e(model.sourceTitles[source])}` : ''}</h3>`,
    );
    for (const section of [...sections.keys()].sort(bySection)) {
      out.push(
        `<h4>§ ${e(section)}</h4><table>${head}${requirementRows(sections.get(section) ?? [], verdicts, covering, anchors)}</table>`,
      );
    }
  }
  if (model.catalog.length === 0) out.push('<p class="muted">The requirement catalog is empty.</p>');
  if (elsewhere.length > 0) {
    out.push(
      `<details id="other-targets"><summary>Requirements of targets not in this run (${elsewhere.length})</summary>` +
        '<p>' +
        elsewhere
          .map(
            (requirement) =>
              `<code id="${reqAnchor(requirement.id)}">${e(requirement.id)}</code> <span class="muted">${e(requirement.level)} ${e(requirement.kind)}</span>`,
          )
          .join(', ') +
        '</p></details>',
    );
  }
  if (doc.unknown_requirements.length > 0) {
    out.push(
      `<p><strong>Requirement IDs named by tests but missing from the catalog</strong> (a defect of the suite): ${doc.unknown_requirements
        .map((id) => `<code id="${reqAnchor(id)}">${e(id)}</code>`)
        .join(', ')}</p>`,
    );
  }

  // Requirements no test covers, and why.
  const uncovered = model.catalog.filter(
    (requirement) =>
      applies(requirement) && (verdicts.get(requirement.id)?.verdict ?? 'untested') === 'untested',
  );
  out.push(`<h2 id="uncovered">Requirements no test covers (${uncovered.length})</h2>`);
  if (uncovered.length === 0) {
    out.push('<p>Every requirement of the catalog is named by at least one test.</p>');
  } else {
    out.push(
      '<table><tr><th>ID</th><th>level</th><th>kind</th><th>why</th></tr>',
      ...uncovered.map(
        (requirement) =>
          `<tr id="uncovered-${e(requirement.id)}"><td><a href="#${reqAnchor(requirement.id)}"><code>${e(requirement.id)}</code></a></td><td>${e(requirement.level)}</td><td>${e(requirement.kind)}</td><td>${uncoveredReason(
            requirement,
            model.coverage,
            doc.incomplete,
          )}</td></tr>`,
      ),
      '</table>',
    );
  }

  // Ambiguity register: in full where it touches a requirement of this run, by ID elsewhere.
  const inRun = new Set(model.catalog.filter(applies).map((requirement) => requirement.id));
  const touching = model.ambiguities.filter(
    (ambiguity) => ambiguity.affects.length === 0 || ambiguity.affects.some((id) => inRun.has(id)),
  );
  const notTouching = model.ambiguities.filter((ambiguity) => !touching.includes(ambiguity));
  out.push(`<h2 id="ambiguities">Ambiguities in the specifications (${model.ambiguities.length})</h2>`);
  if (model.ambiguities.length === 0) {
    out.push('<p class="muted">The ambiguity register is empty.</p>');
  } else {
    out.push(
      '<table><tr><th>ID</th><th>section</th><th>specification text</th><th>problem</th><th>reading taken by this tool</th><th>level</th><th>affects</th></tr>',
      ...touching.map(
        (ambiguity) =>
          `<tr id="amb-${e(ambiguity.id)}"><td><code>${e(ambiguity.id)}</code></td><td>${e(ambiguity.section)}</td><td>${e(ambiguity.spec_text)}</td>` +
          `<td>${e(ambiguity.problem)}</td><td>${e(ambiguity.reading)}</td><td>${e(ambiguity.level ?? '')}</td>` +
          `<td>${e(ambiguity.affects.join(', '))}</td></tr>`,
      ),
      '</table>',
    );
    if (notTouching.length > 0) {
      out.push(
        `<details><summary>Entries about requirements of targets not in this run (${notTouching.length})</summary><ul>` +
          notTouching
            .map(
              (ambiguity) =>
                `<li id="amb-${e(ambiguity.id)}"><code>${e(ambiguity.id)}</code> (§ ${e(ambiguity.section)}): ${e(ambiguity.affects.join(', '))}</li>`,
            )
            .join('') +
          '</ul><p class="muted">Their full text is in suites/catalog/ambiguities.json.</p></details>',
      );
    }
  }

  // All tests: the ones that did not pass shown, the passed ones collapsed.
  const row = (test: TestResult): string => {
    const failing = test.state === 'failed' || test.state === 'error';
    const title = failing ? `<a href="#${anchors.get(test)}">${e(test.title)}</a>` : e(test.title);
    return (
      `<tr${failing ? '' : ` id="${anchors.get(test)}"`} data-verdict="${e(test.state)}"><td>${verdictCell(test.state)}</td>` +
      `<td>${e(test.target)}${test.channel ? ` (${e(test.channel)})` : ''}</td><td>${title}</td>` +
      `<td>${test.requirements.map((id) => (test.state === 'passed' ? e(id) : `<a href="#${reqAnchor(id)}"><code>${e(id)}</code></a>`)).join(' ')}</td><td>${e(String(test.duration_ms))}</td>` +
      `<td>${e(test.state === 'skipped' ? (test.skip_reason ?? '') : (test.message ?? ''))}</td></tr>`
    );
  };
  const testHead =
    '<table><tr><th>state</th><th>target</th><th>test</th><th>requirements</th><th>ms</th><th>message or skip reason</th></tr>';
  const passed = doc.tests.filter((test) => test.state === 'passed');
  const others = doc.tests.filter((test) => test.state !== 'passed');
  out.push(
    `<h2 id="tests">All tests (${doc.tests.length})</h2>`,
    others.length > 0 ? `${testHead}${others.map(row).join('')}</table>` : '<p>Every test passed.</p>',
    passed.length > 0
      ? `<details id="passed"><summary>Passed checks (${passed.length})</summary>${testHead}${passed.map(row).join('')}</table></details>`
      : '',
    `<script>${SCRIPT}</script></body></html>\n`,
  );
  return out.join('\n');
}
