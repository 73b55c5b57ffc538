// Also checks, by the same member names: CPR-1-NO-PAYER-AUTH-STATE (spec 1 rule 2: no payer
// information, authorization proof or state), CPR-3-NO-STATE (3 rule 1: no status, authorization or
// confirmation), CPR-3-CONSUMED-NOT-A-FIELD (3 rule 4: consumed/expired is no field of the CPR) and
// CPR-2.9-CONTEXT-NOT-IN-CPR (2.9: the DerivationContext's payer, authorization and execution
// context are never inside the CPR).

import {
  ASSET_FIELDS,
  BASE_FIELDS,
  PAYEE_FIELDS,
  SUB_INTERFACE_FIELD_NAMES,
  VALUE_FIELDS,
} from '../../model/cpr.js';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, pointer } from '../util.js';

/** A member identifies, references or assumes a payer (invariant 1, spec 1 rule 2). */
const REQ_PAYER = 'CPR-INV-1-NO-PAYER-DATA';
/** A member carries authorization, settlement or state (invariant 6, spec 3 rule 1). */
const REQ_SEPARATION = 'CPR-INV-6-SEPARATION';

/**
 * Payer member names beyond the profile's floor, normalised (lower case, letters and digits
 * only). Profile section 2 makes `payer`, `payer_*` and `debtor*` payer data at any depth; these
 * are the other spellings payment standards use for the payer (ISO 20022's ultimate debtor, the
 * usual sender / from-address / customer names). Names a CPR legitimately uses (payee,
 * beneficiary_name, txid, end_to_end_id) are deliberately absent.
 */
export const PAYER_KEYS: ReadonlySet<string> = new Set([
  'payer',
  'payerid',
  'payername',
  'payeraccount',
  'payeraddress',
  'payeriban',
  'payeremail',
  'payerphone',
  'payerwallet',
  'payerinfo',
  'payerdetails',
  'payercontext',
  'debtor',
  'debtorname',
  'debtoraccount',
  'debtoriban',
  'debtoragent',
  'ultimatedebtor',
  'sender',
  'senderaddress',
  'senderaccount',
  'sendername',
  'fromaddress',
  'payinguser',
  'customerid',
]);

/**
 * Authorization, state, settlement and confirmation member names, normalised (see
 * {@link PAYER_KEYS}). The profile's floor (`authorization`, `signed_tx`, `raw_tx`, `permit`,
 * `execution_date`, `state`, `status`) plus the usual confirmation / settlement spellings and the
 * DerivationContext of spec 2.9.
 */
export const SEPARATION_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'authorisation',
  'authorizationproof',
  'authproof',
  'signedtx',
  'rawtx',
  'permit',
  'executiondate',
  'state',
  'status',
  'paymentstatus',
  'paymentstate',
  'settlement',
  'settlementinstruction',
  'settlementstatus',
  'settled',
  'settledat',
  'confirmation',
  'confirmations',
  'confirmed',
  'confirmedat',
  'paid',
  'paidat',
  'fulfilled',
  'fulfilledat',
  'consumed',
  'consumedat',
  // the DerivationContext of spec 2.9 is supplied by the paying application, never in the CPR
  'derivationcontext',
  'executioncontext',
]);

/** Top-level members that are the DerivationContext of spec 2.9 (profile section 2). */
const TOP_LEVEL_KEYS: ReadonlySet<string> = new Set(['signature', 'request', 'rail']);

/**
 * Normalises a member name for {@link PAYER_KEYS} / {@link SEPARATION_KEYS} lookup: the part
 * after the last namespace separator (`:`, `/` or `.`), lower case, letters and digits only, so
 * `foundation:payer_id`, `com.example.payerId` and `Payer-ID` all give `payerid`.
 *
 * @example
 * ```ts
 * normaliseKey('com.example:Signed-Tx'); // 'signedtx'
 * ```
 */
export function normaliseKey(key: string): string {
  const cut = Math.max(key.lastIndexOf(':'), key.lastIndexOf('/'), key.lastIndexOf('.'));
  return squash(key.slice(cut + 1));
}

/** Lower case, letters and digits only. */
function squash(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, '');
}

