/**
 * The interoperability matrix (`cprc matrix`): implementations (one column per results.json,
 * named by the run configuration's `name`) against requirements, with each verdict, a link to
 * the run's evidence, where the implementations differ and the requirements nobody passes.
 * Rendered as Markdown and as an inert HTML page (no script; a Content-Security-Policy that
 * allows only its own inline style), whatever the inputs contain.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import type { ConformanceResults } from '../model/results.js';
import { escapeHtml, mdText, terminalLine, visibleText } from '../reporters/index.js';

/** A verdict in a matrix cell: the run's requirement verdict, or `absent` (not in that run's catalog). */
export type MatrixVerdict = ConformanceResults['requirements'][number]['verdict'] | 'absent';

/** One implementation (one run). */
export interface MatrixColumn {
  /** Configured name (`name` of the run config), else the run's folder name; unique in the matrix. */
  name: string;
  /** Path of its results.json as given. */
  results: string;
  /** Link to its evidence, relative to the output folder: report.html beside results.json, else results.json. */
  evidence: string;
  /** Anchor ids found in that report.html, to link a requirement to its own row when it has one. */
  anchors: ReadonlySet<string>;
  suite_version: string;
  targets: string[];
  level?: string;
  /** Verdict at the level asked. */
  verdict: string;
  /** SPEC and PROFILE conformance verdicts (profile introduction), when the run states them. */
  spec_verdict?: string;
  profile_verdict?: string;
  started_at: string;
  incomplete: boolean;
}

/** One requirement (one row). */
export interface MatrixRow {
  id: string;
  level: string;
  kind: string;
  /** Verdict per column, in column order. */
  verdicts: MatrixVerdict[];
}

/** The whole matrix. */
export interface Matrix {
  columns: MatrixColumn[];
  /** Requirements at least one run tested (a verdict other than untested), in catalog order. */
  rows: MatrixRow[];
  /** Rows whose verdicts are not all the same. */
  differing: MatrixRow[];
  /** Rows no implementation passes (tested by at least one, passed by none). */
  nobodyPasses: MatrixRow[];
  /** Number of requirements no run tested. */
  untestedEverywhere: number;
  /** Notes (different suite versions, incomplete runs). */
  notes: string[];
}

/** One input of {@link buildMatrix}. */
export interface MatrixInput {
  /** Path of the results.json (as given on the command line). */
  path: string;
  doc: ConformanceResults;
}

