/**
 * Small helpers shared by the rules: JSON pointers, safe member access, finding builders.
 *
 * @packageDocumentation
 */
import type { Finding, FindingSeverity } from './types.js';

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

/** True for a non-null, non-array object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The own member `key` of `obj` when `obj` is an object, else undefined (never invokes
 * inherited getters: documents are data).
 */
export function member(obj: unknown, key: string): unknown {
  if (!isObject(obj) || !Object.hasOwn(obj, key)) return undefined;
  return obj[key];
}

/** Level of a requirement ID: `PRF-` IDs are PROFILE choices, the others SPEC rules. */
export function levelOf(requirement: string): 'SPEC' | 'PROFILE' {
  return requirement.startsWith('PRF-') ? 'PROFILE' : 'SPEC';
}

/**
 * Builds a finding; the level follows from the requirement ID.
 *
 * @example
 * ```ts
 * finding('CPR-2.1-MEMO-LENGTH', '/memo', 'memo has 141 code points; at most 140 are allowed');
 * ```
 */
export function finding(
  requirement: string,
  path: string,
  message: string,
  severity: FindingSeverity = 'error',
): Finding {
  return { requirement, level: levelOf(requirement), severity, path, message };
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
