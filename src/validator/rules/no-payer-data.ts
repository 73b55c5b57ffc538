// The payee suite grades the statements these findings also break, each by its own check over
// the same corpus: CPR-1-NO-PAYER-AUTH-STATE (spec 1), CPR-3-NO-STATE (3 rule 1),
// CPR-3-CONSUMED-NOT-A-FIELD (3 rule 4) and CPR-2.9-CONTEXT-NOT-IN-CPR (2.9): suites/payee/inv-invariants.ts.

import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, pointer } from '../util.js';

/** A member identifies, references or assumes a payer (invariant 1, spec 1 rule 2). */
const REQ_PAYER = 'CPR-INV-1-NO-PAYER-DATA';
/** A member carries authorization, settlement or state (invariant 6, spec 3 rule 1). */
const REQ_SEPARATION = 'CPR-INV-6-SEPARATION';

/**
 * Payer member names beyond the profile's floor, normalised (lower case, letters and digits
 * only). Profile section 2 makes `payer`, `payer_*` and `debtor*` payer data at any depth (every
 * name starting `payer` or `debtor` once normalised: `payerId`, `debtor_agent`); these are the
 * other spellings payment standards use for the payer (ISO 20022's ultimate debtor, the usual
 * sender / from-address / customer names). Names a CPR legitimately uses (payee,
 * beneficiary_name, txid, end_to_end_id) are deliberately absent.
 */