/** 0: allowed, 1: payer data, 2: authorization/state/settlement. */
type Verdict = 0 | 1 | 2;

/** Every exact name of {@link PAYER_KEYS} (1) and {@link SEPARATION_KEYS} (2), in one map. */
const EXACT: ReadonlyMap<string, Verdict> = new Map<string, Verdict>([
  ...[...SEPARATION_KEYS].map((k): [string, Verdict] => [k, 2]),
  ...[...PAYER_KEYS].map((k): [string, Verdict] => [k, 1]),
]);

function classifyNormalised(n: string, topLevel: boolean): Verdict {
  const exact = EXACT.get(n);
  if (exact !== undefined) return exact;
  // prefixes: payer*, debtor* (1); mandate*, settlement* (2); gate on the first letter
  const c = n.charCodeAt(0);
  if (c === 0x70 /* p */) return n.startsWith('payer') ? 1 : 0;
  if (c === 0x64 /* d */) return n.startsWith('debtor') ? 1 : 0;
  if (c === 0x6d /* m */) return n.startsWith('mandate') ? 2 : 0;
  if (c === 0x73 /* s */) return n.startsWith('settlement') ? 2 : topLevel && n === 'signature' ? 2 : 0;
  if (topLevel && TOP_LEVEL_KEYS.has(n)) return 2;
  return 0;
}

/** {@link classifyKey} for names with non-ASCII characters (Unicode lower-casing first). */
function classifySlow(key: string, topLevel: boolean): Verdict {
  const lower = key.toLowerCase();
  const cut = Math.max(lower.lastIndexOf(':'), lower.lastIndexOf('/'), lower.lastIndexOf('.'));
  if (cut >= 0) {
    const tail = classifyNormalised(lower.slice(cut + 1).replace(NOT_ALNUM, ''), topLevel);
    if (tail !== 0) return tail;
  }
  return classifyNormalised(lower.replace(NOT_ALNUM, ''), topLevel);
}

const NOT_ALNUM = /[^a-z0-9]/g;

/**
 * A trie over the normalised forbidden names (letters and digits), walked straight over the raw
 * ASCII name: upper case folded, separators skipped, no string built. A walk that leaves the trie
 * ends at once, so most names cost a character or two. Stored flat: state `s` goes on slot `c`
 * to `TRIE_NEXT[s * SLOTS + c]` (0: out of the trie); {@link ROOT} is the empty name.
 */
const SLOTS = 36;
const ROOT = 1;

/** Slot of an ASCII character: letters (either case) 0-25, digits 26-35, anything else -1 (skipped). */
const SLOT: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  for (let c = 0; c < 26; c++) {
    t[0x61 + c] = c;
    t[0x41 + c] = c;
  }
  for (let d = 0; d < 10; d++) t[0x30 + d] = 26 + d;
  return t;
})();

/** The trie's transitions and, per state, the verdict of a name ending there (exact, top-level exact) or reaching it (prefix). */
const { TRIE_NEXT, TRIE_EXACT, TRIE_TOP_EXACT, TRIE_PREFIX } = (() => {
  const next: number[][] = [[], []]; // state 0: out of the trie; 1: the root
  const exact: Verdict[] = [0, 0];
  const topExact: Verdict[] = [0, 0];
  const prefix: Verdict[] = [0, 0];
  const stateFor = (name: string): number => {
    let s = ROOT;
    for (let i = 0; i < name.length; i++) {
      const c = SLOT[name.charCodeAt(i)] as number;
      let t = (next[s] as number[])[c];
      if (t === undefined) {
        t = next.length;
        next.push([]);
        exact.push(0);
        topExact.push(0);
        prefix.push(0);
        (next[s] as number[])[c] = t;
      }
      s = t;
    }
    return s;
  };
  for (const [name, v] of EXACT) exact[stateFor(name)] = v;
  for (const name of ['payer', 'debtor']) prefix[stateFor(name)] = 1;
  for (const name of ['mandate', 'settlement']) prefix[stateFor(name)] = 2;
  for (const name of TOP_LEVEL_KEYS) topExact[stateFor(name)] = 2;
  const flat = new Int32Array(next.length * SLOTS);
  next.forEach((row, s) => {
    for (let c = 0; c < SLOTS; c++) flat[s * SLOTS + c] = row[c] ?? 0;
  });
  return {
    TRIE_NEXT: flat,
    TRIE_EXACT: Uint8Array.from(exact),
    TRIE_TOP_EXACT: Uint8Array.from(topExact),
    TRIE_PREFIX: Uint8Array.from(prefix),
  };
})();

