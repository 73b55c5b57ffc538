import { ADDRESS_FIELDS, type SubInterface } from '../../model/cpr.js';
import { type Finding, finding } from '../../model/finding.js';
import { isObject } from '../../model/util.js';
import { appliedSubInterface } from '../subinterface.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf, member } from '../util.js';
import { topMember, viewOf } from '../view.js';

/** rail_address must carry the rail's address (spec 2.2). */
const REQ_CARRIES = 'CPR-2.2-RAIL-ADDRESS';
/** rail_address must agree with the authoritative top-level fields (profile section 2). */
const REQ_AGREES = 'PRF-2-RAIL-ADDRESS-AGREES';

/** The address field(s) that identify the destination, which rail_address must carry (spec 2.2 examples). */
const PRIMARY: Readonly<Record<SubInterface, readonly string[]>> = {
  onchain: ['receiver_address', 'chain_id'],
  iban: ['iban'],
  account: ['account_number'],
  'instant-key': ['key_type', 'key_value'],
};

/** Compares two address values the way the rail does: EVM hex and IBAN letters ignore case. */
function same(field: string, a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') {
    if (field === 'receiver_address' || field === 'iban' || field === 'bic') {
      return a.toUpperCase() === b.toUpperCase();
    }
  }
  return a === b;
}

/**
 * CPR-1.0 2.2 (rail_address "carries the rail's address fields") and profile section 2
 * (top-level sub-interface fields are authoritative; `payee.rail_address` carries the address
 * fields and must agree). For the sub-interface that applies: its identifying address fields
 * (receiver_address and chain_id; iban; account_number; key_type and key_value) must be in
 * rail_address (SPEC error when missing), and every address field present in both places must
 * hold the same value (PROFILE error when not); `chain_id` is compared as a chain by
 * `chain-id-agrees` (profile section 2), not here.
 */
export const railAddressAgrees: Rule = {
  name: 'rail-address-agrees',
  requirements: [REQ_CARRIES, REQ_AGREES],
  check: (ctx) => findingsOf(collectRailAddressAgrees, ctx),
  collect: collectRailAddressAgrees,
};

function collectRailAddressAgrees({ doc }: RuleContext, out: Finding[]): void {
  const view = viewOf(doc);
  const ra = view.railAddress;
  if (!isObject(ra)) return;
  const sub = appliedSubInterface(doc);
  if (!sub) return;
  for (const field of PRIMARY[sub]) {
    if (member(ra, field) === undefined && topMember(view, field) !== undefined) {
      out.push(
        finding(REQ_CARRIES, `/payee/rail_address/${field}`, `payee.rail_address must carry ${field}`),
      );
    }
  }
  for (const field of ADDRESS_FIELDS[sub]) {
    // chain identifiers are compared as chains (eip155:N, 0x-hex, decimal) by chain-id-agrees
    if (field === 'chain_id') continue;
    const inner = member(ra, field);
    const top = topMember(view, field);
    if (inner === undefined || top === undefined) continue;
    if (!same(field, inner, top)) {
      out.push(
        finding(
          REQ_AGREES,
          `/payee/rail_address/${field}`,
          `payee.rail_address.${field} ${describe(inner)} differs from the top-level ${field} ${describe(top)}`,
        ),
      );
    }
  }
}
