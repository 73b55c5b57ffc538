import { RAIL_HINTS } from '../../model/cpr.js';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.4-RAIL-HINT-ENUM';

/**
 * CPR-1.0 2.4 and invariant 7: a payee emits one of the eight rail_hint values (error in payee
 * mode); a paying application tolerates any other value gracefully (wallet mode: a warning that
 * the value is unknown, never an error). A non-string is an error in both modes.
 */
export const railHintEnum: Rule = {
  name: 'rail-hint-enum',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectRailHintEnum, ctx),
  collect: collectRailHintEnum,
};

function collectRailHintEnum({ doc, mode }: RuleContext, out: Finding[]): void {
  const hint = viewOf(doc).rail_hint;
  if (hint === undefined) return;
  if (typeof hint !== 'string') {
    out.push(finding(REQ, '/rail_hint', `rail_hint must be a string, not ${describe(hint)}`));
    return;
  }
  if ((RAIL_HINTS as readonly string[]).includes(hint)) return;
  out.push(
    mode === 'payee'
      ? finding(REQ, '/rail_hint', `rail_hint ${describe(hint)} is not one of ${RAIL_HINTS.join(', ')}`)
      : finding(
          REQ,
          '/rail_hint',
          `rail_hint ${describe(hint)} is not a CPR-1.0 value; a wallet must handle it gracefully (invariant 7)`,
          'warning',
        ),
  );
}
