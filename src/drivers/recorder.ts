import type { Exchange } from '../runner/types.js';
import type { RunConfig } from './types.js';

/** Bodies recorded as evidence are cut to this many bytes (contract with the reporters). */
export const MAX_RECORDED_BODY_BYTES = 8 * 1024;

/** Replacement of every secret in recorded evidence. */
export const REDACTED = '[redacted]';

/** Header names whose values are always secret. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/** JSON member names whose values are always secret, wherever they appear in a body. */
const SECRET_MEMBERS = new Set([
  'private_key_jwk',
  'identity_token',
  'status_credential',
  'operator_status_credential',
  'redeemer_identity_tokens',
  'credential',
  'password',
]);

/**
 * Collects the secrets of a run configuration: every private key (the whole JWK's `d`), every
 * status credential and every redeemer identity token (profile section 5).
 * @example
 * ```ts
 * const secrets = secretsOf(config); // ['k3y...', 'cred-funded', ...]
 * ```
 */
export function secretsOf(config: RunConfig | undefined): string[] {
  const out = new Set<string>();
  const walk = (value: unknown, key: string | undefined, inSecret: boolean): void => {
    if (typeof value === 'string') {
      if ((inSecret || (key !== undefined && SECRET_MEMBERS.has(key)) || key === 'd') && value.length >= 4) {
        out.add(value);
      }
      return;
    }
    if (Array.isArray(value)) {
      for (const v of value) walk(v, key, inSecret);
      return;
    }
    if (value !== null && typeof value === 'object') {
      // In a JWK only the private member `d` is secret: `kty`, `crv` and the public `x` are not,
      // and collecting them would redact every mention of "Ed25519" or "OKP" in the evidence.
      const secretHere =
        inSecret || (key !== undefined && key !== 'private_key_jwk' && SECRET_MEMBERS.has(key));
      for (const [k, v] of Object.entries(value)) walk(v, k, secretHere || k === 'd');
    }
  };
  walk(config?.operator, undefined, false);
  walk(config?.payee, undefined, false);
  walk(config?.wallet, undefined, false);
  // wallet.env values may carry secrets (API keys of the wallet under test)
  for (const v of Object.values(config?.wallet?.env ?? {}))
    if (typeof v === 'string' && v.length >= 4) out.add(v);
  // Whatever a config puts under a member named like a secret is one, even outside those sections.
  for (const [k, v] of Object.entries((config ?? {}) as Record<string, unknown>)) {
    if (SECRET_MEMBERS.has(k)) walk(v, k, true);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/**
 * Replaces every secret value in a string and every secret member of a JSON text by
 * `[redacted]`. The text is kept byte for byte unless a secret member had to be replaced (then it
 * is re-serialised), so evidence keeps the target's exact formatting and number literals.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  if (
    /"(?:private_key_jwk|identity_token|status_credential|operator_status_credential|redeemer_identity_tokens|credential|password|d)"\s*:/.test(
      text,
    )
  ) {
    try {
      const parsed: unknown = JSON.parse(text);
      const state = { changed: false };
      const redacted = redactMembers(parsed, state);
      if (state.changed) out = JSON.stringify(redacted);
    } catch {
      // not JSON: value replacement only
    }
  }
  for (const s of secrets) {
    if (out.includes(s)) out = out.split(s).join(REDACTED);
  }
  return out;
}

function redactMembers(value: unknown, state: { changed: boolean }): unknown {
  if (Array.isArray(value)) return value.map((v) => redactMembers(v, state));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const isJwk = 'kty' in value;
    for (const [k, v] of Object.entries(value)) {
      if ((SECRET_MEMBERS.has(k) || (isJwk && k === 'd')) && v !== REDACTED) {
        out[k] = REDACTED;
        state.changed = true;
      } else {
        out[k] = redactMembers(v, state);
      }
    }
    return out;
  }
  return value;
}

/** Deep copy of `value` with secret members and secret values replaced by `[redacted]`. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') {
    let s = value;
    for (const secret of secrets) if (s.includes(secret)) s = s.split(secret).join(REDACTED);
    return s;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, secrets));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    const isJwk = 'kty' in value;
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_MEMBERS.has(k) || (isJwk && k === 'd') ? REDACTED : redactValue(v, secrets);
    }
    return out;
  }
  return value;
}

/** Redacts secret headers and secret values in header values. */
export function redactHeaders(
  headers: Record<string, string> | undefined,
  secrets: readonly string[],
): Record<string, string> | undefined {
  if (!headers) return undefined;
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k.toLowerCase()] = SECRET_HEADERS.has(k.toLowerCase()) ? REDACTED : redactText(v, secrets);
  }
  return out;
}

/** Cuts a body to {@link MAX_RECORDED_BODY_BYTES} UTF-8 bytes, with a visible marker. */
export function truncateBody(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= MAX_RECORDED_BODY_BYTES) return text;
  // Cutting may split a character; the decoder replaces the broken tail, which is fine for evidence.
  const head = bytes.subarray(0, MAX_RECORDED_BODY_BYTES).toString('utf8');
  return `${head}…[truncated ${bytes.length - MAX_RECORDED_BODY_BYTES} bytes]`;
}

/**
 * Records the exchanges of a run as evidence, redacting secrets on the way in, so nothing
 * secret is ever held in a recorded exchange. The runner takes the exchanges recorded since the
 * last take at the end of every test.
 * @example
 * ```ts
 * const recorder = new Recorder(secretsOf(config));
 * recorder.record({ kind: 'http', method: 'GET', url, status: 200, duration_ms: 3 });
 * const evidence = recorder.take(); // [ { ... } ], and the buffer is empty again
 * ```
 */
export class Recorder {
  readonly #secrets: string[];
  #buffer: Exchange[] = [];
  #listeners: Array<(e: Exchange) => void> = [];

  /** @param secrets values that must never appear in evidence (see {@link secretsOf}). */
  constructor(secrets: readonly string[] = []) {
    this.#secrets = [...secrets].sort((a, b) => b.length - a.length);
  }

  /** The secrets this recorder redacts (for other redaction needs of the run, e.g. messages). */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  /** Redacts and records one exchange; returns the stored (redacted) copy. */
  record(exchange: Exchange): Exchange {
    const e: Exchange = { ...exchange };
    if (e.url !== undefined) e.url = this.redact(e.url);
    const reqH = redactHeaders(e.request_headers, this.#secrets);
    if (reqH) e.request_headers = reqH;
    const resH = redactHeaders(e.response_headers, this.#secrets);
    if (resH) e.response_headers = resH;
    if (e.request_body !== undefined)
      e.request_body = truncateBody(redactText(e.request_body, this.#secrets));
    if (e.response_body !== undefined)
      e.response_body = truncateBody(redactText(e.response_body, this.#secrets));
    if (e.error !== undefined) e.error = this.redact(e.error);
    this.#buffer.push(e);
    for (const l of this.#listeners) l(e);
    return e;
  }

  /** Replaces every secret value in `text` by `[redacted]`. */
  redact(text: string): string {
    let out = text;
    for (const s of this.#secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
    return out;
  }

  /** Returns the exchanges recorded since the last take and empties the buffer. */
  take(): Exchange[] {
    const out = this.#buffer;
    this.#buffer = [];
    return out;
  }

  /** Calls `listener` for every exchange recorded from now on; returns an unsubscribe function. */
  onRecord(listener: (e: Exchange) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }
}
