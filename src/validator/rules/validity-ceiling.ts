import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf } from '../util.js';
import { viewOf, windowMs } from '../view.js';

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
  check: (ctx) => findingsOf(collectValidityCeiling, ctx),
  collect: collectValidityCeiling,
};

function collectValidityCeiling({ doc, maxValiditySeconds }: RuleContext, out: Finding[]): void {
  const window = windowMs(viewOf(doc));
  if (window === undefined) return;
  const seconds = window / 1000;
  if (seconds <= maxValiditySeconds) return;
  out.push(
    finding(
      REQ,
      '/expires_at',
      `validity window is ${Math.round(seconds)} s, above the ceiling of ${maxValiditySeconds} s`,
      'warning',
    ),
  );
}
