import { finding } from '../../model/finding.js';
import { appliedSubInterface } from '../subinterface.js';
import type { Rule } from '../types.js';
import { describe, member } from '../util.js';

/** Every chain identifier of an on-chain CPR names the same chain (profile section 2). */
const REQ = 'PRF-2-CHAIN-ID-AGREES';

/**
 * The chain a chain identifier names, as a comparable key: a decimal number, `eip155:N` (CAIP-2)
 * and `0x`-hex all map to the decimal N without leading zeros; any other string stays itself
 * (compared exactly). Null for a value that is not a non-empty string.
 *
 * @example
 * ```ts
 * chainKey('eip155:137') === chainKey('0x89') && chainKey('0x89') === chainKey('137'); // true
 * ```
 */
export function chainKey(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (/^[0-9]+$/.test(value)) return BigInt(value).toString();
  const caip = /^eip155:([0-9]+)$/.exec(value);
  if (caip) return BigInt(caip[1] as string).toString();
  if (/^0[xX][0-9a-fA-F]+$/.test(value)) return BigInt(value.toLowerCase()).toString();
  return value;
}

/** Where chain identifiers sit in an on-chain CPR (profile section 2). */
const PLACES = [['chain_id'], ['payee', 'rail_address', 'chain_id'], ['value', 'asset', 'chain_id']] as const;

/**
 * Profile section 2: in an on-chain CPR every chain identifier present (`chain_id`,
 * `payee.rail_address.chain_id`, `value.asset.chain_id`) names the same chain, compared after
 * mapping `eip155:N` and `0x`-hex to decimal N. A payee emits them equal (PROFILE error in the
 * payee reading); a wallet may refuse a disagreement with 422 INVALID_STRUCTURE or derive the
 * Payment, so the wallet reading reports a warning.
 */
export const chainIdAgrees: Rule = {
  name: 'chain-id-agrees',
  requirements: [REQ],
  check({ doc, mode }) {
    if (appliedSubInterface(doc) !== 'onchain') return [];
    const top = member(doc, 'chain_id');
    const topKey = chainKey(top);
    if (topKey === null) return [];
    const out = [];
    for (const path of PLACES.slice(1)) {
      let v: unknown = doc;
      for (const k of path) v = member(v, k);
      const key = chainKey(v);
      if (key === null || key === topKey) continue;
      const name = path.join('.');
      out.push(
        finding(
          REQ,
          `/${path.join('/')}`,
          mode === 'payee'
            ? `${name} ${describe(v)} names another chain than chain_id ${describe(top)}; a payee emits every chain identifier equal`
            : `${name} ${describe(v)} names another chain than chain_id ${describe(top)}; a wallet may refuse this document (422 INVALID_STRUCTURE) or derive it`,
          mode === 'payee' ? 'error' : 'warning',
        ),
      );
    }
    return out;
  },
};
