/**
 * Small helpers shared by the rules: JSON pointers, safe member access, descriptions. Findings
 * are built with `finding()` of `src/model/finding.ts`; `isObject` is `src/model/util.ts`.
 *
 * @packageDocumentation
 */

import { isObject } from '../model/util.js';

/**
 * RFC 6901 JSON pointer of a path of member names and indices.
 *
 * @example
 * ```ts
 * pointer(['payee', 'rail_address', 'iban']); // '/payee/rail_address/iban'
 * ```
 */
export function pointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

/**
 * The own member `key` of `obj` when `obj` is an object, else undefined (never invokes
 * inherited getters: documents are data).
 */
export function member(obj: unknown, key: string): unknown {
  if (!isObject(obj) || !Object.hasOwn(obj, key)) return undefined;
  return obj[key];
}

/** Number of Unicode code points of `s` (not UTF-16 units; profile section 2). */
export function codePointLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/** JSON-ish description of a value for a message, cut to 60 characters. */
export function describe(value: unknown): string {
  let text: string;
  try {
    text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  } catch {
    text = Object.prototype.toString.call(value);
  }
  if (text === undefined) text = typeof value;
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
