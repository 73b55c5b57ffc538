/**
 * Redaction of secrets before anything reaches a report (docs/conventions.md, "Secrets";
 * profile section 5: every private key, credential and identity token is a secret).
 */

/** The text that replaces every secret. */
export const REDACTED = '[redacted]';

/** Config members whose whole value is a secret (profile section 5). */
const SECRET_KEY =
  /private_key|credential|identity_token|token|secret|password|passphrase|authorization|cookie/i;

/** Header fields whose value is a secret. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

/**
 * Deep copy of a run configuration with every secret member replaced by `"[redacted]"`: members
 * named like a key, credential or token, and the private part `d` of any JWK.
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
    // A file *path* to a key is not a secret; its content is never read here.
    const isPath = /_file$|_path$/i.test(key);
    out[key] = (!isPath && SECRET_KEY.test(key)) || key === 'd' ? REDACTED : redactConfig(member);
  }
  return out;
}

/**
 * Header fields with secret values (Authorization, Cookie, ...) replaced by `"[redacted]"`.
 * The runner redacts them already; this is a second line of defence.
 */
export function redactHeaders<H extends Record<string, string | string[]>>(headers: H): H {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SECRET_HEADER.test(name) ? REDACTED : value;
  }
  return out as H;
}

/**
 * Deep copy of `value` with every occurrence of each literal secret in any string (keys and
 * values) replaced by `"[redacted]"`. Secrets shorter than 4 characters are ignored (they would
 * erase ordinary text).
 */
export function scrubSecrets<T>(value: T, secrets: readonly string[]): T {
  const list = [...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= 4))].sort(
    (a, b) => b.length - a.length,
  );
  if (list.length === 0) return value;
  const scrub = (text: string): string => {
    let out = text;
    for (const secret of list) out = out.split(secret).join(REDACTED);
    return out;
  };
  const walk = (item: unknown): unknown => {
    if (typeof item === 'string') return scrub(item);
    if (Array.isArray(item)) return item.map(walk);
    if (item !== null && typeof item === 'object') {
      const out: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(item as Record<string, unknown>))
        out[scrub(key)] = walk(member);
      return out;
    }
    return item;
  };
  return walk(value) as T;
}
