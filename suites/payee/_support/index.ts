/**
 * Shared helpers of the payee suite (no checks here): harness access, URI decoding, the
 * configured ceilings, error-body checks and the corpus of CPRs the document checks grade.
 *
 * Everything goes through the payee driver from `context()`; nothing talks HTTP directly.
 * @packageDocumentation
 */

import { requirementById } from '../../../src/catalog/index.js';
import { decodeCprUri, type ReferenceCprUri } from '../../../src/codec/index.js';
import { readQrPng } from '../../../src/codec/qr.js';
import {
  BASE_FIELDS,
  PAYEE_FIELDS,
  SUB_INTERFACE_FIELD_NAMES,
  VALUE_FIELDS,
} from '../../../src/model/cpr.js';
import {
  documentRequirementIds,
  type Finding,
  parseRfc3339,
  REQUIRED_FIELDS,
  selectSubInterface,
  validateCpr,
  validateMessage,
} from '../../../src/validator/index.js';
import * as lib from '../../_lib/index.js';
import {
  assertThat,
  type ClockResult,
  type CreatedRequest,
  context,
  type DriverError,
  expectOk,
  type PayeeHarness,
  type PayeeRequestParams,
  payee,
  perRun,
  sharedWork,
  skip,
} from '../../_lib/index.js';

/** Profile 2 / spec 5 rule 1: a token lives at most 900 s. */
export const PROFILE_MAX_TOKEN_TTL_SECONDS = 900;
/** Profile 2: the suite's default validity ceiling, 30 days. */
export const DEFAULT_MAX_VALIDITY_SECONDS = 30 * 24 * 3600;
/**
 * Slack allowed between the payee's clock and the suite's when comparing a reported expiry with
 * "now" (seconds). Loopback targets share a clock; a remote one may be a little off.
 */
export const CLOCK_SLACK_SECONDS = 5;

import { maxWaitMs } from '../../_lib/index.js';

export { maxWaitMs };

/** The payee harness, or skip the check with the reason. */
export function harness(): PayeeHarness {
  return payee().harness ?? skip('the payee harness is not configured (payee.harness_url)');
}

/** The token lifetime ceiling the suite checks against: `payee.max_token_ttl_seconds`, default 900. */
export function maxTokenTtlSeconds(): number {
  return context().config.payee?.max_token_ttl_seconds ?? PROFILE_MAX_TOKEN_TTL_SECONDS;
}

/** The validity ceiling the suite checks against: `payee.max_validity_seconds`, default 30 days. */
export function maxValiditySeconds(): number {
  return context().config.payee?.max_validity_seconds ?? DEFAULT_MAX_VALIDITY_SECONDS;
}

/** Asks the harness for a request; fails the check when the harness refuses (PRF-2-HARNESS-REQUESTS). */
export async function createRequest(params: PayeeRequestParams): Promise<CreatedRequest> {
  return expectOk(await harness().createRequest(params), `the harness request ${JSON.stringify(params)}`);
}

/** A reference request and its decoded URI. */
export interface ReferenceRequest extends CreatedRequest {
  /** The decoded reference URI (token, endpoint, retrieval URL). */
  ref: ReferenceCprUri;
}

/** Decodes a reference URI; fails the check when the harness gave anything else. */
export function decodeReference(uri: string): ReferenceCprUri {
  const d = decodeCprUri(uri);
  assertThat(
    d.ok && d.value.kind === 'reference',
    `a reference delivery yields a cpr://<token>?endpoint=<url> uri (spec 4.2), got ${JSON.stringify(uri)}${
      d.ok ? '' : `: ${d.findings.map((f) => f.message).join('; ')}`
    }`,
  );
  return d.value as ReferenceCprUri;
}

/** Asks for a reference request and decodes its URI. */
export async function referenceRequest(params: Partial<PayeeRequestParams> = {}): Promise<ReferenceRequest> {
  const created = await createRequest({ ...params, delivery: 'reference' });
  return { ...created, ref: decodeReference(created.uri) };
}

/** Runs `fn` over `items` with at most `width` calls in flight, keeping the order of results. */
export async function inBatches<T, R>(
  items: readonly T[],
  width: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return out;
}