export const PAYER_KEYS: ReadonlySet<string> = new Set([
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
 * DerivationContext of spec 2.9 (names starting `mandate` or `settlement` need no entry: every
 * such name is one).
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

/** Names that are payer data when a reading starts with them (1: payer, 2: state/settlement). */
const PREFIXES: readonly (readonly [string, Verdict])[] = [
  ['payer', 1],
  ['debtor', 1],
  ['mandate', 2],
  ['settlement', 2],
];

/**
 * Characters a reading drops (profile section 2: `_`, `-`, `.` and white space, Unicode white
 * space included). Every other character stays: `sta:tus` and `pay@er` are no forbidden name.
 */
const DROPPED = /[\s\p{White_Space}_.-]/u;

/**
 * The readings of a member name (profile section 2): the name itself and every tail that follows
 * a `:`, `/` or `.` in it, each lower-cased (Unicode) with `_`, `-`, `.` and white space removed.
 * Shortest tail first, the whole name last (the order {@link isPayerDataName} looks at them in);
 * without repeats.
 *
 * @example
 * ```ts
 * nameReadings('acme:payer.email'); // ['email', 'payeremail', 'acme:payeremail']
 * nameReadings('Checkout Data/payer_ref'); // ['payerref', 'checkoutdata/payerref']
 * ```
 */
export function nameReadings(key: string): string[] {
  const { norm, starts } = normalised(key);
  return [...new Set(starts.map((q) => norm.slice(q)).reverse())].filter((r) => r !== '');
}

/**
 * The name lower-cased with the dropped characters removed, and where each reading starts in it
 * (the whole name at 0, then after each `:`, `/` or `.`; a reading that would start where the one
 * before it starts is the same reading and is left out).
 */
function normalised(key: string): { norm: string; starts: number[] } {
  let norm = '';
  const starts: number[] = [0];
  for (const ch of key) {
    if (!DROPPED.test(ch)) norm += ch.toLowerCase();
    if ((ch === ':' || ch === '/' || ch === '.') && starts[starts.length - 1] !== norm.length)
      starts.push(norm.length);
  }
  return { norm, starts };
}

/** The longest name of the lists: a longer reading is no exact name, only a prefix can match it. */
const LONGEST = Math.max(...[...SEPARATION_KEYS, ...PAYER_KEYS, ...TOP_LEVEL_KEYS].map((k) => k.length));

/** 0: allowed, 1: payer data, 2: authorization/state/settlement. */
type Verdict = 0 | 1 | 2;

/** Every exact name of {@link PAYER_KEYS} (1) and {@link SEPARATION_KEYS} (2), in one map. */
const EXACT: ReadonlyMap<string, Verdict> = new Map<string, Verdict>([
  ...[...SEPARATION_KEYS].map((k): [string, Verdict] => [k, 2]),
  ...[...PAYER_KEYS].map((k): [string, Verdict] => [k, 1]),
]);

/** The verdict on the reading of `norm` that starts at `q`. */
function classifyReading(norm: string, q: number, topLevel: boolean): Verdict {
  for (const [prefix, v] of PREFIXES) if (norm.startsWith(prefix, q)) return v;
  if (norm.length - q > LONGEST) return 0;
  const reading = norm.slice(q);
  const exact = EXACT.get(reading);
  if (exact !== undefined) return exact;
  return topLevel && TOP_LEVEL_KEYS.has(reading) ? 2 : 0;
}

/** {@link classifyKey} for names with non-ASCII characters (Unicode lower-casing and white space). */
function classifySlow(key: string, topLevel: boolean): Verdict {
  const { norm, starts } = normalised(key);
  // the shortest tail first, the whole name last
  for (let i = starts.length - 1; i >= 0; i--) {
    const v = classifyReading(norm, starts[i] as number, topLevel);
    if (v !== 0) return v;
  }
  return 0;
}

/**
 * A trie over the forbidden names (letters and digits), walked straight over the raw ASCII name:
 * upper case folded, dropped characters skipped, no string built. A walk that leaves the trie
 * ends at once, so most names cost a character or two. Stored flat: state `s` goes on slot `c`
 * to `TRIE_NEXT[s * SLOTS + c]` (0: out of the trie); {@link ROOT} is the empty name.
 */
const SLOTS = 36;
const ROOT = 1;

/** The trie's alphabet: a character's slot is its index here (either case). */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** Slot of a character a reading drops (`_`, `-`, `.`, ASCII white space). */
const SKIP = -1;
/** Slot of any other character outside the alphabet (`:`, `/`, `@`, ...): no forbidden name holds it. */
const OUT = -2;

/** Slot of an ASCII character: letters (either case) 0-25, digits 26-35, {@link SKIP} or {@link OUT}. */
const SLOT: Int8Array = (() => {
  const t = new Int8Array(128).fill(OUT);
  // Stryker disable next-line EqualityOperator: equivalent: one step past the alphabet writes at index NaN, which a typed array ignores
  for (let i = 0; i < ALPHABET.length; i++) {
    t[ALPHABET.charCodeAt(i)] = i;
    t[ALPHABET.toUpperCase().charCodeAt(i)] = i;
  }
  for (const ch of '_-. \t\n\v\f\r') t[ch.charCodeAt(0)] = SKIP;
  return t;
})();

/**
 * The trie's transitions and, per state, the verdict of a name ending there (nested, top level)
 * or reaching it (prefix). State 0 leads only to itself: a walk that left the trie stays out.
 */
const { TRIE_NEXT, TRIE_EXACT, TRIE_TOP_EXACT, TRIE_PREFIX } = (() => {
  // Stryker disable ArrayDeclaration: equivalent: the tables are read by state index and an entry never set reads as 0, so what the two leading entries hold (or whether they exist) changes no verdict
  const next: number[][] = [[], []]; // state 0: out of the trie; 1: the root
  const exact: Verdict[] = [0, 0];
  const topExact: Verdict[] = [0, 0];
  const prefix: Verdict[] = [0, 0];
  // Stryker restore ArrayDeclaration
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
  for (const [name, v] of PREFIXES) prefix[stateFor(name)] = v;
  for (const name of TOP_LEVEL_KEYS) topExact[stateFor(name)] = 2;
  // a top-level name is forbidden when it is forbidden at any depth, or only at the top
  exact.forEach((v, state) => {
    if (v !== 0) topExact[state] = v;
  });
  const flat = new Int32Array(next.length * SLOTS);
  next.forEach((row, s) => {
    // Stryker disable next-line EqualityOperator: equivalent: one slot too far writes 0 into the next state's first slot before that state's row is written (past the last, outside the typed array)
    for (let c = 0; c < SLOTS; c++) flat[s * SLOTS + c] = row[c] ?? 0;
  });
  return {
    TRIE_NEXT: flat,
    TRIE_EXACT: Uint8Array.from(exact),
    TRIE_TOP_EXACT: Uint8Array.from(topExact),
    TRIE_PREFIX: Uint8Array.from(prefix),
  };
})();

/** The trie's verdict on the reading of the ASCII name `key` whose first kept character is at `q`. */
function runTrie(key: string, q: number, topLevel: boolean): Verdict {
  let state = ROOT;
  for (let i = q; i < key.length; i++) {
    const s = SLOT[key.charCodeAt(i)] as number; // ASCII only here
    if (s === SKIP) continue;
    // Stryker disable next-line ConditionalExpression: equivalent: slot -2 reads the previous state's last slot or state 0's, and no forbidden name ends in 9
    if (s === OUT) return 0;
    state = TRIE_NEXT[state * SLOTS + s] as number;
    // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: only speed: out of the trie (state 0) the walk stays in state 0 and ends with verdict 0
    if (state === 0) return 0;
    const p = TRIE_PREFIX[state] as Verdict;
    if (p !== 0) return p;
  }
  return (topLevel ? TRIE_TOP_EXACT : TRIE_EXACT)[state] as Verdict;
}

/**
 * Classifies a member name as profile section 2 reads it: its readings (the name and every tail
 * after a `:`, `/` or `.`; case-insensitive, `_`, `-`, `.` and white space dropped), the shortest
 * tail first, so `payer:status` is state data and `status.payer` payer data. One pass from the
 * end of the name: at each separator the trie is walked over the tail after it, unless no kept
 * character lies between it and the tail walked last (the same reading: `a. . .b` walks `b`
 * once). A walk ends within a forbidden name's length of kept characters, so a name costs linear
 * time however many separators it holds. A name with a non-ASCII character left unread goes to
 * {@link classifySlow} (every tail after that character, all ASCII, was read the same way there).
 */
function classifyKey(key: string, topLevel: boolean): Verdict {
  let kept = false; // a kept character lies between here and the start of the tail walked last
  for (let i = key.length - 1; i >= 0; i--) {
    const c = key.charCodeAt(i);
    // Stryker disable next-line ConditionalExpression: only speed: classifySlow reads every name the same way, with full Unicode lower-casing
    if (c >= 0x80) return classifySlow(key, topLevel);
    if ((c === 0x3a || c === 0x2f || c === 0x2e) && kept) {
      // : / . : a reading starts after it
      const v = runTrie(key, i + 1, topLevel);
      if (v !== 0) return v;
      kept = false;
    }
    if (SLOT[c] !== SKIP) kept = true;
  }
  return kept ? runTrie(key, 0, topLevel) : 0;
}

/**
 * True when a member named `key` is payer, authorization, state or settlement data under
 * profile section 2 (`topLevel`: the member sits at the top level of the CPR, where
 * `signature`, `request` and `rail` are forbidden too): one of its readings ({@link nameReadings})
 * is `payer` or starts with `payer` (the profile's `payer_` read with its `_` dropped, as every
 * reading is), starts with `debtor`, `mandate` or `settlement`, or is one of the other names. The
 * list is a floor: this validator also knows the spellings of {@link PAYER_KEYS} and
 * {@link SEPARATION_KEYS}.
 *
 * @example
 * ```ts
 * isPayerDataName('acme:payer.email', false); // true (the reading "payeremail")
 * isPayerDataName('com.example:statusCode', false); // false
 * isPayerDataName('rail', false); // false (only a top-level rail is forbidden)
 * ```
 */
export function isPayerDataName(key: string, topLevel: boolean): boolean {
  return classifyKey(key, topLevel) !== 0;
}

/** The finding for a forbidden member name (`v` 1 or 2). */
function hit(v: Verdict, path: string, key: string, out: Finding[]): void {
  if (v === 1) {
    out.push(finding(REQ_PAYER, path, `member ${JSON.stringify(key)} is payer data; a cpr holds none`));
  } else {
    out.push(
      finding(
        REQ_SEPARATION,
        path,
        `member ${JSON.stringify(key)} is authorization, state or settlement data; a cpr holds none`,
      ),
    );
  }
}

/** An object or array: what the walk descends into. */
function isNode(v: unknown): v is object {
  // Stryker disable next-line ConditionalExpression: a string descended into has only index members ("0", "1"), which no rule forbids
  return typeof v === 'object' && v !== null;
}

/** Nesting walked by recursion (fast); deeper subtrees are walked iteratively (any depth). */
const RECURSION_LIMIT = 48;

/** Walks the child `node` at `path` (its key already pushed): by recursion, or iteratively once deep. */
function walkChild(node: object, path: (string | number)[], out: Finding[]): void {
  // Stryker disable next-line ConditionalExpression,EqualityOperator: both walks give the same findings; the limit only keeps recursion off deep documents
  if (path.length > RECURSION_LIMIT) walkIterative(node, path, out);
  else walkRecursive(node, path, false, out);
}

/** Walks `node` (at `path`) by recursion down to {@link RECURSION_LIMIT}, then iteratively. */
function walkRecursive(node: object, path: (string | number)[], topLevel: boolean, out: Finding[]): void {
  // own enumerable members only (an array's are its indices): documents are data
  const keys = Object.keys(node);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k] as string;
    const v = classifyKey(key, topLevel);
    if (v !== 0) hit(v, pointer([...path, key]), key, out);
    const child = (node as Record<string, unknown>)[key];
    if (!isNode(child)) continue;
    path.push(key);
    walkChild(child, path, out);
    path.pop();
  }
}

