// Spec 1 (CPR-1-VALIDITY-WINDOW: every CPR has a window from created_at to expires_at) is named by
// the wallet suite's check of a request without either.

import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf } from '../util.js';
import { viewOf, windowMs } from '../view.js';

/** Requirement this rule reports. */
const REQ = 'PRF-2-CREATED-BEFORE-EXPIRES';

/** Profile section 2: created_at < expires_at (instants compared, whatever the offsets). */
export const createdBeforeExpires: Rule = {
  name: 'created-before-expires',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectCreatedBeforeExpires, ctx),
  collect: collectCreatedBeforeExpires,
};

function collectCreatedBeforeExpires({ doc }: RuleContext, out: Finding[]): void {
  const v = viewOf(doc);
  const window = windowMs(v);
  if (window === undefined || window > 0) return;
  out.push(
    finding(
      REQ,
      '/expires_at',
      `expires_at (${v.expires_at}) must be later than created_at (${v.created_at})`,
    ),
  );
}