/**
 * Every field name a CPR can carry (spec 2.1-2.8): base fields, payee descriptor, requested value
 * and every sub-interface field. An error body holding any of them as a member leaks the CPR
 * (profile 2: "No error body ever contains CPR fields").
 */
export const CPR_FIELD_NAMES: readonly string[] = [
  ...BASE_FIELDS,
  ...PAYEE_FIELDS,
  ...VALUE_FIELDS,
  ...SUB_INTERFACE_FIELD_NAMES,
];

/** Member names found at any depth of a JSON value. */
function memberNames(v: unknown, out: Set<string> = new Set()): Set<string> {
  if (Array.isArray(v)) for (const x of v) memberNames(x, out);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      memberNames(x, out);
    }
  }
  return out;
}

/** String leaves of a JSON value that identify a CPR (long enough not to occur by chance). */
function distinctiveStrings(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') {
    if (v.length >= 8 && v !== 'CPR-1.0') out.push(v);
  } else if (Array.isArray(v)) for (const x of v) distinctiveStrings(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) distinctiveStrings(x, out);
  return out;
}

/**
 * Problems with an error answer's body regarding CPR leakage (profile 2): a member named after a
 * CPR field, the `CPR-1.0` version marker, or (when the CPR behind it is known) any distinctive
 * value of that CPR (request_id, IBAN, address...). Empty when nothing leaks.
 */
export function cprLeaks(body: unknown, knownCpr?: unknown): string[] {
  const problems: string[] = [];
  const text = typeof body === 'string' ? body : JSON.stringify(body ?? null);
  const names = [...memberNames(body)].filter((n) => CPR_FIELD_NAMES.includes(n));
  if (names.length > 0)
    problems.push(`the error body has CPR member(s) ${names.map((n) => `"${n}"`).join(', ')}`);
  if (text.includes('CPR-1.0')) problems.push('the error body contains the cpr_version value "CPR-1.0"');
  if (knownCpr !== undefined) {
    const leaked = [...new Set(distinctiveStrings(knownCpr))].filter((s) => text.includes(s));
    if (leaked.length > 0)
      problems.push(
        `the error body contains value(s) of the CPR: ${leaked
          .slice(0, 3)
          .map((s) => JSON.stringify(s))
          .join(', ')}`,
      );
  }
  return problems;
}

/**
 * Problems with an error answer's shape (profile 1): the body is
 * `{"error": {"code": "<CODE>", "message": "<text>"}}` (schema `cashpack/error-body`: a code of
 * the profile's table, a non-empty message) and the status is 4xx when the driver reports one.
 */
export function errorBodyProblems(error: DriverError): string[] {
  const problems: string[] = [];
  const r = validateMessage('cashpack/error-body', error.body);
  for (const f of r.findings.filter((x) => x.severity === 'error')) {
    problems.push(`${f.path || 'the body'}: ${f.message}`);
  }
  if (error.status !== undefined && (error.status < 400 || error.status > 499)) {
    problems.push(`the status is ${error.status}, not a 4xx`);
  }
  return problems;
}

/** Profile 1: the HTTP status of each error code of the payee's endpoints. */
export const PAYEE_ERROR_STATUS: Readonly<Record<string, number>> = {
  INVALID_REQUEST: 400,
  TOKEN_UNKNOWN: 404,
  REQUEST_UNKNOWN: 404,
  DUPLICATE_ID: 409,
  REQUEST_EXPIRED: 409,
  TOKEN_CONSUMED: 410,
  TOKEN_EXPIRED: 410,
};

