// Counted in Unicode code points (PRF-2-LENGTH-CODE-POINTS). Section 8 repeats the limit
// (CPR-8-MEMO-LENGTH): the wallet suite's memo-length check names it.

import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { codePointLength, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.1-MEMO-LENGTH';
/** CPR-1.0 section 8: memo length limit. */
const MAX = 140;

/** CPR-1.0 2.1 and 8: `memo` has at most 140 characters, counted in Unicode code points (profile 2). */
export const memoLength: Rule = {
  name: 'memo-length',
  requirements: [REQ, 'CPR-2.1-FIELD-TYPES'],
  check: (ctx) => findingsOf(collectMemoLength, ctx),
  collect: collectMemoLength,
};

function collectMemoLength({ doc }: RuleContext, out: Finding[]): void {
  const memo = viewOf(doc).memo;
  if (memo === undefined) return;
  if (typeof memo !== 'string') {
    out.push(finding('CPR-2.1-FIELD-TYPES', '/memo', 'memo must be a string'));
    return;
  }
  const n = codePointLength(memo);
  if (n > MAX) out.push(finding(REQ, '/memo', `memo has ${n} code points; at most ${MAX} are allowed`));
}