/** Verdict of the trie walk ending in `state` (no forbidden prefix met on the way). */
function endVerdict(state: number, topLevel: boolean): Verdict {
  if (state === ROOT) return 0; // no letter or digit: the empty name
  const e = TRIE_EXACT[state] as Verdict;
  return e !== 0 ? e : topLevel ? (TRIE_TOP_EXACT[state] as Verdict) : 0;
}

/** The trie's verdict on the ASCII name `key` from `start` on (letters and digits only). */
function runTrie(key: string, start: number, topLevel: boolean): Verdict {
  let state = ROOT;
  for (let i = start; i < key.length; i++) {
    const s = SLOT[key.charCodeAt(i)] as number; // ASCII only here
    if (s < 0) continue;
    state = TRIE_NEXT[state * SLOTS + s] as number;
    if (state === 0) return 0;
    const p = TRIE_PREFIX[state] as Verdict;
    if (p !== 0) return p;
  }
  return endVerdict(state, topLevel);
}

/**
 * Member names of CPR-1.0 itself (base, payee, value, asset and every sub-interface): none is
 * payer data at any depth, so they skip classification. Every other name is classified on the
 * spot (no cache: extension keys rarely repeat, and a cache of them only churns).
 */
const CPR_NAMES: ReadonlySet<string> = new Set<string>([
  ...BASE_FIELDS,
  ...PAYEE_FIELDS,
  ...VALUE_FIELDS,
  ...ASSET_FIELDS,
  ...SUB_INTERFACE_FIELD_NAMES,
]);

/**
 * {@link CPR_NAMES} as an open-addressed table without collisions: a name's slot is a hash of its
 * length and first and last characters, so a lookup is a few loads and one string comparison
 * (cheaper than `Set.prototype.has` on the walk's hot path). The multipliers are searched once,
 * here; should none fit, the table stays empty and {@link isCprName} asks the set.
 */
const NAME_SLOTS = 256;
const { NAME_TABLE, NAME_MUL } = (() => {
  const names = [...CPR_NAMES];
  for (let a = 1; a < 64; a++) {
    for (let b = 1; b < 64; b++) {
      const table: (string | undefined)[] = new Array(NAME_SLOTS).fill(undefined);
      let ok = true;
      for (const name of names) {
        const h =
          (name.length * a + name.charCodeAt(0) * b + name.charCodeAt(name.length - 1)) & (NAME_SLOTS - 1);
        if (table[h] !== undefined) {
          ok = false;
          break;
        }
        table[h] = name;
      }
      if (ok) return { NAME_TABLE: table, NAME_MUL: [a, b] as const };
    }
  }
  return { NAME_TABLE: undefined, NAME_MUL: [0, 0] as const };
})();
const [MUL_LENGTH, MUL_FIRST] = NAME_MUL;

/** `CPR_NAMES.has(key)`, through {@link NAME_TABLE}. */
function isCprName(key: string): boolean {
  const n = key.length;
  if (NAME_TABLE === undefined) return CPR_NAMES.has(key);
  if (n === 0) return false;
  return (
    NAME_TABLE[
      (n * MUL_LENGTH + key.charCodeAt(0) * MUL_FIRST + key.charCodeAt(n - 1)) & (NAME_SLOTS - 1)
    ] === key
  );
}

/**
 * Classifies a member name as profile section 2 reads it, case- and separator-insensitive: the
 * part after any namespace prefix (`:`, `/` or `.`), and the whole name with its separators
 * dropped, are both looked at (`com.example:payer` and `payer.name` are both payer data; the
 * part after the prefix decides first). One pass over the name walks the trie for the whole name
 * and finds the last separator; only a name with a separator walks the trie again, over its tail.
 */
