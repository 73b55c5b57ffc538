import { isObject } from '../model/util.js';
import { type HttpClient, type HttpResponse, joinUrl, sendUndefinedRequest } from './http.js';
import { type DeriveInput, type DeriveResult, DriverTransportError, type WalletDriver } from './types.js';

/** The codes of a refused derivation (profile section 3): everything about the CPR itself. */
export const DERIVE_REFUSAL_CODES: readonly string[] = [
  'EXPIRED',
  'INVALID_VERSION',
  'INVALID_STRUCTURE',
  'UNSUPPORTED_RAIL',
  'AMOUNT_REQUIRED',
  'TOKEN_REJECTED',
];

/** The code of an error in the harness request itself (profile section 3; HTTP 400). */
export const HARNESS_REQUEST_ERROR = 'INVALID_REQUEST';

/**
 * True when `input` is a well-formed harness request of profile section 3: an object with a
 * `context` object holding `payer`, `rail` and `authorization` (and a `payer_amount`, if any, that
 * is an amount string of profile section 1), and exactly one of `cpr` (a JSON object) and `uri`
 * (a non-empty string; the harness schema's reading). To such a request `INVALID_REQUEST` is no profile answer: every
 * defect of the CPR it carries is one of the 422 codes.
 */
export function isWellFormedDeriveRequest(input: unknown): boolean {
  if (!isObject(input)) return false;
  const ctx = input.context;
  if (!isObject(ctx) || !['payer', 'rail', 'authorization'].every((m) => ctx[m] !== undefined)) return false;
  // a payer_amount that is no amount of profile 1 is an error of the harness request, not of the CPR
  if (ctx.payer_amount !== undefined && !isAmount(ctx.payer_amount)) return false;
  const hasCpr = input.cpr !== undefined;
  const hasUri = input.uri !== undefined;
  if (hasCpr === hasUri) return false;
  return hasCpr ? isObject(input.cpr) : typeof input.uri === 'string' && input.uri !== '';
}

/** An amount string of profile section 1: base-10 digits, no leading zero, from 1 to 2^256 - 1. */
function isAmount(value: unknown): boolean {
  return typeof value === 'string' && /^[1-9][0-9]*$/.test(value) && BigInt(value) < 2n ** 256n;
}

/** What {@link readDeriveAnswer} needs to know about the exchange. */
export interface DeriveAnswerContext {
  /** HTTP status (absent on stdio). */
  status?: number;
  /** Whether the request sent was a well-formed harness request ({@link isWellFormedDeriveRequest}). */
  requestWellFormed: boolean;
  /** Who answered, for messages: `the wallet harness at https://...` or `wallet command "..."`. */
  who: string;
}

function notProfile(who: string, why: string): DriverTransportError {
  return new DriverTransportError(
    'CPRC_DRIVER',
    `${who} gave an answer that is not a profile answer: ${why}; the harness answers {"payment": {...}} (HTTP 200) or {"error": {"code", "message"}} (HTTP 422 with EXPIRED, INVALID_VERSION, INVALID_STRUCTURE, UNSUPPORTED_RAIL, AMOUNT_REQUIRED or TOKEN_REJECTED; HTTP 400 INVALID_REQUEST for a malformed harness request) (profile 3)`,
  );
}

function shortJson(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 160 ? `${text.slice(0, 160)}...` : text;
}

/**
 * Reads a derivation answer (profile section 3) that already parsed as JSON: `{payment}` is a
 * success; `{error: {code, message}}` with one of the six refusal codes (HTTP 422 when there is a
 * status) a rejection; `INVALID_REQUEST` (HTTP 400) a rejection only when the request sent was
 * malformed. Anything else is not a profile answer and is never read as a rejection: it throws a
 * {@link DriverTransportError} naming the cause (the check ends as an error).
 */
