// Also checks CPR-2.4-SUB-INTERFACE-BY-HINT (rail_hint selects the sub-interface, through
// selectSubInterface) and CPR-2.4-SUB-INTERFACE-TOP-LEVEL (its fields are read at the top level).
import { FIELDS_REQUIREMENT, REQUIRED_FIELDS, selectSubInterface } from '../subinterface.js';
import type { Finding, Rule } from '../types.js';
import { finding, member } from '../util.js';

/** OPEN / no rail_hint: zero or two complete sub-interfaces (profile section 2). */
const REQ_EXACTLY_ONE = 'PRF-2-EXACTLY-ONE-SUB-INTERFACE';
/** OPEN / no rail_hint: on-chain fields need rail_hint ON_CHAIN (profile section 2, spec 2.5). */
const REQ_OPEN = 'PRF-2-OPEN-SUB-INTERFACE';

/**
 * CPR-1.0 2.4-2.8 with profile section 2: the rail_hint selects the sub-interface whose required
 * fields must be present at the top level (ON_CHAIN: chain_id, receiver_address; SEPA_CT,
 * SEPA_INST, SWIFT: iban, beneficiary_name; ACH: account_number, beneficiary_name; PIX, UPI:
 * key_type, key_value). With OPEN or no rail_hint exactly one of the IBAN, account and
 * instant-key sub-interfaces must be complete (on-chain needs `rail_hint: ON_CHAIN`, spec 2.5).
 * An unknown rail_hint (tolerated in wallet mode) selects nothing and requires nothing.
 */
export const subInterfaceFields: Rule = {
  name: 'sub-interface-fields',
  requirements: [REQ_EXACTLY_ONE, REQ_OPEN, ...Object.values(FIELDS_REQUIREMENT)],
  check({ doc }) {
    const sel = selectSubInterface(doc);
    if (sel.kind === 'unknown') return [];
    if (sel.kind === 'named') {
      const out: Finding[] = [];
      for (const field of REQUIRED_FIELDS[sel.sub]) {
        const v = member(doc, field);
        if (v === undefined || v === null) {
          out.push(
            finding(
              FIELDS_REQUIREMENT[sel.sub],
              `/${field}`,
              `${field} is missing; rail_hint "${sel.hint}" requires it at the top level`,
            ),
          );
        }
      }
      return out;
    }
    const hintText = member(doc, 'rail_hint') === 'OPEN' ? 'rail_hint "OPEN"' : 'no rail_hint';
    if (sel.complete.length === 1) return [];
    if (sel.complete.length === 0) {
      const onchain = member(doc, 'receiver_address') !== undefined;
      return [
        finding(
          onchain ? REQ_OPEN : REQ_EXACTLY_ONE,
          '',
          onchain
            ? `with ${hintText} on-chain fields do not select a sub-interface; set rail_hint "ON_CHAIN"`
            : `with ${hintText} exactly one sub-interface must be complete (iban + beneficiary_name, account_number + beneficiary_name, or key_type + key_value); none is`,
        ),
      ];
    }
    return [
      finding(
        REQ_EXACTLY_ONE,
        '',
        `with ${hintText} exactly one sub-interface must be complete; ${sel.complete.join(' and ')} both are`,
      ),
    ];
  },
};