function classifyKey(key: string, topLevel: boolean): Verdict {
  if (isCprName(key)) return 0;
  const n = key.length;
  let cut = -1;
  // the whole name's walk: a state > 0 while in the trie, 0 once out of it, -1 once decided
  let state = ROOT;
  let whole: Verdict = 0;
  for (let i = 0; i < n; i++) {
    const c = key.charCodeAt(i);
    if (c > 0x7f) return classifySlow(key, topLevel); // full Unicode lower-casing
    if (c === 0x3a || c === 0x2f || c === 0x2e) {
      cut = i; // : / . (no letter or digit: skipped by the walk)
      continue;
    }
    if (state <= 0) continue;
    const s = SLOT[c] as number;
    if (s < 0) continue;
    state = TRIE_NEXT[state * SLOTS + s] as number;
    if (state !== 0) {
      const p = TRIE_PREFIX[state] as Verdict;
      if (p !== 0) {
        whole = p;
        state = -1;
      }
    }
  }
  if (state > 0) whole = endVerdict(state, topLevel);
  if (cut >= 0) {
    const tail = runTrie(key, cut + 1, topLevel);
    if (tail !== 0) return tail;
  }
  return whole;
}

/**
 * True when a member named `key` is payer, authorization, state or settlement data under
 * profile section 2 (`topLevel`: the member sits at the top level of the CPR, where
 * `signature`, `request` and `rail` are forbidden too). The list is a floor: this validator
 * also knows the spellings of {@link PAYER_KEYS} and {@link SEPARATION_KEYS}.
 *
 * @example
 * ```ts
 * isPayerDataName('com.example:Mandate-Ref', false); // true
 * isPayerDataName('rail', false); // false (only a top-level rail is forbidden)
 * ```
 */
export function isPayerDataName(key: string, topLevel: boolean): boolean {
  return classifyKey(key, topLevel) !== 0;
}

/**
 * The walk's frames, reused across calls (validation is synchronous): frame i is an object or
 * array reached from frame `parentOf[i]` under `keyOf[i]`; paths are rebuilt on a hit only.
 */
const nodeOf: object[] = [];
const parentOf: number[] = [];
const keyOf: (string | number)[] = [];
const pending: number[] = [];

/** The path of the subtree the iterative walk started at (set by {@link walkIterative}). */
let basePath: readonly (string | number)[] = [];

function pathOf(frame: number, last: string): string {
  const segments: (string | number)[] = [last];
  for (let f = frame; f > 0; f = parentOf[f] as number) segments.push(keyOf[f] as string | number);
  return pointer([...basePath, ...segments.reverse()]);
}

function push(node: object, parent: number, key: string | number): void {
  nodeOf.push(node);
  parentOf.push(parent);
  keyOf.push(key);
  pending.push(nodeOf.length - 1);
}

/** Findings for one member name (none when it is allowed). */
function hit(v: Verdict, path: string, key: string, out: Finding[]): void {
  if (v === 1) {
    out.push(finding(REQ_PAYER, path, `member ${JSON.stringify(key)} is payer data; a cpr holds none`));
  } else if (v === 2) {
    out.push(
      finding(
        REQ_SEPARATION,
        path,
        `member ${JSON.stringify(key)} is authorization, state or settlement data; a cpr holds none`,
      ),
    );
  }
}

/** Nesting walked by recursion (fast); deeper subtrees are walked iteratively (any depth). */
const RECURSION_LIMIT = 48;

