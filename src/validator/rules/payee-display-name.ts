import { type Finding, finding } from '../../model/finding.js';
import { isObject } from '../../model/util.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, member } from '../util.js';
import { viewOf } from '../view.js';

/** Empty or only white space. */
const BLANK = /^\s*$/u;

/** Requirement of a missing display_name (CPR-1.0 2.2, read as in ambiguity AMB-1). */
const REQ_PRESENT = 'CPR-2.2-OPTIONAL-FIELD-PRESENT';
/** A display_name that is present is not empty and not only white space (profile section 2). */
const REQ_NOT_BLANK = 'PRF-2-DISPLAY-NAME-NOT-BLANK';

/**
 * CPR-1.0 2.2 and profile section 2.
 * - "At least one of the optional fields must be present": the only optional PayeeDescriptor
 *   field is `display_name` (AMB-1), while its table row says "Required: no". Because the two
 *   sentences contradict each other, a missing display_name is a warning in the payee reading,
 *   never an error, and nothing in the wallet reading.
 * - A display_name that is present is a non-empty string that is not only white space (Unicode
 *   White_Space): a PROFILE error in the payee reading; a wallet accepts it (nothing reported).
 */
export const payeeDisplayName: Rule = {
  name: 'payee-display-name',
  requirements: [REQ_PRESENT, REQ_NOT_BLANK],
  check: (ctx) => findingsOf(collectPayeeDisplayName, ctx),
  collect: collectPayeeDisplayName,
};

function collectPayeeDisplayName({ doc, mode }: RuleContext, out: Finding[]): void {
  if (mode !== 'payee') return;
  const payee = viewOf(doc).payee;
  if (!isObject(payee)) return;
  const name = member(payee, 'display_name');
  if (name === undefined) {
    out.push(
      finding(
        REQ_PRESENT,
        '/payee/display_name',
        'payee.display_name is absent; spec 2.2 asks for at least one optional payee field and display_name is the only one (see AMB-1)',
        'warning',
      ),
    );
  } else if (typeof name === 'string' && BLANK.test(name)) {
    out.push(
      finding(
        REQ_NOT_BLANK,
        '/payee/display_name',
        `payee.display_name ${JSON.stringify(name)} is empty or only white space; give the payee name or leave the member out`,
      ),
    );
  }
}