/** One CPR obtained from the payee, with how it was delivered. */
export interface CorpusEntry {
  /** `reference`, `inline`, `qr-reference` or `qr-inline`. */
  form: 'reference' | 'inline' | 'qr-reference' | 'qr-inline';
  /** The rail_hint asked of the harness. */
  rail: string;
  /** The URI the harness answered. */
  uri: string;
  /** The request_id the harness answered. */
  requestId: string;
  /** The CPR document, or why none was obtained. */
  cpr?: unknown;
  /** Why the CPR could not be obtained through this form (undefined when it was). */
  problem?: string;
  /** When the form is a QR form: the text the QR image decodes to. */
  qrText?: string;
  /** When the form is a QR form: the reader's remarks on the symbol (e.g. not byte mode). */
  qrFindings?: string[];
  /** When the form is a QR form: the error-correction level read from the symbol, when readable. */
  qrErrorCorrection?: 'L' | 'M' | 'Q' | 'H';
  /** Response headers of the retrieval (reference forms, when the driver reports them). */
  headers?: Record<string, string>;
  /** The JSON text as emitted: the retrieval body, or the JSON inside the inline URI. */
  text?: string;
}

/** The rails the corpus asks for (spec 2.4), so every sub-interface is graded. */
export const CORPUS_RAILS = [
  'ON_CHAIN',
  'SEPA_CT',
  'SEPA_INST',
  'SWIFT',
  'ACH',
  'PIX',
  'UPI',
  'OPEN',
] as const;

/** Default amounts per rail: a fixed amount for most, an open amount for OPEN (spec 2.3). */
export const CORPUS_AMOUNT: Readonly<Record<string, string | undefined>> = {
  ON_CHAIN: '25000000',
  SEPA_CT: '1999',
  SEPA_INST: '500',
  SWIFT: '125000',
  ACH: '4200',
  PIX: '1500',
  UPI: '9900',
  OPEN: undefined,
};

/** Obtains one corpus entry: asks the harness, then retrieves or decodes the CPR. */
async function corpusEntry(rail: string, form: CorpusEntry['form']): Promise<CorpusEntry> {
  const qr = form === 'qr-reference' || form === 'qr-inline';
  const delivery = form === 'inline' || form === 'qr-inline' ? 'inline' : 'reference';
  const amount = CORPUS_AMOUNT[rail];
  const params: PayeeRequestParams = {
    rail_hint: rail,
    ...(amount === undefined ? {} : { amount }),
    memo: `Conformance ${form} ${rail}`,
    delivery,
    ...(qr ? { qr: true as const } : {}),
  };
  const created = await createRequest(params);
  const entry: CorpusEntry = { form, rail, uri: created.uri, requestId: created.request_id };
  let uri = created.uri;
  if (qr) {
    if (created.qr_png_base64 === undefined) {
      entry.problem = 'the harness was asked for qr: true and answered no qr_png_base64';
      return entry;
    }
    const read = readQrPng(Buffer.from(created.qr_png_base64, 'base64'));
    if (!read.ok) {
      entry.problem = `the QR image cannot be read: ${read.findings.map((f) => f.message).join('; ')}`;
      return entry;
    }
    entry.qrText = read.text;
    entry.qrFindings = read.findings.map((f) => `[${f.requirement}] ${f.message}`);
    if (read.errorCorrection !== undefined) entry.qrErrorCorrection = read.errorCorrection;
    uri = read.text; // spec 4.3 rule 1: the paying application resolves the URI it scanned
  }
  if (/^cpr:\/\/inline\//i.test(uri)) {
    // Spec 4.2 inline form: decoded here, leniently (profile deviations such as padding are
    // graded by PRF-2-INLINE-URI from the codec's findings, not by refusing the document).
    const d = decodeCprUri(uri);
    if (!d.ok || d.value.kind !== 'inline') {
      entry.problem = `the inline uri cannot be decoded: ${d.findings.map((f) => f.message).join('; ')}`;
      return entry;
    }
    entry.cpr = d.value.document;
    const b64 = /^cpr:\/\/inline\/([A-Za-z0-9_-]+)/i.exec(uri)?.[1];
    if (b64 !== undefined) entry.text = Buffer.from(b64, 'base64url').toString('utf8');
    return entry;
  }
  const r = await payee().retrieve(uri);
  if (!r.ok) {
    const e = r.error;
    entry.problem = `retrieving ${uri.slice(0, 80)} failed (${[
      e.status && `HTTP ${e.status}`,
      e.code,
      e.message,
    ]
      .filter(Boolean)
      .join(', ')})`;
    return entry;
  }
  entry.cpr = r.cpr;
  if (r.headers) entry.headers = r.headers;
  if (r.text !== undefined) entry.text = r.text;
  return entry;
}

