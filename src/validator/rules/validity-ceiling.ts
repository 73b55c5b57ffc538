import { finding } from '../../model/finding.js';
import { parseRfc3339 } from '../rfc3339.js';
import type { Rule } from '../types.js';
import { member } from '../util.js';

/** Requirement this rule reports. */
const REQ = 'PRF-2-VALIDITY-CEILING';

/**
 * Profile section 2: a payee's validity window (expires_at - created_at) is bounded by its
 * configuration; the suite's default ceiling is 30 days (`maxValiditySeconds`), a WARNING above.
 * Spec invariant 8 ("sets a bounded expires_at") is the rule behind it.
 */
export const validityCeiling: Rule = {
  name: 'validity-ceiling',
  requirements: [REQ],
  check({ doc, maxValiditySeconds }) {
    const created = member(doc, 'created_at');
    const expires = member(doc, 'expires_at');
    if (typeof created !== 'string' || typeof expires !== 'string') return [];
    const c = parseRfc3339(created);
    const e = parseRfc3339(expires);
    if (!c || !e) return [];
    const seconds = (e.epochMs - c.epochMs) / 1000;
    if (seconds <= maxValiditySeconds) return [];
    return [
      finding(
        REQ,
        '/expires_at',
        `validity window is ${Math.round(seconds)} s, above the ceiling of ${maxValiditySeconds} s`,
        'warning',
      ),
    ];
  },
};
