import { type Finding, finding } from '../../model/finding.js';
import { appliedSubInterface } from '../subinterface.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** The 16-byte forms of profile section 2: canonical UUID, 32 hex digits, or `0x` + 32 hex digits. */
const BYTES_16 =
  /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|(?:0x)?[0-9a-fA-F]{32})$/;
/** The 32-byte form of profile section 2: `0x` + 64 hex digits. */
const BYTES_32 = /^0x[0-9a-fA-F]{64}$/;

/** Each field, its requirement, the byte length spec 2.5 states and the forms that write it. */
const FIELDS = [
  [
    'order_reference',
    'CPR-2.5-ORDER-REFERENCE',
    BYTES_16,
    '16 bytes',
    'a uuid, 32 hex digits or 0x and 32 hex digits',
  ],
  [
    'acquirer_id',
    'CPR-2.5-ACQUIRER-ID',
    BYTES_16,
    '16 bytes',
    'a uuid, 32 hex digits or 0x and 32 hex digits',
  ],
  [
    'domain_separator',
    'CPR-2.5-DOMAIN-SEPARATOR',
    BYTES_32,
    '32 bytes (an EIP-712 domain separator)',
    '0x and 64 hex digits',
  ],
] as const;

/**
 * CPR-1.0 2.5 with profile section 2: `order_reference` and `acquirer_id` are 16-byte values,
 * written as a canonical UUID, 32 hex digits or `0x` + 32 hex digits; `domain_separator` is a
 * 32-byte EIP-712 hash written `0x` + 64 hex digits. Any other value breaks the length the spec
 * states (SPEC error, both readings). Checked when the on-chain sub-interface applies, or when
 * no sub-interface applies (an unknown rail_hint) and the field is present.
 */
export const onchainByteLengths: Rule = {
  name: 'onchain-byte-lengths',
  requirements: FIELDS.map((f) => f[1]),
  check: (ctx) => findingsOf(collectOnchainByteLengths, ctx),
  collect: collectOnchainByteLengths,
};

function collectOnchainByteLengths({ doc }: RuleContext, out: Finding[]): void {
  const view = viewOf(doc);
  for (let i = 0; i < FIELDS.length; i++) {
    const [field, req, form, bytes, written] = FIELDS[i] as (typeof FIELDS)[number];
    // order_reference, acquirer_id, domain_separator: members of the view (what member(doc, field) reads)
    const value = i === 0 ? view.order_reference : i === 1 ? view.acquirer_id : view.domain_separator;
    if (value === undefined) continue;
    const sub = appliedSubInterface(doc);
    if (sub !== null && sub !== 'onchain') return;
    if (typeof value === 'string' && form.test(value)) continue;
    out.push(
      finding(
        req,
        `/${field}`,
        `${field} ${describe(value)} is not ${bytes} as spec 2.5 states; write it as a string: ${written}`,
      ),
    );
  }
}
