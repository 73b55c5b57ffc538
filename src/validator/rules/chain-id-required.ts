import { finding } from '../../model/finding.js';
import type { Rule } from '../types.js';
import { member } from '../util.js';

/** Requirement this rule reports. */
const REQ = 'CPR-2.3-CHAIN-ID-REQUIRED';

/** CPR-1.0 2.3: `asset.chain_id` is required when `asset.type` is `stablecoin` or `tokenized`. */
export const chainIdRequired: Rule = {
  name: 'chain-id-required',
  requirements: [REQ],
  check({ doc }) {
    const asset = member(member(doc, 'value'), 'asset');
    const type = member(asset, 'type');
    if (type !== 'stablecoin' && type !== 'tokenized') return [];
    const chainId = member(asset, 'chain_id');
    if (typeof chainId === 'string' && chainId.length > 0) return [];
    return [
      finding(
        REQ,
        '/value/asset/chain_id',
        chainId === undefined
          ? `value.asset.chain_id is missing; it is required when asset.type is "${type}"`
          : `value.asset.chain_id must be a non-empty string when asset.type is "${type}"`,
      ),
    ];
  },
};
