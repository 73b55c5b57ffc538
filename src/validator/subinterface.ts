/**
 * Which CPR sub-interface applies to a document (CPR-1.0 2.4-2.8, profile section 2).
 *
 * @packageDocumentation
 */
import { type RailHint, REQUIRED_FIELDS, SUB_INTERFACE_OF_HINT, type SubInterface } from '../model/cpr.js';
import { isObject } from '../model/util.js';

/** True when every required field of `sub` is present (any value) at the top level of `doc`. */
export function isComplete(doc: Record<string, unknown>, sub: SubInterface): boolean {
  return REQUIRED_FIELDS[sub].every((f) => Object.hasOwn(doc, f) && doc[f] !== undefined && doc[f] !== null);
}

/** Result of {@link selectSubInterface}. */
export type Selection =
  /** rail_hint names a sub-interface. */
  | { kind: 'named'; hint: string; sub: SubInterface }
  /** OPEN or no rail_hint: the complete sub-interfaces among IBAN, account, instant-key. */
  | { kind: 'open'; complete: SubInterface[] }
  /** rail_hint is not one of the eight values (or not a string): no sub-interface applies. */
  | { kind: 'unknown'; hint: unknown };

/**
 * The sub-interface selection of profile section 2: a named rail_hint selects its
 * sub-interface; with OPEN or no rail_hint the candidates are the complete IBAN, account and
 * instant-key sub-interfaces (on-chain needs `rail_hint: ON_CHAIN`, spec 2.5).
 *
 * @example
 * ```ts
 * selectSubInterface({ rail_hint: 'PIX' }); // { kind: 'named', hint: 'PIX', sub: 'instant-key' }
 * ```
 */
export function selectSubInterface(doc: unknown): Selection {
  const hint = isObject(doc) && Object.hasOwn(doc, 'rail_hint') ? doc.rail_hint : undefined;
  if (hint === undefined || hint === 'OPEN') {
    const complete = isObject(doc)
      ? (['iban', 'account', 'instant-key'] as const).filter((s) => isComplete(doc, s))
      : [];
    return { kind: 'open', complete: [...complete] };
  }
  if (typeof hint === 'string' && Object.hasOwn(SUB_INTERFACE_OF_HINT, hint)) {
    return { kind: 'named', hint, sub: SUB_INTERFACE_OF_HINT[hint as Exclude<RailHint, 'OPEN'>] };
  }
  return { kind: 'unknown', hint };
}

/**
 * The single sub-interface that applies, or null (unknown rail_hint, or OPEN with zero or two
 * complete sub-interfaces).
 */
export function appliedSubInterface(doc: unknown): SubInterface | null {
  const sel = selectSubInterface(doc);
  if (sel.kind === 'named') return sel.sub;
  if (sel.kind === 'open' && sel.complete.length === 1) return sel.complete[0] ?? null;
  return null;
}
