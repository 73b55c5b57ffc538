// Also checks CPR-1-VALIDITY-WINDOW (spec 1 rule 3): the window from created_at to expires_at is
// a real window.

import { finding } from '../../model/finding.js';
import { parseRfc3339 } from '../rfc3339.js';
import type { Rule } from '../types.js';
import { member } from '../util.js';

/** Requirement this rule reports. */
const REQ = 'PRF-2-CREATED-BEFORE-EXPIRES';

/** Profile section 2: created_at < expires_at (instants compared, whatever the offsets). */
export const createdBeforeExpires: Rule = {
  name: 'created-before-expires',
  requirements: [REQ],
  check({ doc }) {
    const created = member(doc, 'created_at');
    const expires = member(doc, 'expires_at');
    if (typeof created !== 'string' || typeof expires !== 'string') return [];
    const c = parseRfc3339(created);
    const e = parseRfc3339(expires);
    if (!c || !e || c.epochMs < e.epochMs) return [];
    return [
      finding(REQ, '/expires_at', `expires_at (${expires}) must be later than created_at (${created})`),
    ];
  },
};
