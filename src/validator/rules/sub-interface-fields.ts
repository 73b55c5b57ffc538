import { FIELDS_REQUIREMENT, REQUIRED_FIELDS, type SubInterface } from '../../model/cpr.js';
import { type Finding, finding } from '../../model/finding.js';
import { isObject } from '../../model/util.js';
import { isCompleteIn, selectSubInterface } from '../subinterface.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf, listText } from '../util.js';
import { type CprView, topMember, viewOf } from '../view.js';

/** OPEN / no rail_hint: zero or two complete sub-interfaces (profile section 2). */
const REQ_EXACTLY_ONE = 'PRF-2-EXACTLY-ONE-SUB-INTERFACE';
/** OPEN / no rail_hint: on-chain fields need rail_hint ON_CHAIN (profile section 2, spec 2.5). */
const REQ_OPEN = 'PRF-2-OPEN-SUB-INTERFACE';
/** Zero or two complete sub-interfaces is invalid whatever the rail_hint (profile section 2). */
const REQ_ANY_HINT = 'PRF-2-ONE-SUB-INTERFACE-ANY-HINT';
/** The rail_hint decides which sub-interface applies (spec 2.4), not the fields present. */
const REQ_BY_HINT = 'CPR-2.4-SUB-INTERFACE-BY-HINT';
/** Sub-interface fields are added at the top level, next to the base fields (spec 2.4). */
const REQ_TOP_LEVEL = 'CPR-2.4-SUB-INTERFACE-TOP-LEVEL';

/** A member of `payee.rail_address`, if the document has that object. */
function railAddressMember(doc: unknown, field: string): unknown {
  const payee = isObject(doc) ? doc.payee : undefined;
  const ra = isObject(payee) ? payee.rail_address : undefined;
  return isObject(ra) && Object.hasOwn(ra, field) ? ra[field] : undefined;
}

/** The sub-interfaces an address completes without a rail_hint (on-chain needs ON_CHAIN). */
const ADDRESS_SUBS = ['iban', 'account', 'instant-key'] as const;

/** The complete sub-interfaces of {@link ADDRESS_SUBS} other than `except`, in order. */
function completeExcept(view: CprView, except: SubInterface | null): (typeof ADDRESS_SUBS)[number][] {
  const out: (typeof ADDRESS_SUBS)[number][] = [];
  for (const s of ADDRESS_SUBS) if (s !== except && isCompleteIn(view, s)) out.push(s);
  return out;
}

/** How a sub-interface's required set is written in messages. */
const SET_TEXT: Readonly<Record<(typeof ADDRESS_SUBS)[number], string>> = {
  iban: 'iban + beneficiary_name',
  account: 'account_number + beneficiary_name',
  'instant-key': 'key_type + key_value',
};

/**
 * CPR-1.0 2.4-2.8 with profile section 2: the rail_hint selects the sub-interface whose required
 * fields must be present at the top level (ON_CHAIN: chain_id, receiver_address; SEPA_CT,
 * SEPA_INST, SWIFT: iban, beneficiary_name; ACH: account_number, beneficiary_name; PIX, UPI:
 * key_type, key_value). With OPEN or no rail_hint exactly one of the IBAN, account and
 * instant-key sub-interfaces must be complete (on-chain needs `rail_hint: ON_CHAIN`, spec 2.5).
 * Whatever the rail_hint, a document that completes no sub-interface, or two, is invalid: a
 * `SEPA_CT` document that also completes the account set breaks PRF-2-ONE-SUB-INTERFACE-ANY-HINT,
 * and so does a document under an unknown rail_hint (tolerated in the wallet reading, read like
 * OPEN) that completes none or two. A named sub-interface left incomplete while the document
 * completes another breaks CPR-2.4-SUB-INTERFACE-BY-HINT (the rail_hint decides, not the fields);
 * a required field missing at the top level but present in `payee.rail_address` also breaks
 * CPR-2.4-SUB-INTERFACE-TOP-LEVEL (sub-interface fields sit at the top level, next to the base
 * fields), beside the finding of the missing field.
 */
export const subInterfaceFields: Rule = {
  name: 'sub-interface-fields',
  requirements: [
    REQ_EXACTLY_ONE,
    REQ_OPEN,
    REQ_ANY_HINT,
    REQ_BY_HINT,
    REQ_TOP_LEVEL,
    ...Object.values(FIELDS_REQUIREMENT),
  ],
  check: (ctx) => findingsOf(collectSubInterfaceFields, ctx),
  collect: collectSubInterfaceFields,
};

function collectSubInterfaceFields({ doc }: RuleContext, out: Finding[]): void {
  const sel = selectSubInterface(doc);
  if (sel.kind === 'named') {
    const view = viewOf(doc);
    let complete = true;
    for (const field of REQUIRED_FIELDS[sel.sub]) {
      const v = topMember(view, field);
      if (v === undefined || v === null) {
        complete = false;
        out.push(
          finding(
            FIELDS_REQUIREMENT[sel.sub],
            `/${field}`,
            `${field} is missing; rail_hint "${sel.hint}" requires it at the top level`,
          ),
        );
        const nested = railAddressMember(doc, field);
        if (nested !== undefined && nested !== null)
          out.push(
            finding(
              REQ_TOP_LEVEL,
              `/${field}`,
              `${field} sits in payee.rail_address only; sub-interface fields are added at the top level, next to the base fields (payee.rail_address repeats the address)`,
            ),
          );
      }
    }
    const extra = completeExcept(view, sel.sub);
    if (extra.length > 0) {
      const others = listText(extra.map((s) => `${s} (${SET_TEXT[s]})`));
      out.push(
        complete
          ? finding(
              REQ_ANY_HINT,
              '',
              `rail_hint "${sel.hint}" selects the ${sel.sub} sub-interface, but the document also completes ${others}; exactly one sub-interface may be complete`,
            )
          : finding(
              REQ_BY_HINT,
              '/rail_hint',
              `rail_hint "${sel.hint}" selects the ${sel.sub} sub-interface, which is incomplete, while the document completes ${others}; the rail_hint decides which sub-interface applies, not the fields present`,
            ),
      );
    }
    return;
  }
  if (sel.kind === 'unknown') {
    const complete = completeExcept(viewOf(doc), null);
    if (complete.length === 1) return;
    out.push(
      finding(
        REQ_ANY_HINT,
        '',
        complete.length === 0
          ? `rail_hint ${describe(sel.hint)} names no sub-interface and none is complete (${listText(
              ADDRESS_SUBS.map((s) => SET_TEXT[s]),
              'or',
            )}); exactly one must be`
          : `rail_hint ${describe(sel.hint)} names no sub-interface and ${listText(complete)} are both complete; exactly one may be`,
      ),
    );
    return;
  }
  const hintText = viewOf(doc).rail_hint === 'OPEN' ? 'rail_hint "OPEN"' : 'no rail_hint';
  if (sel.complete.length === 1) return;
  if (sel.complete.length === 0) {
    const onchain = viewOf(doc).receiver_address !== undefined;
    out.push(
      finding(
        onchain ? REQ_OPEN : REQ_EXACTLY_ONE,
        '',
        onchain
          ? `with ${hintText} on-chain fields do not select a sub-interface; set rail_hint "ON_CHAIN"`
          : `with ${hintText} exactly one sub-interface must be complete (iban + beneficiary_name, account_number + beneficiary_name, or key_type + key_value); none is`,
      ),
    );
    return;
  }
  out.push(
    finding(
      REQ_EXACTLY_ONE,
      '',
      `with ${hintText} exactly one sub-interface must be complete; ${listText(sel.complete)} both are`,
    ),
  );
}