/**
 * The rails of {@link CORPUS_RAILS} this payee serves, found once per run: each is asked once
 * (inline, the corpus amount); a rail refused with 400 `INVALID_REQUEST` is one the payee does
 * not serve (profile 2 allows that answer), any other answer counts the rail as served so that the
 * corpus reports what went wrong. Fails the check when the payee serves none.
 */
export const servedRails = once(async (): Promise<string[]> => {
  const h = harness();
  const answers = await inBatches([...CORPUS_RAILS], 8, async (rail) => {
    const amount = CORPUS_AMOUNT[rail];
    const r = await h.createRequest({
      rail_hint: rail,
      ...(amount === undefined ? {} : { amount }),
      delivery: 'inline',
    });
    const refused = !r.ok && r.error.code === 'INVALID_REQUEST' && (r.error.status ?? 400) === 400;
    return { rail, refused };
  });
  const served = answers.filter((a) => !a.refused).map((a) => a.rail);
  assertThat(
    served.length > 0,
    `the payee serves at least one rail; it refused every rail_hint (${CORPUS_RAILS.join(', ')}) with 400 INVALID_REQUEST`,
  );
  return served;
});

/**
 * The CPRs the document checks grade: one per rail the payee serves (spec 2.4,
 * {@link servedRails}) and delivery form (spec 4.2-4.3: reference URI, inline URI, QR of each),
 * obtained once per run (later checks reuse it; each declares `payee:corpus`).
 */
export function corpus(): Promise<CorpusEntry[]> {
  harness(); // skip before starting when there is no harness
  // a failed attempt is not kept: the next check tries again and reports its own error
  return sharedWork('payee:corpus', async () => {
    const forms: CorpusEntry['form'][] = ['reference', 'inline', 'qr-reference', 'qr-inline'];
    const rails = await servedRails();
    const jobs = rails.flatMap((rail) => forms.map((form) => ({ rail, form })));
    return inBatches(jobs, 8, (j) => corpusEntry(j.rail, j.form));
  });
}

/** Corpus entries that yielded a CPR. */
export async function corpusDocuments(): Promise<Array<CorpusEntry & { cpr: unknown }>> {
  const all = await corpus();
  const docs = all.filter((e): e is CorpusEntry & { cpr: unknown } => e.cpr !== undefined);
  if (docs.length === 0) {
    const first = all[0]?.problem ?? 'no request was issued';
    assertThat(false, `the payee delivered no CPR in any form (${first})`);
  }
  return docs;
}

/** A short label of a corpus entry for messages. */
export function label(e: CorpusEntry): string {
  return `${e.form} ${e.rail} (request_id ${e.requestId})`;
}

/**
 * Requirements of validator findings that their own checks grade (version, request_id form, no
 * payer data, validity ceiling); the per-requirement document checks leave them out so that one
 * fault is reported once, under its own requirement.
 */
export const GRADED_ELSEWHERE: ReadonlySet<string> = new Set([
  'CPR-2.1-VERSION',
  'CPR-9-VERSION',
  'PRF-1-IDENTIFIER-UUID',
  'CPR-2.1-REQUEST-ID-UUIDV4',
  'PRF-1-IDENTIFIER-UUIDV4',
  'CPR-INV-1-NO-PAYER-DATA',
  'PRF-2-VALIDITY-CEILING',
]);

/**
 * The requirements the per-requirement document checks grade on every CPR of the corpus: each
 * ID a validator finding can carry (`documentRequirementIds()`: the schema findings' IDs and
 * the rules' `requirements`), except those {@link GRADED_ELSEWHERE} and those that bind the
 * paying application (catalog actor `wallet`): the validator reports those only in the wallet
 * reading (an expired request, a JSON-number amount) or for a document it cannot check at all,
 * which the delivery checks grade ({@link deliveryProblems}).
 */
export const DOCUMENT_RULE_IDS: readonly string[] = documentRequirementIds().filter(
  (id) => !GRADED_ELSEWHERE.has(id) && requirementById(id)?.actor !== 'wallet',
);

