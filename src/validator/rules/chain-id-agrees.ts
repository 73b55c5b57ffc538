import { type Finding, finding } from '../../model/finding.js';
import { appliedSubInterface } from '../subinterface.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf, member } from '../util.js';
import { viewOf } from '../view.js';

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
  if (DECIMAL.test(value)) return value.replace(LEADING_ZEROS, '');
  const caip = CAIP2_EIP155.exec(value);
  if (caip) return (caip[1] as string).replace(LEADING_ZEROS, '');
  if (HEX.test(value)) return BigInt(value).toString(); // BigInt reads 0x and 0X, either case
  return value;
}

const DECIMAL = /^[0-9]+$/;
const CAIP2_EIP155 = /^eip155:([0-9]+)$/;
const HEX = /^0[xX][0-9a-fA-F]+$/;
/** The zeros before a number's first significant digit (or before its last digit: "0" stays). */
const LEADING_ZEROS = /^0+(?=[0-9])/;

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
  check: (ctx) => findingsOf(collectChainIdAgrees, ctx),
  collect: collectChainIdAgrees,
};

function collectChainIdAgrees({ doc, mode }: RuleContext, out: Finding[]): void {
  if (appliedSubInterface(doc) !== 'onchain') return;
  const view = viewOf(doc);
  const top = view.chain_id;
  const topKey = chainKey(top);
  if (topKey === null) return;
  compareChain(member(view.railAddress, 'chain_id'), PLACES[1], top, topKey, mode, out);
  compareChain(member(view.asset, 'chain_id'), PLACES[2], top, topKey, mode, out);
}

function compareChain(
  v: unknown,
  path: readonly string[],
  top: unknown,
  topKey: string,
  mode: RuleContext['mode'],
  out: Finding[],
): void {
  const key = chainKey(v);
  if (key === null || key === topKey) return;
  const what = `${path.join('.')} ${describe(v)} names another chain than chain_id ${describe(top)}`;
  const where = `/${path.join('/')}`;
  out.push(
    mode === 'payee'
      ? finding(REQ, where, `${what}; a payee emits every chain identifier equal`)
      : finding(
          REQ,
          where,
          `${what}; a wallet may refuse this document (422 INVALID_STRUCTURE) or derive it`,
          'warning',
        ),
  );
}