/**
 * Walks the subtree `doc` at `base` with an explicit stack (no recursion, any depth). Frame i is
 * an object or array reached from frame `parentOf[i]` under `keyOf[i]`; paths are rebuilt on a
 * hit only. A node is walked once (JSON has no cycles; an exotic object graph might).
 */
function walkIterative(doc: object, base: readonly (string | number)[], out: Finding[]): void {
  const nodeOf: object[] = [doc];
  const parentOf: number[] = [0]; // the root's parent is never read
  const keyOf: (string | number)[] = [0];
  const pending: number[] = [0];
  const seen = new Set<object>();
  const pathOf = (frame: number, last: string): string => {
    const segments: (string | number)[] = [last];
    for (let f = frame; f > 0; f = parentOf[f] as number) segments.push(keyOf[f] as string | number);
    return pointer([...base, ...segments.reverse()]);
  };
  while (pending.length > 0) {
    const frame = pending.pop() as number;
    const node = nodeOf[frame] as object;
    if (seen.has(node)) continue;
    seen.add(node);
    const keys = Object.keys(node);
    for (let k = 0; k < keys.length; k++) {
      const key = keys[k] as string;
      const v = classifyKey(key, false);
      if (v !== 0) hit(v, pathOf(frame, key), key, out);
    }
    // children are pushed last first, so that the first is walked first (document order)
    // Stryker disable next-line ArithmeticOperator: equivalent: a start past the last key reads node["undefined"], a member walked (and marked seen) from its own key before that copy comes off the stack
    for (let k = keys.length - 1; k >= 0; k--) {
      const key = keys[k] as string;
      const child = (node as Record<string, unknown>)[key];
      if (!isNode(child)) continue;
      pending.push(nodeOf.length);
      nodeOf.push(child);
      parentOf.push(frame);
      keyOf.push(key);
    }
  }
}

/**
 * CPR-1.0 invariants 1 and 6 (and spec 1 rule 2, 3 rule 1), as profile section 2 lists them: no
 * member anywhere in the document, at any depth, extensions included, has a reading (the name
 * and every tail after a `:`, `/` or `.`, case-insensitive, `_`, `-`, `.` and white space
 * dropped: {@link nameReadings}) that is `payer` or starts with `payer`, starts with `debtor`, is
 * `authorization`, `signed_tx`, `raw_tx`, `permit`, starts with `mandate`, is `execution_date`,
 * `state` or `status`, or starts with `settlement`; no top-level `signature`, `request` or `rail`
 * (the DerivationContext members of 2.9). Payer names report CPR-INV-1-NO-PAYER-DATA, the others
 * CPR-INV-6-SEPARATION. The walk is iterative: any depth, no recursion limit.
 */
export const noPayerData: Rule = {
  name: 'no-payer-data',
  requirements: [REQ_PAYER, REQ_SEPARATION],
  check: (ctx) => findingsOf(collectNoPayerData, ctx),
  collect: collectNoPayerData,
};

function collectNoPayerData({ doc }: RuleContext, out: Finding[]): void {
  walkRecursive(doc, [], true, out);
}