/** One corpus CPR and the validator's findings on it (payee reading). */
export interface CorpusVerdict {
  /** The corpus entry. */
  entry: CorpusEntry & { cpr: unknown };
  /** Every finding of `validateCpr` in the payee reading, with the configured validity ceiling. */
  findings: Finding[];
}

let verdicts: { of: CorpusEntry[]; value: CorpusVerdict[] } | undefined;
perRun(() => {
  verdicts = undefined;
});

/**
 * The validator's verdict (payee mode, the configured validity ceiling) on every CPR of the
 * corpus, computed once per corpus: the per-requirement document checks each read their
 * requirement's findings from it.
 */
export async function corpusVerdicts(): Promise<CorpusVerdict[]> {
  const docs = await corpusDocuments();
  const all = await corpus();
  if (verdicts?.of !== all) {
    const opts = { mode: 'payee' as const, maxValiditySeconds: maxValiditySeconds() };
    verdicts = {
      of: all,
      value: docs.map((entry) => ({ entry, findings: validateCpr(entry.cpr, opts).findings })),
    };
  }
  return verdicts.value;
}

/** The base members every CPR carries (spec 2.1: "Required: yes"). */
const BASE_MEMBERS = ['cpr_version', 'request_id', 'created_at', 'expires_at', 'payee', 'value'];

/**
 * What keeps the CPR of `entry` from being the full CPR a delivery form carries (spec 4.1 "the
 * full CPR JSON (base fields plus sub-interface fields)", 4.2 inline "the full CPR JSON"): not
 * a JSON object, a base member missing, the required fields of its sub-interface missing, or a
 * validator error no document check grades (one that binds the paying application, e.g. "the
 * document cannot be checked"). Empty when the CPR is whole.
 */
export function deliveryProblems(entry: CorpusEntry & { cpr: unknown }): string[] {
  const doc = entry.cpr;
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    return [`${label(entry)}: the CPR is not a JSON object`];
  const has = (f: string) =>
    (doc as Record<string, unknown>)[f] !== undefined && (doc as Record<string, unknown>)[f] !== null;
  const missing = BASE_MEMBERS.filter((f) => !has(f));
  const sel = selectSubInterface(doc);
  if (sel.kind === 'named') missing.push(...REQUIRED_FIELDS[sel.sub].filter((f) => !has(f)));
  else if (sel.kind === 'open' && sel.complete.length === 0) missing.push('the fields of any sub-interface');
  const out = missing.length > 0 ? [`${label(entry)}: missing ${missing.join(', ')}`] : [];
  const graded = new Set(DOCUMENT_RULE_IDS);
  const r = validateCpr(doc, { mode: 'payee', maxValiditySeconds: maxValiditySeconds() });
  for (const f of r.findings) {
    if (f.severity !== 'error' || graded.has(f.requirement) || GRADED_ELSEWHERE.has(f.requirement)) continue;
    out.push(`${label(entry)}: [${f.requirement}] ${f.path || '(root)'}: ${f.message}`);
  }
  return out;
}

/**
 * Memoizes an async value per run (retrying after a failure), per process: for a cheap probe
 * that a `--jobs` run may make once in each process (which rails the payee serves). Work that
 * is costly, or that moves the payee's clock, is {@link sharedOnce}.
 */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let p: Promise<T> | undefined;
  perRun(() => {
    p = undefined;
  });
  return () => {
    p ??= make();
    p.catch(() => {
      p = undefined;
    });
    return p;
  };
}

/**
 * Memoizes an async value per run under the shared work `name` ({@link sharedWork}): every check
 * that asks declares `name` (`sharedState`), so a `--jobs` run builds it in one process. `variant`
 * tells several values under one name apart.
 */
export function sharedOnce<T>(name: string, variant: string, make: () => Promise<T>): () => Promise<T> {
  return () => sharedWork(name, make, variant);
}

