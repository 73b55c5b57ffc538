/**
 * Small helpers shared by the rules: JSON pointers, safe member access, descriptions. Findings
 * are built with `finding()` of `src/model/finding.ts`; `isObject` is `src/model/util.ts`.
 *
 * @packageDocumentation
 */

import type { Finding } from '../model/finding.js';
import { isObject } from '../model/util.js';
import type { RuleContext } from './types.js';

/**
 * RFC 6901 JSON pointer of a path of member names and indices.
 *
 * @example
 * ```ts
 * pointer(['payee', 'rail_address', 'iban']); // '/payee/rail_address/iban'
 * ```
 */
export function pointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (let i = 0; i < segments.length; i++) out += `/${escapeSegment(String(segments[i]))}`;
  return out;
}

/**
 * The reference tokens of an RFC 6901 JSON pointer (`~1` read as `/`, then `~0` as `~`): the
 * inverse of {@link pointer}. `''` (the whole document) has none.
 *
 * @example
 * ```ts
 * pointerSegments('/payee/rail_address/a~1b'); // ['payee', 'rail_address', 'a/b']
 * ```
 */
export function pointerSegments(text: string): string[] {
  if (text === '') return [];
  return text
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One RFC 6901 reference token: `~` as `~0`, `/` as `~1`. */
function escapeSegment(s: string): string {
  return s.replace(/~/g, '~0').replace(/\//g, '~1');
}

/**
 * `Rule.check` of a rule written as a `collect` function: its findings, in a new array.
 *
 * @example
 * ```ts
 * export const myRule: Rule = { name, requirements, check: (ctx) => findingsOf(collect, ctx), collect };
 * ```
 */
export function findingsOf(collect: (ctx: RuleContext, out: Finding[]) => void, ctx: RuleContext): Finding[] {
  const out: Finding[] = [];
  collect(ctx, out);
  return out;
}

/**
 * The own member `key` of `obj` when `obj` is an object, else undefined (never invokes
 * inherited getters: documents are data).
 */
export function member(obj: unknown, key: string): unknown {
  // hasOwnProperty.call is Object.hasOwn for an object, and V8 optimises it better
  if (!isObject(obj) || !hasOwn.call(obj, key)) return undefined;
  return obj[key];
}

const hasOwn = Object.prototype.hasOwnProperty;

/** Number of Unicode code points of `s` (not UTF-16 units; profile section 2). */
export function codePointLength(s: string): number {
  // iterating a string visits each code point: a surrogate pair once, a lone surrogate once
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Items listed for a message: `a`, `a and b`, `a, b and c` (`or` before the last with `last`).
 * @example
 * ```ts
 * listText(['iban', 'account']); // 'iban and account'
 * ```
 */
export function listText(items: readonly string[], last: 'and' | 'or' = 'and'): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} ${last} ${items.at(-1)}`;
}

/** JSON-ish description of a value for a message, cut to 60 characters. */
export function describe(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
