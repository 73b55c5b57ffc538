import { type Finding, finding } from '../../model/finding.js';
import { isObject } from '../../model/util.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, pointer } from '../util.js';
import { viewOf } from '../view.js';

/** Requirement this rule reports (CPR-1.0 9 rule 5, read as in ambiguity AMB-29). */
const REQ = 'CPR-9-REVERSE-DOMAIN-PREFIX';

/**
 * A namespaced extension key: the standards body's `foundation:` prefix, or a reverse-domain
 * prefix of two or more DNS labels ending in `:` or `.` (`com.example:order`, `org.acme.terminal`):
 * two labels and a separator start every such key (a third label follows the second's `.`).
 */
const NAMESPACED = /^(?:foundation:|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?[:.])/i;

/**
 * CPR-1.0 9 rule 5: keys of the standards body's sub-interfaces use `foundation:`, third-party
 * ones should use a reverse-domain prefix to avoid collision. In the payee reading every
 * extension key without either prefix is a warning (a SHOULD); wallets must ignore unknown keys
 * whatever their form (9 rule 3), so the wallet reading reports nothing.
 */
export const extensionKeyPrefix: Rule = {
  name: 'extension-key-prefix',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectExtensionKeyPrefix, ctx),
  collect: collectExtensionKeyPrefix,
};

function collectExtensionKeyPrefix({ doc, mode }: RuleContext, out: Finding[]): void {
  if (mode !== 'payee') return;
  const extensions = viewOf(doc).extensions;
  if (!isObject(extensions)) return;
  for (const key of Object.keys(extensions)) {
    if (NAMESPACED.test(key)) continue;
    out.push(
      finding(
        REQ,
        pointer(['extensions', key]),
        `extension key "${key}" has no "foundation:" or reverse-domain prefix (e.g. "com.example:${key}"); keys may collide`,
        'warning',
      ),
    );
  }
}