export function readDeriveAnswer(answer: unknown, ctx: DeriveAnswerContext): DeriveResult {
  const { status, who } = ctx;
  const withStatus = status === undefined ? {} : { status };
  const statusText = status === undefined ? '' : `HTTP ${status} with `;
  if (!isObject(answer)) throw notProfile(who, `${statusText}${shortJson(answer)}, not a JSON object`);
  const hasPayment = answer.payment !== undefined;
  const hasError = answer.error !== undefined;
  if (hasPayment && hasError) throw notProfile(who, `${statusText}both "payment" and "error"`);
  if (hasPayment) {
    if (!isObject(answer.payment)) {
      throw notProfile(who, `${statusText}a "payment" that is ${shortJson(answer.payment)}, not an object`);
    }
    if (status !== undefined && status !== 200)
      throw notProfile(who, `a payment with HTTP ${status}, not 200`);
    return { ok: true, payment: answer.payment, ...withStatus };
  }
  if (!hasError) {
    throw notProfile(who, `${statusText}neither a "payment" nor an "error" object: ${shortJson(answer)}`);
  }
  const error = answer.error;
  if (!isObject(error))
    throw notProfile(who, `${statusText}an "error" that is ${shortJson(error)}, not an object`);
  const code = error.code;
  if (typeof code !== 'string') throw notProfile(who, `${statusText}an error without a string "code"`);
  const refusal = DERIVE_REFUSAL_CODES.includes(code);
  if (!refusal && code !== HARNESS_REQUEST_ERROR) {
    throw notProfile(
      who,
      `${statusText}the error code ${shortJson(code)}, which is no code of the derive harness`,
    );
  }
  if (code === HARNESS_REQUEST_ERROR && ctx.requestWellFormed) {
    throw notProfile(
      who,
      `${statusText}INVALID_REQUEST to a well-formed harness request (a context with payer, rail and authorization, and exactly one of cpr and uri); whatever is wrong with the CPR is a 422 code`,
    );
  }
  if (status !== undefined) {
    const due = refusal ? 422 : 400;
    if (status !== due)
      throw notProfile(who, `HTTP ${status} with ${code}; ${code} is answered with HTTP ${due}`);
  }
  const out: { code: string; message?: string; status?: number; body: unknown } = {
    code,
    body: answer,
    ...withStatus,
  };
  if (typeof error.message === 'string') out.message = error.message;
  return { ok: false, error: out };
}

/** Throws when an HTTP answer of the harness cannot be a profile answer (status class, media type, JSON). */
function checkHttpAnswer(res: HttpResponse, who: string): unknown {
  if (res.status >= 300 && res.status < 400) {
    const to = res.headers.location ? ` to ${res.headers.location.slice(0, 200)}` : '';
    throw notProfile(who, `a redirect (HTTP ${res.status}${to}); the suite follows none`);
  }
  if (res.status >= 500) throw notProfile(who, `HTTP ${res.status} (a server error)`);
  if (![200, 400, 422].includes(res.status)) {
    throw notProfile(who, `HTTP ${res.status}, which is none of 200, 400 and 422`);
  }
  const type = res.headers['content-type'];
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type.trim())) {
    throw notProfile(
      who,
      `HTTP ${res.status} with content type ${type === undefined ? '(none)' : JSON.stringify(type.slice(0, 80))}, not application/json (profile 1)`,
    );
  }
  if (res.json === undefined) {
    throw notProfile(who, `HTTP ${res.status} whose body is not JSON (${res.jsonError ?? 'unreadable'})`);
  }
  return res.json;
}

/**
 * The default wallet driver over the HTTP harness: `POST {harness_url}/derive` (profile section 3).
 * An answer that is not a profile answer (not JSON, truncated, a redirect, a server error, another
 * media type, a wrong shape, a status that does not go with its code) is a
 * {@link DriverTransportError} naming the cause, never a rejection.
 * @example
 * ```ts
 * const wallet = createHttpWallet('https://127.0.0.1:9443/harness', http);
 * const r = await wallet.derive({ cpr, context: { payer, rail, authorization } });
 * ```
 */
export function createHttpWallet(harnessUrl: string, http: HttpClient): WalletDriver {
  const url = joinUrl(harnessUrl, 'derive');
  const who = `the wallet harness at ${url}`;
  return {
    channel: 'http',
    undefinedRequest: (req) => sendUndefinedRequest(http, harnessUrl, req),
    async derive(input: DeriveInput): Promise<DeriveResult> {
      const res = await http.exchange({ method: 'POST', url, json: input });
      const answer = checkHttpAnswer(res, who);
      return readDeriveAnswer(answer, {
        status: res.status,
        requestWellFormed: isWellFormedDeriveRequest(input),
        who,
      });
    },
    async deriveText(text: string): Promise<DeriveResult> {
      const res = await http.exchange({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        body: text,
      });
      return readDeriveAnswer(checkHttpAnswer(res, who), {
        status: res.status,
        requestWellFormed: false,
        who,
      });
    },
  };
}
