import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { boundedCache } from '../../caches.js';
import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { findingsOf, member, pointer } from '../util.js';
import { viewOf } from '../view.js';

/** Requirement for the recipient address. */
const REQ_RECEIVER = 'CPR-2.5-RECEIVER-ADDRESS';
/** Requirement for the settlement contract address. */
const REQ_FIELDS = 'CPR-2.5-CONTRACT-ADDRESS';

/**
 * The EIP-55 mixed-case checksum form of a 20-byte hex address (`0x` + 40 hex digits):
 * each letter is upper-cased when the matching nibble of keccak256(lower-case hex) is >= 8.
 *
 * @example
 * ```ts
 * toChecksumAddress('0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed'); // '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
 * ```
 */
export function toChecksumAddress(address: string): string {
  return checksumOf(address.slice(2).toLowerCase());
}

function checksumOf(lower: string): string {
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i] as string;
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/** What is wrong with an address string (the message after the member's name), or OK. */
type Verdict = string | typeof OK;
const OK = null;

/** An EVM address: `0x` and 40 hex digits. */
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const SHAPE: Verdict = 'must be an EVM address: 0x followed by 40 hex digits';

/**
 * Verdicts on recent address strings: a document carries its receiver address twice (top level
 * and payee.rail_address) and a payee's documents repeat it, so keccak256 runs once per distinct
 * address string (bounded; cleared when full).
 */
const CHECKSUM_CACHE = 4096;
const verdicts = boundedCache<string, Verdict>(CHECKSUM_CACHE);

function verdictOf(value: string): Verdict {
  let v = verdicts.get(value);
  // Stryker disable next-line ConditionalExpression: a cache miss forced on every call recomputes the same verdict
  if (v !== undefined) return v;
  if (!ADDRESS.test(value)) v = SHAPE;
  else {
    // a single-case address carries no checksum: a valid EVM address (EIP-55 is backward
    // compatible and neither CPR-1.0 nor the profile asks for it), so no finding at all
    const digits = value.slice(2);
    if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) v = OK;
    else {
      const expected = toChecksumAddress(value);
      v = value === expected ? OK : `fails its EIP-55 checksum (expected ${expected}); check for a typo`;
    }
  }
  verdicts.set(value, v);
  return v;
}

/** The three places an EVM address sits, with the requirement each reports. */
const PLACES = [
  [['receiver_address'], REQ_RECEIVER],
  [['payee', 'rail_address', 'receiver_address'], REQ_RECEIVER],
  [['contract_address'], REQ_FIELDS],
] as const;

/**
 * CPR-1.0 2.5: `receiver_address` is the EVM address of the recipient. Checks the shape
 * (`0x` + 40 hex digits) and the EIP-55 checksum of `receiver_address`, `contract_address` and
 * `payee.rail_address.receiver_address`.
 *
 * Decision: a mixed-case address whose checksum does not match is an **error** (it is almost
 * certainly mistyped, and EIP-55 was made to catch exactly that). An all-lower-case or
 * all-upper-case address carries no checksum: it is a valid EVM address (EIP-55 is backward
 * compatible, and neither CPR-1.0 nor the profile requires it), so it gets no finding: a
 * warning would charge a payee for a choice the contract allows.
 */
export const evmAddressChecksum: Rule = {
  name: 'evm-address-checksum',
  requirements: [REQ_RECEIVER, REQ_FIELDS],
  check: (ctx) => findingsOf(collectEvmAddressChecksum, ctx),
  collect: collectEvmAddressChecksum,
};

function collectEvmAddressChecksum({ doc }: RuleContext, out: Finding[]): void {
  const view = viewOf(doc);
  const top = view.receiver_address;
  if (typeof top === 'string') report(verdictOf(top), PLACES[0], out);
  const inner = member(view.railAddress, 'receiver_address');
  // rail_address repeats the top-level address: the verdict cache answers the second sight
  if (typeof inner === 'string') report(verdictOf(inner), PLACES[1], out);
  const contract = view.contract_address;
  if (typeof contract === 'string') report(verdictOf(contract), PLACES[2], out);
}

function report(v: Verdict, [path, req]: (typeof PLACES)[number], out: Finding[]): void {
  if (v !== OK) out.push(finding(req, pointer(path), `${path.join('.')} ${v}`));
}