/** A fresh request (inline: no token spent), its request_id and expires_at. */
export async function freshRequest(
  validitySeconds?: number,
): Promise<{ requestId: string; expiresAtMs: number }> {
  const created = await createRequest({
    delivery: 'inline',
    ...(validitySeconds === undefined ? {} : { validity_seconds: validitySeconds }),
  });
  const d = decodeCprUri(created.uri);
  assertThat(d.ok && d.value.kind === 'inline', 'an inline delivery yields cpr://inline/<data>');
  const expires = parseRfc3339(String(d.value.document.expires_at));
  assertThat(expires !== null, 'the CPR carries expires_at as an RFC 3339 timestamp');
  return { requestId: created.request_id, expiresAtMs: expires.epochMs };
}

/**
 * The payee's notion of now minus the suite's, ms: 0 until a test clock answer says otherwise
 * (profile 2: each `POST {harness}/clock` answers the payee's now after the advance).
 */
let payeeOffsetMs = 0;
perRun(() => {
  payeeOffsetMs = 0;
});

/** The payee's notion of now, as far as the suite knows it (ms since the epoch). */
export function payeeNowMs(): number {
  return Date.now() + payeeOffsetMs;
}

/**
 * Advances the payee's test clock by `seconds` and learns its new now. Returns the driver's
 * result; `absent` when the harness offers no clock.
 */
export async function advanceClock(seconds: number): Promise<ClockResult> {
  const h = harness();
  if (h.advanceClock === undefined)
    return { ok: false, absent: true, error: { message: 'the payee driver offers no test clock' } };
  const r = await h.advanceClock(seconds);
  if (r.ok) {
    const now = parseRfc3339(r.value.now);
    if (now !== null) payeeOffsetMs = now.epochMs - Date.now();
  }
  return r;
}

/** What the suite learned of the payee's test clock (profile 2, optional). */
export type ClockVerdict =
  | { kind: 'absent'; reason: string }
  | { kind: 'working'; evidence: string }
  | { kind: 'idle'; reason: string };

/** Largest advance the probe makes (s): beyond it the payee ignored the short lifetimes asked. */
const PROBE_MAX_ADVANCE_SECONDS = 7 * 24 * 3600;

/**
 * Whether the payee's test clock works, found once per run: a token (asked for 60 s) and a
 * request (asked for 60 s of validity) are issued, the clock is advanced just past both, and
 * the token must no longer serve its CPR or the request no longer be fulfilled. When neither
 * reacts the clock advanced nothing (`idle`): the expiry checks do not trust it and wait
 * instead; PRF-2-HARNESS-CLOCK fails. When only one reacts, the clock works and the other's
 * expiry check fails on its own requirement.
 */
