// Also checks, by the same member names: CPR-1-NO-PAYER-AUTH-STATE (spec 1 rule 2: no payer
// information, authorization proof or state), CPR-3-NO-STATE (3 rule 1: no status, authorization or
// confirmation), CPR-3-CONSUMED-NOT-A-FIELD (3 rule 4: consumed/expired is no field of the CPR) and
// CPR-2.9-CONTEXT-NOT-IN-CPR (2.9: the DerivationContext's payer, authorization and execution
// context are never inside the CPR).
import type { Finding, Rule } from '../types.js';
import { finding, isObject, pointer } from '../util.js';

/** A member identifies, references or assumes a payer (invariant 1, spec 1 rule 2). */
const REQ_PAYER = 'CPR-INV-1-NO-PAYER-DATA';
/** A member carries authorization, settlement or state (invariant 6, spec 3 rule 1). */
const REQ_SEPARATION = 'CPR-INV-6-SEPARATION';

/**
 * Forbidden member names, normalised (lower case, only letters and digits, namespace prefix
 * before the last `:` or `/` removed, so `foundation:payer_id`, `payerId` and `Payer-ID` all
 * match `payerid`).
 *
 * How the list was chosen: the spec names the things a CPR never holds (section 1 rule 2:
 * "no payer information, no authorization proof and no state"; section 3 rule 1: "no status,
 * no authorization, no confirmation"; invariant 6: "no authorization, no settlement instruction
 * and no payer context"). Each named concept is listed with the member names payment
 * standards use for it: the Payment fields of spec 2.10 that come from the payer side (payer,
 * authorization, state), ISO 20022's debtor vocabulary (debtor, debtor_account, ...), and the
 * usual status/settlement/confirmation spellings. Names a CPR legitimately uses (payee,
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

/** Authorization, state, settlement and confirmation member names (see {@link PAYER_KEYS}). */
export const SEPARATION_KEYS: ReadonlySet<string> = new Set([
  'authorization',
  'authorisation',
  'authorizationproof',
  'authproof',
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

/** Normalises a member name for {@link PAYER_KEYS} / {@link SEPARATION_KEYS} lookup. */
export function normaliseKey(key: string): string {
  const cut = Math.max(key.lastIndexOf(':'), key.lastIndexOf('/'));
  return key
    .slice(cut + 1)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

/** Deepest nesting searched; deeper content is not walked (JSON from a CPR is shallow). */
const MAX_DEPTH = 64;

/** 0: allowed, 1: payer data, 2: authorization/state/settlement. Member names repeat: remember them. */
const verdicts = new Map<string, 0 | 1 | 2>();

function classifyKey(key: string): 0 | 1 | 2 {
  let v = verdicts.get(key);
  if (v === undefined) {
    const n = normaliseKey(key);
    v = PAYER_KEYS.has(n) ? 1 : SEPARATION_KEYS.has(n) ? 2 : 0;
    if (verdicts.size >= 8192) verdicts.clear();
    verdicts.set(key, v);
  }
  return v;
}

/**
 * CPR-1.0 invariants 1 and 6 (and spec 1 rule 2, 3 rule 1): no member anywhere in the document,
 * extensions included, is named after payer data, authorization, state, settlement or
 * confirmation.
 */
export const noPayerData: Rule = {
  name: 'no-payer-data',
  requirements: [REQ_PAYER, REQ_SEPARATION],
  check({ doc }) {
    const out: Finding[] = [];
    const seen = new Set<object>();
    const path: (string | number)[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null || seen.has(node) || path.length > MAX_DEPTH) return;
      seen.add(node);
      if (Array.isArray(node)) {
        for (let i = 0; i < node.length; i++) {
          path.push(i);
          walk(node[i]);
          path.pop();
        }
        return;
      }
      if (!isObject(node)) return;
      for (const key of Object.keys(node)) {
        path.push(key);
        const v = classifyKey(key);
        if (v === 1) {
          out.push(
            finding(
              REQ_PAYER,
              pointer(path),
              `member ${JSON.stringify(key)} is payer data; a cpr holds none`,
            ),
          );
        } else if (v === 2) {
          out.push(
            finding(
              REQ_SEPARATION,
              pointer(path),
              `member ${JSON.stringify(key)} is authorization, state or settlement data; a cpr holds none`,
            ),
          );
        }
        walk(node[key]);
        path.pop();
      }
    };
    walk(doc);
    return out;
  },
};
