import canonicalizeLib from 'canonicalize';
import { CprcError } from '../errors.js';

/**
 * Walks `value` and throws a clear error for anything RFC 8785 (JCS) cannot encode: numbers that
 * are not finite, bigint, functions, symbols, `undefined` outside an object member, lone UTF-16
 * surrogates, non-plain objects and cycles. `undefined` object members are omitted, as
 * `JSON.stringify` does.
 */
function assertJsonValue(value: unknown, path: string, seen: Set<object>): void {
  switch (typeof value) {
    case 'string':
      if (/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value)) {
        throw invalid(path, 'is a string with a lone UTF-16 surrogate (RFC 8785 section 3.2.2.2)');
      }
      return;
    case 'number':
      if (!Number.isFinite(value)) throw invalid(path, `is ${value}, which JSON cannot represent`);
      return;
    case 'boolean':
      return;
    case 'object': {
      if (value === null) return;
      if (seen.has(value)) throw invalid(path, 'is a circular reference');
      seen.add(value);
      if (Array.isArray(value)) {
        value.forEach((item, i) => {
          if (item === undefined) throw invalid(`${path}/${i}`, 'is undefined, which JSON cannot represent');
          assertJsonValue(item, `${path}/${i}`, seen);
        });
      } else {
        const proto = Object.getPrototypeOf(value);
        if (proto !== Object.prototype && proto !== null) {
          throw invalid(
            path,
            `is a ${proto?.constructor?.name ?? 'non-plain'} object, not a plain JSON object`,
          );
        }
        for (const [key, member] of Object.entries(value)) {
          if (member === undefined) continue;
          assertJsonValue(key, `${path}/${key}`, seen);
          assertJsonValue(member, `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`, seen);
        }
      }
      seen.delete(value);
      return;
    }
    default:
      throw invalid(path, `is a ${typeof value}, which JSON cannot represent`);
  }
}

function invalid(path: string, what: string): CprcError {
  return new CprcError(
    'CPRC_INPUT_INVALID',
    `cannot canonicalize: value at "${path}" ${what}; pass plain JSON data (strings, finite numbers, booleans, null, arrays, objects)`,
  );
}

/**
 * RFC 8785 JSON Canonicalization Scheme: the canonical JSON text of `value` (sorted members by
 * UTF-16 code units, ECMAScript number serialisation, minimal string escaping), built on the
 * `canonicalize` package.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` for a value JCS cannot encode, naming its JSON pointer.
 * @example
 * ```ts
 * canonicalize({ b: 1e30, a: [4.5, -0] }); // '{"a":[4.5,0],"b":1e+30}'
 * ```
 */
export function canonicalize(value: unknown): string {
  assertJsonValue(value, '', new Set());
  const text = canonicalizeLib(value);
  if (text === undefined) throw invalid('', 'has no JSON representation');
  return text;
}

/**
 * The UTF-8 bytes of {@link canonicalize}: what gets signed and hashed (profile section 4).
 *
 * @example
 * ```ts
 * canonicalBytes({ a: '€' }); // Uint8Array of '{"a":"€"}' in UTF-8 (10 bytes)
 * ```
 */
export function canonicalBytes(value: unknown): Uint8Array {
  return new TextEncoder().encode(canonicalize(value));
}