export const clockVerdict = sharedOnce('payee:clock', 'clock-verdict', async (): Promise<ClockVerdict> => {
  const h = harness();
  if (h.advanceClock === undefined)
    return { kind: 'absent', reason: 'the payee driver offers no test clock' };
  const token = await referenceRequest({ token_ttl_seconds: 60 });
  const request = await freshRequest(60);
  const tokenUntil =
    token.token_expires_at !== undefined && Number.isFinite(Date.parse(token.token_expires_at))
      ? Date.parse(token.token_expires_at)
      : payeeNowMs() + 60_000;
  const until = Math.max(tokenUntil, request.expiresAtMs);
  const before = payeeNowMs();
  const offsetBefore = payeeOffsetMs;
  const seconds = Math.max(1, Math.min(Math.ceil((until - before) / 1000) + 2, PROBE_MAX_ADVANCE_SECONDS));
  const idle = (reason: string): ClockVerdict => {
    // the clock's answers are not trusted: the suite's notion of the payee's now stays as it was
    payeeOffsetMs = offsetBefore;
    return { kind: 'idle', reason };
  };
  const r = await advanceClock(seconds);
  if (!r.ok && 'absent' in r)
    return {
      kind: 'absent',
      reason: `the payee harness has no test clock (POST {harness}/clock answered HTTP ${r.error.status ?? '?'})`,
    };
  // Without a clock, POST {harness}/clock is a path that is no endpoint: any 4xx with the error
  // body is the payee's choice (profile 1), 400 INVALID_REQUEST as well as 404. A clock that
  // refused this well-formed advance could not be told from none: either way there is no clock
  // to use, and the expiry checks wait or skip instead.
  const status = r.ok ? undefined : r.error.status;
  if (!r.ok && r.error.code !== undefined && status !== undefined && status >= 400 && status < 500)
    return {
      kind: 'absent',
      reason: `the payee harness has no test clock (POST {harness}/clock {"advance_seconds": ${seconds}} answered HTTP ${status} ${r.error.code}: a harness without the clock may answer a path that is no endpoint so, profile 1)`,
    };
  if (!r.ok) {
    return idle(
      `POST {harness}/clock {"advance_seconds": ${seconds}} was refused (${[r.error.status && `HTTP ${r.error.status}`, r.error.code, r.error.message].filter(Boolean).join(', ')})`,
    );
  }
  const reported = parseRfc3339(r.value.now);
  const tokenServed = (await payee().retrieve(token.uri)).ok;
  const fulfilled = (await h.fulfill(request.requestId)).ok;
  const said = `advanced ${seconds} s (the clock answered now ${r.value.now})`;
  if (tokenServed && fulfilled) {
    return idle(
      `the clock ${said}, yet a token asked for 60 s still served its CPR and a request asked for 60 s of validity was still fulfilled: the advance moved no expiry decision`,
    );
  }
  if (reported === null || reported.epochMs < before + seconds * 1000 - CLOCK_SLACK_SECONDS * 1000) {
    return idle(
      `the clock ${said}: "now" is not an RFC 3339 instant at least ${seconds} s after the payee's previous now (${new Date(before).toISOString()})`,
    );
  }
  return {
    kind: 'working',
    evidence: `the clock ${said}; afterwards the token ${tokenServed ? 'still served' : 'no longer served'} and the request ${fulfilled ? 'was still fulfilled' : 'was no longer fulfilled'}`,
  };
});

/** How the last {@link passTime} made time pass, for the check's report. */
export interface TimePassed {
  /** `clock` (advanced the test clock), `wait` (slept) or `none` (already past). */
  how: 'clock' | 'wait' | 'none';
  /** Milliseconds slept (0 with the clock). */
  waitedMs: number;
  /** One sentence for the report. */
  text: string;
}

/**
 * Attaches a sentence to the running check's result when the suite library offers a way to
 * (`note`); otherwise the clock exchanges or the absence of any are the evidence.
 */
export function noteTiming(text: string): void {
  lib.note(text);
}

/**
 * Makes the payee's now reach `instantMs` + `pastMs` (an instant on the payee's clock, such as an
 * expiry it reported): with the test clock when it works (no sleep); otherwise by waiting, when
 * the wait is at most {@link maxWaitMs}; otherwise the check is skipped naming the wait it would
 * need. A negative `pastMs` stands just before the instant (clock only: a real wait cannot aim
 * within a second; without the clock the check is skipped).
 */
export async function passTime(instantMs: number, what: string, pastMs = 1000): Promise<TimePassed> {
  const verdict = await clockVerdict();
  const needMs = instantMs + pastMs - payeeNowMs();
  if (verdict.kind === 'working') {
    const seconds = pastMs < 0 ? Math.floor(needMs / 1000) : Math.ceil(needMs / 1000);
    if (seconds <= 0) {
      const done = { how: 'none' as const, waitedMs: 0, text: `${what}: no time needed to pass` };
      noteTiming(done.text);
      return done;
    }
    const r = await advanceClock(seconds);
    assertThat(
      r.ok,
      `the test clock, which worked before, advances ${seconds} s (${r.ok ? '' : JSON.stringify(r.error)})`,
    );
    const done = {
      how: 'clock' as const,
      waitedMs: 0,
      text: `${what}: the test clock was advanced ${seconds} s (no wait)`,
    };
    noteTiming(done.text);
    return done;
  }
  const why =
    verdict.kind === 'absent'
      ? verdict.reason
      : `the test clock is not used: ${verdict.reason} (graded by PRF-2-HARNESS-CLOCK)`;
  if (pastMs < 0) skip(`${what}: standing within a second before an expiry needs the test clock; ${why}`);
  // a remote payee's clock may be a little ahead or behind: wait a little past the instant
  const waitMs = needMs + 600;
  if (waitMs > maxWaitMs()) {
    skip(
      `${what}: it needs a real wait of ${Math.ceil(waitMs / 1000)} s, above --max-wait ${Math.round(maxWaitMs() / 1000)} s; ${why}`,
    );
  }
  await lib.waitRealTime(waitMs);
  const done = {
    how: waitMs > 0 ? ('wait' as const) : ('none' as const),
    waitedMs: Math.max(0, waitMs),
    text: `${what}: waited ${(Math.max(0, waitMs) / 1000).toFixed(1)} s of real time (${why})`,
  };
  noteTiming(done.text);
  return done;
}

