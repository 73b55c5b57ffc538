/**
 * The payee vectors' interpreter: runs a sequence of harness and retrieval requests against the
 * reference payee over HTTPS on 127.0.0.1 (a fresh payee per sequence, its clock at the case's
 * now), and judges each answer against a step's expectation.
 */
import { request as httpsRequest } from 'node:https';
import { isDeepStrictEqual } from 'node:util';
import { decodeCprUri, tokenFormatFindings } from '../../../src/codec/uri.js';
import { createLoopbackPki, type LoopbackPki } from '../../../src/loopback/tls.js';
import { startReferencePayee } from '../../../src/reference/payee/server.js';
import { validateCpr } from '../../../src/validator/index.js';
import type { PayeeCase, PayeeStep } from './types.js';

/** One step's answer. */
export interface PayeeStepResult {
  status: number;
  contentType: string;
  body: unknown;
  /** The payee's now after the step (its clock plus every advance). */
  now: string;
}

let pki: Promise<LoopbackPki> | undefined;

function get(
  url: string,
  ca: string,
  method: 'GET' | 'POST',
  body?: unknown,
): Promise<{ status: number; contentType: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      url,
      { method, ca, headers: body === undefined ? {} : { 'content-type': 'application/json' } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type'] ?? ''),
            text,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${url}: no answer in 10 s`)));
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** The token of the reference URI an earlier step answered (`{"$token": "<step>"}`). */
function resolve(value: unknown, done: Record<string, PayeeStepResult>): unknown {
  if (Array.isArray(value)) return value.map((v) => resolve(v, done));
  if (value === null || typeof value !== 'object') return value;
  const obj = value as Record<string, unknown>;
  if (typeof obj.$token === 'string') {
    const uri = (done[obj.$token]?.body as { uri?: unknown } | undefined)?.uri;
    const decoded = decodeCprUri(uri);
    if (!decoded.ok || decoded.value.kind !== 'reference')
      throw new Error(`$token ${obj.$token}: no reference uri`);
    return decoded.value.token;
  }
  if (typeof obj.$ref === 'string') {
    const [step, ...path] = obj.$ref.split('.');
    let at: unknown = done[step as string];
    for (const p of path) at = (at as Record<string, unknown> | undefined)?.[p];
    if (at === undefined) throw new Error(`$ref ${obj.$ref} names nothing`);
    return at;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = resolve(v, done);
  return out;
}

/** Runs a payee case's steps against a fresh reference payee; one result per step. */
export async function evaluatePayee(c: PayeeCase): Promise<PayeeStepResult[]> {
  pki ??= createLoopbackPki();
  const { ca, server } = await pki;
  const start = Date.parse(c.initial.now);
  let offset = 0;
  const payee = await startReferencePayee({
    tls: server,
    plainHttp: false,
    clock: () => new Date(start),
    maxTokenTtlSeconds: c.initial.max_token_ttl_seconds,
    maxValiditySeconds: c.initial.max_validity_seconds,
    defaultValiditySeconds: c.initial.default_validity_seconds,
  });
  try {
    const done: Record<string, PayeeStepResult> = {};
    const out: PayeeStepResult[] = [];
    for (const step of c.steps) {
      const body = step.body === undefined ? undefined : resolve(step.body, done);
      let r: { status: number; contentType: string; text: string };
      if (step.action === 'retrieve') {
        const token = resolve(step.token, done) as string;
        r = await get(`${payee.baseUrl}/cpr/${token}`, ca.certPem, 'GET');
      } else {
        const path = { create: 'requests', fulfill: 'fulfillments', advance_clock: 'clock' }[step.action];
        r = await get(`${payee.harnessUrl}/${path}`, ca.certPem, 'POST', body);
        if (step.action === 'advance_clock' && r.status === 200)
          offset += (body as { advance_seconds: number }).advance_seconds * 1000;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(r.text);
      } catch {
        parsed = r.text;
      }
      const result = {
        status: r.status,
        contentType: r.contentType,
        body: parsed,
        now: new Date(start + offset).toISOString(),
      };
      done[step.step] = result;
      out.push(result);
    }
    return out;
  } finally {
    await payee.close();
  }
}

/** Members of a CPR that an error body must never carry (profile 2). */
const CPR_MEMBERS = [
  'cpr_version',
  'request_id',
  'payee',
  'value',
  'created_at',
  'expires_at',
  'iban',
  'rail_hint',
];

/**
 * Whether one step's answer meets its `expected`: status and code (or an alternative), the
 * content type, body members, and the named checks (applied to a 2xx answer).
 */
export function payeeStepMeets(
  step: PayeeStep,
  r: PayeeStepResult,
  done: Record<string, PayeeStepResult>,
): string[] {
  const problems: string[] = [];
  const e = step.expected;
  const code = (r.body as { error?: { code?: string } } | undefined)?.error?.code;
  const allowed = [{ status: e.status, code: e.code }, ...(e.alternatives ?? [])];
  if (!allowed.some((a) => a.status === r.status && a.code === code)) {
    problems.push(
      `answer ${r.status} ${code ?? '(no error)'}, expected ${allowed.map((a) => `${a.status} ${a.code ?? '(no error)'}`).join(' or ')}`,
    );
  }
  if (!/^application\/json\b/i.test(r.contentType)) problems.push(`content-type ${r.contentType}`);
  if (r.status >= 400) {
    const text = JSON.stringify(r.body);
    for (const m of CPR_MEMBERS)
      if (text.includes(`"${m}"`)) problems.push(`the error body carries the cpr member ${m}`);
    if (typeof (r.body as { error?: { message?: unknown } })?.error?.message !== 'string')
      problems.push('the error body has no message');
    return problems;
  }
  const body = r.body as Record<string, unknown>;
  if (e.body !== undefined) {
    for (const [k, v] of Object.entries(resolve(e.body, done) as Record<string, unknown>)) {
      if (!isDeepStrictEqual(body[k], v))
        problems.push(`body.${k} is ${JSON.stringify(body[k])}, expected ${JSON.stringify(v)}`);
    }
  }
  const nowMs = Date.parse(r.now);
  for (const check of e.checks ?? []) {
    if (check === 'cpr-valid') {
      const v = validateCpr(body, { mode: 'payee', now: new Date(r.now) });
      const errors = v.findings.filter((f) => f.severity === 'error');
      if (errors.length > 0)
        problems.push(
          `the cpr served breaks ${errors.map((f) => `${f.requirement} at ${f.path}`).join(', ')}`,
        );
    } else if (check === 'reference-uri') {
      const d = decodeCprUri(body.uri);
      if (!d.ok || d.value.kind !== 'reference') problems.push('uri is no reference uri');
      else {
        const f = tokenFormatFindings(d.value.token);
        if (f.length > 0) problems.push(`token: ${f.map((x) => x.requirement).join(', ')}`);
      }
    } else if (check === 'inline-uri') {
      const d = decodeCprUri(body.uri);
      if (!d.ok || d.value.kind !== 'inline') problems.push('uri is no inline uri');
      else {
        const v = validateCpr(d.value.document, { mode: 'payee', now: new Date(r.now) });
        if (!v.valid) problems.push('the inline cpr is not valid in the payee reading');
        if (d.value.document.request_id !== body.request_id)
          problems.push('the inline cpr has another request_id');
      }
    } else if (check.startsWith('token-lifetime<=')) {
      const max = Number(check.slice('token-lifetime<='.length));
      const at = Date.parse(String(body.token_expires_at));
      if (!(at > nowMs && at - nowMs <= max * 1000))
        problems.push(`token_expires_at ${body.token_expires_at} is not within ${max} s of ${r.now}`);
    } else if (check.startsWith('window=')) {
      const seconds = Number(check.slice('window='.length));
      const w = (Date.parse(String(body.expires_at)) - Date.parse(String(body.created_at))) / 1000;
      if (w !== seconds) problems.push(`expires_at - created_at is ${w} s, expected ${seconds}`);
    } else problems.push(`unknown check ${check}`);
  }
  return problems;
}
