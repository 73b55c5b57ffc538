/**
 * The secrets policy, in one place (docs/conventions.md, "Secrets"; profile section 5: every
 * private key, credential and identity token is a secret). Applied twice: at capture (the
 * drivers' `Recorder` redacts every exchange as it is recorded) and again at report time (the
 * reporters redact headers and the configuration, and erase every literal secret value from
 * everything they write).
 *
 * - {@link SECRET_HEADERS}: header fields whose value is always secret.
 * - {@link SECRET_MEMBERS}: JSON member names whose value is secret wherever they appear (wire
 *   bodies and the configuration), plus the private member `d` of a JWK.
 * - {@link isSecretConfigKey}: config members named like a secret (a wider net, for the
 *   configuration only: wire members such as a payee's `token` are evidence, not secrets).
 * - {@link secretsOf}: the literal secret values of a run configuration, erased wherever they
 *   appear.
 *
 * @packageDocumentation
 */
import type { RunConfig } from '../generated/tool/run-config.js';
import { jsonTextDepth } from '../model/util.js';

/** The text that replaces every secret. */
export const REDACTED = '[redacted]';

/** Header names (lower-case) whose values are always secret. */
export const SECRET_HEADERS: ReadonlySet<string> = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
]);

/** JSON member names whose values are always secret, wherever they appear. */
export const SECRET_MEMBERS: ReadonlySet<string> = new Set([
  'private_key_jwk',
  'identity_token',
  'status_credential',
  'operator_status_credential',
  'redeemer_identity_tokens',
  'credential',
  'password',
]);

/** Config member names that are secrets by their name (the configuration only). */
const SECRET_CONFIG_NAME =
  /private_key|credential|identity_token|token|secret|password|passphrase|authorization|cookie|api_key/i;

/** Literal secrets shorter than this are not erased from text (they would erase ordinary words). */
const MIN_SECRET_LENGTH = 4;

/**
 * True when a configuration member holds a secret by its name: one of {@link SECRET_MEMBERS},
 * a JWK's `d`, or a name like a key, credential, token, password or cookie. A file *path* to a
 * key (`*_file`, `*_path`) is not a secret (its content is never read here).
 */
export function isSecretConfigKey(key: string): boolean {
  if (/_file$|_path$/i.test(key)) return false;
  return key === 'd' || SECRET_MEMBERS.has(key) || SECRET_CONFIG_NAME.test(key);
}

/** True when a header field's value is secret. */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADERS.has(name.toLowerCase());
}

/**
 * Collects the literal secrets of a run configuration: every private key (the whole JWK's `d`),
 * every status credential and redeemer identity token (profile section 5), the values of
 * `wallet.env`, and whatever sits under a member named in {@link SECRET_MEMBERS}. Longest first.
 * @example
 * ```ts
 * const secrets = secretsOf(config); // ['k3y...', 'cred-funded', ...]
 * ```
 */
export function secretsOf(config: RunConfig | undefined): string[] {
  const out = new Set<string>();
  const walk = (value: unknown, key: string | undefined, inSecret: boolean): void => {
    if (typeof value === 'string') {
      if (
        (inSecret || (key !== undefined && SECRET_MEMBERS.has(key)) || key === 'd') &&
        value.length >= MIN_SECRET_LENGTH
      ) {
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
    if (typeof v === 'string' && v.length >= MIN_SECRET_LENGTH) out.add(v);
  // Whatever a config puts under a member named like a secret is one, even outside those sections.
  for (const [k, v] of Object.entries((config ?? {}) as Record<string, unknown>)) {
    if (SECRET_MEMBERS.has(k)) walk(v, k, true);
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` with every literal secret replaced by {@link REDACTED} (secrets shorter than 4 ignored). */
export function eraseSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets)
    if (s.length >= MIN_SECRET_LENGTH && out.includes(s)) out = out.split(s).join(REDACTED);
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

/**
 * Replaces every secret value in a string and every secret member of a JSON text by
 * {@link REDACTED}. The text is kept byte for byte unless a secret member had to be replaced (then
 * it is re-serialised), so evidence keeps the target's exact formatting and number literals.
 */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  // no member named like a secret (the common case: most bodies are read once, by this test)
  if (!SECRET_MEMBER_NAME.test(text)) return eraseSecrets(out, secrets);
  if (jsonTextDepth(text) > MAX_REDACT_DEPTH) {
    // too deep to walk (a hostile body; the member walk recurses): secret members' string values
    // are replaced in the text itself
    out = out.replace(SECRET_MEMBER_VALUE, `$1"${REDACTED}"`);
  } else {
    try {
      const parsed: unknown = JSON.parse(text);
      const state = { changed: false };
      const redacted = redactMembers(parsed, state);
      if (state.changed) out = JSON.stringify(redacted);
    } catch {
      // not JSON: value replacement only
    }
  }
  return eraseSecrets(out, secrets);
}

/** The secret member names (and a JWK's `d`) as a regular-expression alternation. */
const SECRET_MEMBER_NAMES = [...SECRET_MEMBERS, 'd'].join('|');
/** A secret member's name followed by its colon: the text may carry a secret member. */
const SECRET_MEMBER_NAME = new RegExp(`"(?:${SECRET_MEMBER_NAMES})"\\s*:`);
/** A secret member with a string value (`$1` its name and colon), for texts too deep to walk. */
const SECRET_MEMBER_VALUE = new RegExp(`("(?:${SECRET_MEMBER_NAMES})"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'g');

/** Deepest JSON the member-wise redaction walks (it recurses); deeper texts are redacted textually. */
const MAX_REDACT_DEPTH = 512;

/** Deep copy of `value` with secret members (and a JWK's `d`) and literal secret values replaced. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return eraseSecrets(value, secrets);
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

/**
 * Header fields with lower-case names; secret fields ({@link SECRET_HEADERS}) replaced by
 * {@link REDACTED} and literal secrets erased from the others.
 */
export function redactHeaders(
  headers: Readonly<Record<string, string>>,
  secrets: readonly string[] = [],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    out[k.toLowerCase()] = isSecretHeader(k) ? REDACTED : redactText(v, secrets);
  }
  return out;
}

/**
 * Deep copy of a run configuration with every member secret by its name
 * ({@link isSecretConfigKey}) replaced by {@link REDACTED}.
 *
 * @example
 * ```ts
 * redactConfig({ operator: { operator_status_credential: 's3cret' } });
 * // { operator: { operator_status_credential: '[redacted]' } }
 * ```
 */
export function redactConfig(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => redactConfig(item));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value as Record<string, unknown>)) {
    out[key] = isSecretConfigKey(key) ? REDACTED : redactConfig(member);
  }
  return out;
}

/**
 * Deep copy of `value` with every occurrence of each literal secret in any string (keys and
 * values) replaced by {@link REDACTED}. Secrets shorter than 4 characters are ignored.
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const list = [
    ...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)),
  ].sort((a, b) => b.length - a.length);
  if (list.length === 0) return value;
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return eraseSecrets(item, list);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(item as Record<string, unknown>))
        out[eraseSecrets(key, list)] = walk(member);
      return out;
    }
    return item;
  };
  return walk(value) as T;
}
