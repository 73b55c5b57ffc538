// Counted in Unicode code points (PRF-2-LENGTH-CODE-POINTS). Section 8 repeats the limit
// (CPR-8-REMITTANCE-LENGTH): the wallet suite's remittance-length check names it.

import { type Finding, finding } from '../../model/finding.js';
import { appliedSubInterface } from '../subinterface.js';
import type { Rule, RuleContext } from '../types.js';
import { codePointLength, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** IBAN sub-interface limit (spec 2.6). */
const REQ_IBAN = 'CPR-2.6-REMITTANCE-LENGTH';
/** Account sub-interface limit (spec 2.7). */
const REQ_ACCOUNT = 'CPR-2.7-REMITTANCE-LENGTH';
/** CPR-1.0 section 8: remittance_info length limit. */
const MAX = 140;

/**
 * CPR-1.0 2.6, 2.7 and 8 (reported under the applied sub-interface's ID): `remittance_info` has at most 140 characters, counted in Unicode code
 * points (profile 2).
 */
export const remittanceLength: Rule = {
  name: 'remittance-length',
  requirements: [REQ_IBAN, REQ_ACCOUNT],
  check: (ctx) => findingsOf(collectRemittanceLength, ctx),
  collect: collectRemittanceLength,
};

function collectRemittanceLength({ doc }: RuleContext, out: Finding[]): void {
  const info = viewOf(doc).remittance_info;
  if (info === undefined) return;
  const req = appliedSubInterface(doc) === 'account' ? REQ_ACCOUNT : REQ_IBAN;
  if (typeof info !== 'string') {
    out.push(finding(req, '/remittance_info', 'remittance_info must be a string'));
    return;
  }
  const n = codePointLength(info);
  if (n > MAX) {
    out.push(
      finding(req, '/remittance_info', `remittance_info has ${n} code points; at most ${MAX} are allowed`),
    );
  }
}