/** Whether expiry checks will use the test clock (then they ask realistic lifetimes). */
export async function withClock(): Promise<boolean> {
  return (await clockVerdict()).kind === 'working';
}

/**
 * Three requests past their expires_at (one for each check that needs one): asked with
 * validity_seconds 60 and the test clock advanced past them, or, without a working clock,
 * asked with validity_seconds 1 after one shared wait of about 1-2 s.
 */
export const expiredRequests = sharedOnce('payee:clock', 'expired-requests', async () => {
  const validity = (await withClock()) ? 60 : 1;
  const reqs = [await freshRequest(validity), await freshRequest(validity), await freshRequest(validity)];
  await passTime(
    Math.max(...reqs.map((r) => r.expiresAtMs)),
    `expires_at of a request asked with validity_seconds ${validity}`,
  );
  const [a, b, c] = reqs.map((r) => r.requestId) as [string, string, string];
  return [a, b, c] as const;
});

/**
 * Three reference requests whose tokens are past their lifetime (one for each check that needs
 * one): asked with token_ttl_seconds 60 and the test clock advanced past them, or, without a
 * working clock, asked with token_ttl_seconds 1 after one shared wait of about 1-2 s.
 */
export const expiredTokens = sharedOnce('payee:clock', 'expired-tokens', async () => {
  const ttl = (await withClock()) ? 60 : 1;
  const asked = payeeNowMs();
  const reqs = [
    await referenceRequest({ token_ttl_seconds: ttl }),
    await referenceRequest({ token_ttl_seconds: ttl }),
    await referenceRequest({ token_ttl_seconds: ttl }),
  ];
  const until = Math.max(
    ...reqs.map((r) =>
      r.token_expires_at === undefined || !Number.isFinite(Date.parse(r.token_expires_at))
        ? asked + ttl * 1000
        : Date.parse(r.token_expires_at),
    ),
  );
  await passTime(until, `the expiry of a token asked with token_ttl_seconds ${ttl}`);
  return reqs as [ReferenceRequest, ReferenceRequest, ReferenceRequest];
});

/** Clock bodies no reading of profile 2 can honour: 400 INVALID_REQUEST with the error body. */
export const MALFORMED_CLOCK_BODIES: readonly (readonly [string, unknown])[] = [
  ['a body that is null', null],
  ['a body that is an array', [{ advance_seconds: 1 }]],
  ['a body that is a number', 5],
  ['no advance_seconds', {}],
  ['advance_seconds a numeric string', { advance_seconds: '5' }],
  ['advance_seconds null', { advance_seconds: null }],
  ['advance_seconds true', { advance_seconds: true }],
  ['advance_seconds an array', { advance_seconds: [5] }],
  ['advance_seconds an object', { advance_seconds: { seconds: 5 } }],
  // no RFC 3339 instant lies that far ahead (years end at 9999)
  ['advance_seconds 2^53', { advance_seconds: 2 ** 53 }],
  ['advance_seconds 1e300', { advance_seconds: 1e300 }],
];

/**
 * Clock bodies the payee may refuse (then 400 INVALID_REQUEST with the error body) or honour
 * (without moving now back).
 */
export const MAY_REFUSE_CLOCK_BODIES: readonly (readonly [string, unknown])[] = [
  ['a fractional advance_seconds', { advance_seconds: 1.5 }],
  ['a member profile 2 does not list', { advance_seconds: 0, note: 'x' }],
];
