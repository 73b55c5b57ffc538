// Also checks CPR-8-MEMO-LENGTH (the section 8 limit) and PRF-2-LENGTH-CODE-POINTS (counted in
// Unicode code points).

import { finding } from '../../model/finding.js';
import type { Rule } from '../types.js';
import { codePointLength, member } from '../util.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.1-MEMO-LENGTH';
/** CPR-1.0 section 8: memo length limit. */
const MAX = 140;

/** CPR-1.0 2.1 and 8: `memo` has at most 140 characters, counted in Unicode code points (profile 2). */
export const memoLength: Rule = {
  name: 'memo-length',
  requirements: [REQ, 'CPR-2.1-FIELD-TYPES'],
  check({ doc }) {
    const memo = member(doc, 'memo');
    if (memo === undefined) return [];
    if (typeof memo !== 'string') return [finding('CPR-2.1-FIELD-TYPES', '/memo', 'memo must be a string')];
    const n = codePointLength(memo);
    return n > MAX ? [finding(REQ, '/memo', `memo has ${n} code points; at most ${MAX} are allowed`)] : [];
  },
};