/** Walks `node` (at `path`) by recursion down to {@link RECURSION_LIMIT}, then iteratively. */
function walkRecursive(node: object, path: (string | number)[], topLevel: boolean, out: Finding[]): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const v: unknown = node[i];
      if (typeof v !== 'object' || v === null) continue;
      path.push(i);
      if (path.length > RECURSION_LIMIT) walkIterative(v, path, out);
      else walkRecursive(v, path, false, out);
      path.pop();
    }
    return;
  }
  const obj = node as Record<string, unknown>;
  if (bareProto && Object.getPrototypeOf(obj) === Object.prototype) {
    // for-in visits exactly Object.keys(obj), in the same order, when no prototype adds an
    // enumerable member; it reads the members without building an array of names
    for (const key in obj) {
      const v = classifyKey(key, topLevel);
      if (v !== 0) hit(v, pointer([...path, key]), key, out);
      const child = obj[key];
      if (typeof child !== 'object' || child === null) continue;
      path.push(key);
      if (path.length > RECURSION_LIMIT) walkIterative(child, path, out);
      else walkRecursive(child, path, false, out);
      path.pop();
    }
    return;
  }
  const keys = Object.keys(obj);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const v = classifyKey(key, topLevel);
    if (v !== 0) hit(v, pointer([...path, key]), key, out);
    const child = obj[key];
    if (typeof child !== 'object' || child === null) continue;
    path.push(key);
    if (path.length > RECURSION_LIMIT) walkIterative(child, path, out);
    else walkRecursive(child, path, false, out);
    path.pop();
  }
}

/**
 * True while the walk may use for-in on plain objects: `Object.prototype` has no enumerable
 * member (checked at the start of each walk).
 */
let bareProto = false;

/** Walks the subtree `doc` at `base` with an explicit stack (no recursion, any depth). */
function walkIterative(doc: object, base: readonly (string | number)[], out: Finding[]): void {
  basePath = [...base];
  nodeOf.length = 0;
  parentOf.length = 0;
  keyOf.length = 0;
  pending.length = 0;
  push(doc, -1, '');
  let visited = 0;
  let seen: Set<object> | undefined;
  try {
    while (pending.length > 0) {
      const frame = pending.pop() as number;
      const node = nodeOf[frame] as object;
      // JSON has no cycles; an exotic object graph might: guard once it is unusually large
      if (++visited > 10_000) {
        seen ??= new Set();
        if (seen.has(node)) continue;
        seen.add(node);
      }
      if (Array.isArray(node)) {
        for (let i = node.length - 1; i >= 0; i--) {
          const v: unknown = node[i];
          if (typeof v === 'object' && v !== null) push(v, frame, i);
        }
        continue;
      }
      const obj = node as Record<string, unknown>;
      const keys = Object.keys(obj);
      const firstChild = pending.length;
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k] as string;
        const v = classifyKey(key, false);
        if (v !== 0) hit(v, pathOf(frame, key), key, out);
        const child = obj[key];
        if (typeof child === 'object' && child !== null) push(child, frame, key);
      }
      // document order: the first member's subtree is walked first
      for (let i = firstChild, j = pending.length - 1; i < j; i++, j--) {
        const a = pending[i] as number;
        pending[i] = pending[j] as number;
        pending[j] = a;
      }
    }
  } finally {
    nodeOf.length = 0;
    pending.length = 0;
    basePath = [];
  }
}

/**
 * CPR-1.0 invariants 1 and 6 (and spec 1 rule 2, 3 rule 1), as profile section 2 lists them: no
 * member anywhere in the document, at any depth, extensions included, is named (case- and
 * separator-insensitive, after any namespace prefix) `payer` or `payer_*`, `debtor*`,
 * `authorization`, `signed_tx`, `raw_tx`, `permit`, `mandate*`, `execution_date`, `state`,
 * `status` or `settlement*`; no top-level `signature`, `request` or `rail` (the DerivationContext
 * members of 2.9). Payer names report CPR-INV-1-NO-PAYER-DATA, the others CPR-INV-6-SEPARATION.
 * The walk is iterative: any depth, no recursion limit.
 */
export const noPayerData: Rule = {
  name: 'no-payer-data',
  requirements: [REQ_PAYER, REQ_SEPARATION],
  check: (ctx) => findingsOf(collectNoPayerData, ctx),
  collect: collectNoPayerData,
};

/** True when `proto` has no enumerable member (what for-in shows; no array of names built). */
function noEnumerableMember(proto: object): boolean {
  for (const _ in proto) return false;
  return true;
}

function collectNoPayerData({ doc }: RuleContext, out: Finding[]): void {
  bareProto = noEnumerableMember(Object.prototype);
  walkRecursive(doc, [], true, out);
}
