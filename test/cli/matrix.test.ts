import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMatrix, renderMatrixHtml, renderMatrixMarkdown } from '../../src/results/matrix.js';
import { resultsDoc } from './_results.js';

const ROOT = join(import.meta.dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'cprc.js');
let dir: string;

const HOSTILE = 'Evil <script>alert(1)</script> | "x" \u202Egnp.exe\u001b[2J';
const reference = resultsDoc(
  [
    { id: 'payee/version', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
    { id: 'payee/token-single-use', state: 'passed', requirements: ['CPR-5-TOKEN-SINGLE-USE'] },
    { id: 'payee/error-envelope', state: 'failed', requirements: ['PRF-4-ERROR-ENVELOPE'] },
  ],
  { name: 'Reference' },
);
const variant = resultsDoc(
  [
    { id: 'payee/version', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
    { id: 'payee/token-single-use', state: 'passed', requirements: ['CPR-5-TOKEN-SINGLE-USE'] },
    { id: 'payee/error-envelope', state: 'skipped', requirements: ['PRF-4-ERROR-ENVELOPE'] },
  ],
  { config_summary: { name: HOSTILE } },
);
const broken = resultsDoc([
  { id: 'payee/version', state: 'passed', requirements: ['CPR-2.1-VERSION'] },
  { id: 'payee/token-single-use', state: 'failed', requirements: ['CPR-5-TOKEN-SINGLE-USE'] },
  { id: 'payee/error-envelope', state: 'error', requirements: ['PRF-4-ERROR-ENVELOPE'] },
]);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-matrix-'));
  for (const [folder, doc] of [
    ['reference', reference],
    ['variant', variant],
    ['javascript:alert(1)', broken],
  ] as const) {
    mkdirSync(join(dir, folder));
    writeFileSync(join(dir, folder, 'results.json'), JSON.stringify(doc));
  }
  writeFileSync(join(dir, 'reference', 'report.html'), '<h2 id="req-CPR-2.1-VERSION">x</h2>');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('interop matrix', () => {
  const inputs = () => [
    { path: join(dir, 'reference', 'results.json'), doc: reference },
    { path: join(dir, 'variant', 'results.json'), doc: variant },
    { path: join(dir, 'javascript:alert(1)', 'results.json'), doc: broken },
  ];

  it('names the implementations, the rows that differ and the requirements nobody passes', () => {
    const m = buildMatrix(inputs(), join(dir, 'out'));
    expect(m.columns.map((c) => c.name)).toEqual(['Reference', HOSTILE, 'javascript:alert(1)']);
    const row = (id: string) => m.rows.find((r) => r.id === id)?.verdicts;
    expect(row('CPR-2.1-VERSION')).toEqual(['passed', 'passed', 'passed']);
    expect(row('CPR-5-TOKEN-SINGLE-USE')).toEqual(['passed', 'passed', 'failed']);
    expect(row('PRF-4-ERROR-ENVELOPE')).toEqual(['failed', 'skipped', 'error']);
    expect(m.differing.map((r) => r.id)).toEqual(['CPR-5-TOKEN-SINGLE-USE', 'PRF-4-ERROR-ENVELOPE']);
    expect(m.nobodyPasses.map((r) => r.id)).toEqual(['PRF-4-ERROR-ENVELOPE']);
    // CP-3-EXPIRED and CP-4-RENEW-ROTATES: no run names them
    expect(m.untestedEverywhere).toBe(2);
    // evidence: report.html when it sits beside results.json, else results.json; never a URL scheme
    expect(m.columns.map((c) => c.evidence)).toEqual([
      '../reference/report.html',
      '../variant/results.json',
      '../javascript%3Aalert%281%29/results.json',
    ]);
  });

  it('renders inert HTML: a CSP with no script, every input escaped, links only to the runs', () => {
    const html = renderMatrixHtml(buildMatrix(inputs(), join(dir, 'out')));
    const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
    expect(csp).toMatch(
      /^default-src &#39;none&#39;; style-src &#39;sha256-[^&]+&#39;; img-src &#39;none&#39;/,
    );
    expect(csp).not.toContain('script-src');
    expect(html).not.toMatch(/<script/i);
    expect([html.includes('\u202E'), html.includes('\u001b')]).toEqual([false, false]);
    expect(html).toContain(
      'Evil &lt;script&gt;alert(1)&lt;/script&gt; | &quot;x&quot; \\u202Egnp.exe\\u001B[2J',
    );
    const hrefs = [...html.matchAll(/href="([^"]*)"/g)].map((h) => h[1]);
    // a folder named like a URL scheme stays a relative path (its colon percent-encoded)
    for (const href of hrefs) expect(href).toMatch(/^\.\.\/[^:]*$/);
    expect(new Set(hrefs)).toEqual(
      new Set([
        '../reference/report.html',
        '../reference/report.html#req-CPR-2.1-VERSION',
        '../variant/results.json',
        '../javascript%3Aalert%281%29/results.json',
      ]),
    );
  });

  it('renders Markdown whose table cells cannot be broken by a name', () => {
    const md = renderMatrixMarkdown(buildMatrix(inputs(), join(dir, 'out')));
    const header = md.split('\n').find((line) => line.startsWith('| requirement |')) ?? '';
    // 3 fixed columns + 3 implementations: 7 unescaped pipes inside, 8 with the edges
    expect(header.replace(/\\\|/g, '').split('|').length - 1).toBe(7);
    expect(md).toContain('| `PRF-4-ERROR-ENVELOPE` | MUST | PROFILE | FAIL | skip | ERROR |');
    expect(md).not.toMatch(/<script/i);
    expect([md.includes('\u202E'), md.includes('\u001b')]).toEqual([false, false]);
  });

  it('cprc matrix writes matrix.html, matrix.md and matrix.json; a bad input exits 2', () => {
    const r = spawnSync(
      process.execPath,
      [
        BIN,
        'matrix',
        'reference/results.json',
        'variant/results.json',
        'javascript:alert(1)/results.json',
        '--out',
        'out',
      ],
      { cwd: dir, encoding: 'utf8' },
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain('3 implementations, 3 requirements tested; 2 differ, 1 passed by nobody');
    const json = JSON.parse(readFileSync(join(dir, 'out', 'matrix.json'), 'utf8'));
    expect(json.nobodyPasses.map((row: { id: string }) => row.id)).toEqual(['PRF-4-ERROR-ENVELOPE']);
    expect(readFileSync(join(dir, 'out', 'matrix.html'), 'utf8')).toContain('<h2 id="nobody-passes">');
    expect(readFileSync(join(dir, 'out', 'matrix.md'), 'utf8')).toContain(
      '## Requirements nobody passes (1)',
    );
    writeFileSync(join(dir, 'junk.json'), '[]');
    const bad = spawnSync(process.execPath, [BIN, 'matrix', 'junk.json', '--out', 'out2'], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('junk.json: not a JSON object');
  });
});
