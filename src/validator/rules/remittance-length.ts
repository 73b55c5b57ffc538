import type { Rule } from '../types.js';
import { codePointLength, finding, member } from '../util.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.6-REMITTANCE-LENGTH';
/** CPR-1.0 section 8: remittance_info length limit. */
const MAX = 140;

/**
 * CPR-1.0 2.6, 2.7 and 8: `remittance_info` has at most 140 characters, counted in Unicode code
 * points (profile 2).
 */
export const remittanceLength: Rule = {
  name: 'remittance-length',
  requirements: [REQ],
  check({ doc }) {
    const info = member(doc, 'remittance_info');
    if (info === undefined) return [];
    if (typeof info !== 'string') return [finding(REQ, '/remittance_info', 'remittance_info must be a string')];
    const n = codePointLength(info);
    return n > MAX
      ? [finding(REQ, '/remittance_info', `remittance_info has ${n} code points; at most ${MAX} are allowed`)]
      : [];
  },
};
