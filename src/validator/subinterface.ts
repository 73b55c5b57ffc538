/**
 * Which CPR sub-interface applies to a document (CPR-1.0 2.4-2.8, profile section 2).
 *
 * @packageDocumentation
 */
import { type RailHint, SUB_INTERFACE_OF_HINT, type SubInterface } from '../model/cpr.js';
import { documentMemo } from './memo.js';
import { type CprView, lateMember, viewOf } from './view.js';

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
  const memo = documentMemo;
  // (outside a validation memo.doc is undefined: a selection kept for an undefined doc is the
  // one it always has, and the next validation clears it)
  if (doc === memo.doc) {
    memo.selection ??= selectionOf(doc);
    return memo.selection as Selection;
  }
  return selectionOf(doc);
}

function selectionOf(doc: unknown): Selection {
  // a doc that is not an object has a view with no member: no sub-interface is complete
  const view = viewOf(doc);
  const hint = view.rail_hint;
  if (hint === undefined || hint === 'OPEN') {
    const complete: SubInterface[] = [];
    for (const s of OPEN_CANDIDATES) if (isCompleteIn(view, s)) complete.push(s);
    return { kind: 'open', complete };
  }
  if (typeof hint === 'string' && Object.hasOwn(SUB_INTERFACE_OF_HINT, hint)) {
    return { kind: 'named', hint, sub: SUB_INTERFACE_OF_HINT[hint as Exclude<RailHint, 'OPEN'>] };
  }
  return { kind: 'unknown', hint };
}

/**
 * True when every required field of `sub` (`REQUIRED_FIELDS` of `model/cpr.ts`) is an own member
 * of the view's document whose value is neither undefined nor null (read in that order, each
 * only when the fields before it are there).
 */
export function isCompleteIn(view: CprView, sub: SubInterface): boolean {
  switch (sub) {
    case 'iban':
      return view.iban != null && lateMember(view, 'beneficiary_name') != null;
    case 'account':
      return lateMember(view, 'account_number') != null && lateMember(view, 'beneficiary_name') != null;
    case 'instant-key':
      return lateMember(view, 'key_type') != null && lateMember(view, 'key_value') != null;
    default:
      return view.rail_hint != null && view.chain_id != null && view.receiver_address != null;
  }
}

/** The sub-interfaces OPEN or no rail_hint can select (on-chain needs ON_CHAIN), in order. */
const OPEN_CANDIDATES = ['iban', 'account', 'instant-key'] as const;

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