/** A relative link that cannot be read as a URL scheme (`javascript:`), each segment percent-encoded. */
function safeHref(relativePath: string): string {
  const href = relativePath
    .split(sep)
    .map((segment) =>
      encodeURIComponent(segment).replace(/[()']/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`),
    )
    .join('/');
  return /^[^/]*:/.test(href) ? `./${href}` : href;
}

function anchorsOf(htmlPath: string): Set<string> {
  try {
    const html = readFileSync(htmlPath, 'utf8');
    return new Set([...html.matchAll(/\sid="([^"]{1,200})"/g)].map((m) => m[1] as string));
  } catch {
    return new Set();
  }
}

/** The anchor of requirement `id` in a report, when that report has one. */
function requirementAnchor(anchors: ReadonlySet<string>, id: string): string | undefined {
  for (const candidate of [id, `req-${id}`, `requirement-${id}`, `r-${id}`]) {
    if (anchors.has(candidate)) return candidate;
  }
  const lower = id.toLowerCase();
  for (const candidate of [lower, `req-${lower}`, `requirement-${lower}`]) {
    if (anchors.has(candidate)) return candidate;
  }
  return undefined;
}

function configuredName(doc: ConformanceResults): string | undefined {
  const named =
    (doc as { name?: unknown }).name ?? (doc.config_summary as { name?: unknown } | undefined)?.name;
  return typeof named === 'string' && named.trim() !== '' ? named.trim() : undefined;
}

/**
 * Builds the matrix of the given runs; `outDir` is where the pages will be written (links are
 * relative to it).
 *
 * @example
 * ```ts
 * const m = buildMatrix([{ path: 'a/results.json', doc: a }, { path: 'b/results.json', doc: b }], 'matrix');
 * m.nobodyPasses.map((row) => row.id);
 * ```
 */
export function buildMatrix(inputs: readonly MatrixInput[], outDir: string): Matrix {
  const used = new Set<string>();
  const columns: MatrixColumn[] = inputs.map(({ path, doc }) => {
    const base = configuredName(doc) ?? (basename(dirname(resolve(path))) || path);
    let name = base;
    for (let n = 2; used.has(name); n += 1) name = `${base} (${n})`;
    used.add(name);
    const html = join(dirname(resolve(path)), 'report.html');
    const hasHtml = existsSync(html);
    return {
      name,
      results: path,
      evidence: safeHref(relative(resolve(outDir), hasHtml ? html : resolve(path))),
      anchors: hasHtml ? anchorsOf(html) : new Set<string>(),
      suite_version: doc.suite_version,
      targets: [...doc.targets],
      ...(doc.level ? { level: doc.level } : {}),
      verdict: doc.verdict,
      ...(doc.verdicts?.spec?.verdict ? { spec_verdict: doc.verdicts.spec.verdict } : {}),
      ...(doc.verdicts?.profile?.verdict ? { profile_verdict: doc.verdicts.profile.verdict } : {}),
      started_at: doc.started_at,
      incomplete: doc.incomplete,
    };
  });

  const order: string[] = [];
  const meta = new Map<string, { level: string; kind: string }>();
  for (const { doc } of inputs) {
    for (const r of doc.requirements) {
      if (!meta.has(r.id)) {
        order.push(r.id);
        meta.set(r.id, { level: r.level, kind: r.kind });
      }
    }
  }
  const verdictMaps = inputs.map(({ doc }) => new Map(doc.requirements.map((r) => [r.id, r.verdict])));
  const all: MatrixRow[] = order.map((id) => ({
    id,
    level: meta.get(id)?.level ?? '?',
    kind: meta.get(id)?.kind ?? '?',
    verdicts: verdictMaps.map((m) => m.get(id) ?? 'absent'),
  }));
  const tested = (v: MatrixVerdict): boolean => v !== 'untested' && v !== 'absent';
  const rows = all.filter((row) => row.verdicts.some(tested));
  const notes: string[] = [];
  const versions = [...new Set(columns.map((c) => c.suite_version))];
  if (versions.length > 1) notes.push(`the runs used different suite versions (${versions.join(', ')})`);
  for (const c of columns) if (c.incomplete) notes.push(`the run of ${c.name} is incomplete`);
  return {
    columns,
    rows,
    differing: rows.filter((row) => new Set(row.verdicts).size > 1),
    nobodyPasses: rows.filter((row) => !row.verdicts.includes('passed')),
    untestedEverywhere: all.length - rows.length,
    notes,
  };
}

const MARK: Record<MatrixVerdict, string> = {
  passed: 'pass',
  failed: 'FAIL',
  error: 'ERROR',
  warning: 'warn',
  skipped: 'skip',
  untested: '–',
  absent: 'n/a',
};

/** Markdown text of a value from an input (names, IDs): one inert line. */
function md(text: string): string {
  return mdText(terminalLine(text), 120);
}

/** PASS, FAIL or a dash for a level verdict. */
function word(verdict: string | undefined): string {
  return verdict === 'pass' ? 'PASS' : verdict === 'fail' ? 'FAIL' : '–';
}

/** The matrix as Markdown (GitHub-flavoured tables). */
export function renderMatrixMarkdown(m: Matrix): string {
  const out: string[] = ['# CPR interoperability matrix', ''];
  out.push(
    '| implementation | targets | suite | level | verdict | SPEC | PROFILE | started | evidence |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const c of m.columns) {
    out.push(
      `| ${md(c.name)} | ${md(c.targets.join(', '))} | ${md(c.suite_version)} | ${md(c.level ?? 'profile')} | ` +
        `${c.verdict === 'pass' ? 'PASS' : 'FAIL'}${c.incomplete ? ' (incomplete)' : ''} | ${word(c.spec_verdict)} | ${word(c.profile_verdict)} | ` +
        `${md(c.started_at)} | [report](${c.evidence}) |`,
    );
  }
  for (const note of m.notes) out.push('', `Note: ${md(note)}.`);
  const table = (rows: MatrixRow[]): void => {
    out.push(
      `| requirement | level | kind | ${m.columns.map((c) => md(c.name)).join(' | ')} |`,
      `|---|---|---|${m.columns.map(() => '---').join('|')}|`,
    );
    for (const row of rows) {
      out.push(
        `| \`${md(row.id)}\` | ${md(row.level)} | ${md(row.kind)} | ${row.verdicts.map((v) => MARK[v]).join(' | ')} |`,
      );
    }
  };
  out.push('', `## Requirements nobody passes (${m.nobodyPasses.length})`, '');
  if (m.nobodyPasses.length) table(m.nobodyPasses);
  else out.push('Every requirement some run tested is passed by at least one implementation.');
  out.push('', `## Where the implementations differ (${m.differing.length})`, '');
  if (m.differing.length) table(m.differing);
  else out.push('Every implementation has the same verdict on every requirement.');
  out.push('', `## All requirements tested by at least one run (${m.rows.length})`, '');
  table(m.rows);
  out.push(
    '',
    `${m.untestedEverywhere} requirements of the catalog were tested by no run. ` +
      "Legend: pass, FAIL, ERROR, warn (a SHOULD or a PROFILE rule at level spec), skip (not run, with a reason in the report), – (no check of that run names it), n/a (not in that run's catalog).",
  );
  return `${out.join('\n')}\n`;
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 16px 48px;color:#1b1b1b}
table{border-collapse:collapse;margin:6px 0}th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f4f4f4;position:sticky;top:0}code{font:12px/1.4 ui-monospace,monospace}
.passed{color:#1a7f37}.failed{color:#cf222e;font-weight:600}.error{color:#8250df;font-weight:600}.warning{color:#9a6700}
.skipped,.untested,.absent{color:#6e7781}h2{margin-top:28px;border-bottom:1px solid #ccc}
`;

/** The matrix as one self-contained HTML page: no script, nothing loaded, everything from the inputs escaped. */
export function renderMatrixHtml(m: Matrix): string {
  const e = (text: string): string => escapeHtml(visibleText(text, { keepLineBreaks: false }));
  const styleHash = `'sha256-${createHash('sha256').update(STYLE, 'utf8').digest('base64')}'`;
  const csp = `default-src 'none'; style-src ${styleHash}; img-src 'none'; base-uri 'none'; form-action 'none'`;
  const out: string[] = [
    '<!doctype html><html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${e(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<title>CPR interoperability matrix</title>',
    `<style>${STYLE}</style></head><body>`,
    '<h1>CPR interoperability matrix</h1>',
    '<table><tr><th>implementation</th><th>targets</th><th>suite</th><th>level</th><th>verdict</th><th>SPEC</th><th>PROFILE</th><th>started</th><th>evidence</th></tr>',
  ];
  for (const c of m.columns) {
    out.push(
      `<tr><td>${e(c.name)}</td><td>${e(c.targets.join(', '))}</td><td>${e(c.suite_version)}</td><td>${e(c.level ?? 'profile')}</td>` +
        `<td class="${c.verdict === 'pass' ? 'passed' : 'failed'}">${c.verdict === 'pass' ? 'PASS' : 'FAIL'}${c.incomplete ? ' (incomplete)' : ''}</td>` +
        `<td>${word(c.spec_verdict)}</td><td>${word(c.profile_verdict)}</td>` +
        `<td>${e(c.started_at)}</td><td><a href="${e(c.evidence)}" rel="noopener noreferrer">report</a></td></tr>`,
    );
  }
  out.push('</table>');
  for (const note of m.notes) out.push(`<p>Note: ${e(note)}.</p>`);
  const cell = (c: MatrixColumn, id: string, v: MatrixVerdict): string => {
    const anchor = requirementAnchor(c.anchors, id);
    const href = anchor ? `${c.evidence}#${encodeURIComponent(anchor)}` : c.evidence;
    return v === 'absent' || v === 'untested'
      ? `<td class="${v}">${e(MARK[v])}</td>`
      : `<td class="${v}"><a href="${e(href)}" rel="noopener noreferrer" class="${v}">${e(MARK[v])}</a></td>`;
  };
  const table = (rows: MatrixRow[], anchorPrefix: string): void => {
    out.push(
      `<table><tr><th>requirement</th><th>level</th><th>kind</th>${m.columns.map((c) => `<th>${e(c.name)}</th>`).join('')}</tr>`,
    );
    for (const row of rows) {
      out.push(
        `<tr id="${e(`${anchorPrefix}${row.id}`)}"><td><code>${e(row.id)}</code></td><td>${e(row.level)}</td><td>${e(row.kind)}</td>` +
          `${row.verdicts.map((v, i) => cell(m.columns[i] as MatrixColumn, row.id, v)).join('')}</tr>`,
      );
    }
    out.push('</table>');
  };
  out.push(`<h2 id="nobody-passes">Requirements nobody passes (${m.nobodyPasses.length})</h2>`);
  if (m.nobodyPasses.length) table(m.nobodyPasses, 'nobody-');
  else out.push('<p>Every requirement some run tested is passed by at least one implementation.</p>');
  out.push(`<h2 id="differing">Where the implementations differ (${m.differing.length})</h2>`);
  if (m.differing.length) table(m.differing, 'differs-');
  else out.push('<p>Every implementation has the same verdict on every requirement.</p>');
  out.push(`<h2 id="all">All requirements tested by at least one run (${m.rows.length})</h2>`);
  table(m.rows, 'req-');
  out.push(
    `<p>${m.untestedEverywhere} requirements of the catalog were tested by no run. Legend: pass, FAIL, ERROR, warn (a SHOULD, or a PROFILE rule at level spec), skip (not run; the reason is in the report), – (no check of that run names it), n/a (not in that run's catalog).</p>`,
    '</body></html>',
  );
  return `${out.join('\n')}\n`;
}
