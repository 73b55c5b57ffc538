import { codes as currencyCodes } from 'currency-codes';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, member } from '../util.js';
import { viewOf } from '../view.js';

/** The ISO 4217 codes of `currency-codes`, as a set (looked up once per document). */
const ISO4217: ReadonlySet<string> = new Set(currencyCodes());

/** Requirement this rule reports. */
const REQ = 'CPR-2.3-ASSET-CODE-ISO4217';

/**
 * CPR-1.0 2.3: `asset.code` is an ISO 4217 code when `asset.type` is `fiat`. Checked against
 * the ISO 4217 list shipped by `currency-codes` (upper-case alphabetic codes only).
 */
export const assetCodeIso4217: Rule = {
  name: 'asset-code-iso4217',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectAssetCodeIso4217, ctx),
  collect: collectAssetCodeIso4217,
};

function collectAssetCodeIso4217({ doc }: RuleContext, out: Finding[]): void {
  const asset = viewOf(doc).asset;
  if (member(asset, 'type') !== 'fiat') return;
  const code = member(asset, 'code');
  if (typeof code !== 'string') return;
  if (!ISO4217.has(code)) {
    out.push(
      finding(
        REQ,
        '/value/asset/code',
        `value.asset.code ${JSON.stringify(code)} is not an ISO 4217 currency code, as fiat requires (e.g. "EUR")`,
      ),
    );
    return;
  }
}
