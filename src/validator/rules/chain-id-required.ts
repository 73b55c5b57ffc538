import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf, member } from '../util.js';
import { viewOf } from '../view.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.3-CHAIN-ID-REQUIRED';

/** CPR-1.0 2.3: `asset.chain_id` is required when `asset.type` is `stablecoin` or `tokenized`. */
export const chainIdRequired: Rule = {
  name: 'chain-id-required',
  requirements: [REQ],
  check: (ctx) => findingsOf(collectChainIdRequired, ctx),
  collect: collectChainIdRequired,
};

function collectChainIdRequired({ doc }: RuleContext, out: Finding[]): void {
  const asset = viewOf(doc).asset;
  const type = member(asset, 'type');
  if (type !== 'stablecoin' && type !== 'tokenized') return;
  const chainId = member(asset, 'chain_id');
  if (typeof chainId === 'string' && chainId.length > 0) return;
  out.push(
    finding(
      REQ,
      '/value/asset/chain_id',
      `value.asset.chain_id is required, a non-empty string, when asset.type is "${type}" (found ${describe(chainId)})`,
    ),
  );
}
