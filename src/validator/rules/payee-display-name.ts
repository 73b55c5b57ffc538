import type { Rule } from '../types.js';
import { finding, isObject, member } from '../util.js';

/** Requirement this rule reports (CPR-1.0 2.2, read as in ambiguity AMB-1). */
const REQ = 'CPR-2.2-OPTIONAL-FIELD-PRESENT';

/**
 * CPR-1.0 2.2: "at least one of the optional fields must be present in a conformant request".
 * The only optional PayeeDescriptor field is `display_name` (AMB-1), while its table row says
 * "Required: no". Because the two sentences contradict each other, a missing display_name is a
 * warning in the payee reading (what a payee should emit), never an error, and nothing in the
 * wallet reading (a wallet must accept what the table allows).
 */
export const payeeDisplayName: Rule = {
  name: 'payee-display-name',
  requirements: [REQ],
  check({ doc, mode }) {
    if (mode !== 'payee') return [];
    const payee = member(doc, 'payee');
    if (!isObject(payee) || member(payee, 'display_name') !== undefined) return [];
    return [
      finding(
        REQ,
        '/payee/display_name',
        'payee.display_name is absent; spec 2.2 asks for at least one optional payee field and display_name is the only one (see AMB-1)',
        'warning',
      ),
    ];
  },
};
