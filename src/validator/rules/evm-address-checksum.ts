import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Finding, Rule } from '../types.js';
import { finding, member, pointer } from '../util.js';

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
  const lower = address.slice(2).toLowerCase();
  const hit = checksums.get(lower);
  if (hit !== undefined) return hit;
  const out = checksumOf(lower);
  if (checksums.size >= CHECKSUM_CACHE) checksums.clear();
  checksums.set(lower, out);
  return out;
}

/**
 * Checksummed forms of recent addresses, by lower-case hex digits. A document carries its
 * receiver address twice (top level and payee.rail_address) and a payee's documents repeat it,
 * so keccak256 runs once per distinct address (bounded; cleared when full).
 */
const checksums = new Map<string, string>();
const CHECKSUM_CACHE = 4096;

function checksumOf(lower: string): string {
  const hash = bytesToHex(keccak_256(utf8ToBytes(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++) {
    const c = lower[i] as string;
    out += Number.parseInt(hash[i] as string, 16) >= 8 ? c.toUpperCase() : c;
  }
  return out;
}

/**
 * CPR-1.0 2.5: `receiver_address` is the EVM address of the recipient. Checks the shape
 * (`0x` + 40 hex digits) and the EIP-55 checksum of `receiver_address`, `contract_address` and
 * `payee.rail_address.receiver_address`.
 *
 * Decision: a mixed-case address whose checksum does not match is an **error** (it is almost
 * certainly mistyped, and EIP-55 was made to catch exactly that). An all-lower-case or
 * all-upper-case address carries no checksum: it is a valid EVM address (EIP-55 is backward
 * compatible and CPR-1.0 does not require EIP-55), so it is a **warning** that the typo
 * protection is missing, not an error.
 */
export const evmAddressChecksum: Rule = {
  name: 'evm-address-checksum',
  requirements: [REQ_RECEIVER, REQ_FIELDS],
  check({ doc }) {
    const out: Finding[] = [];
    const targets = [
      [['receiver_address'], member(doc, 'receiver_address'), REQ_RECEIVER],
      [
        ['payee', 'rail_address', 'receiver_address'],
        member(member(member(doc, 'payee'), 'rail_address'), 'receiver_address'),
        REQ_RECEIVER,
      ],
      [['contract_address'], member(doc, 'contract_address'), REQ_FIELDS],
    ] as const;
    for (const [path, value, req] of targets) {
      if (typeof value !== 'string') continue;
      const name = path.join('.');
      const where = pointer(path);
      if (!/^0x[0-9a-fA-F]{40}$/.test(value)) {
        out.push(finding(req, where, `${name} must be an EVM address: 0x followed by 40 hex digits`));
        continue;
      }
      const digits = value.slice(2);
      if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) {
        if (/[a-fA-F]/.test(digits)) {
          out.push(
            finding(
              req,
              where,
              `${name} has no EIP-55 checksum (single case); write it as ${toChecksumAddress(value)}`,
              'warning',
            ),
          );
        }
        continue;
      }
      const expected = toChecksumAddress(value);
      if (value !== expected) {
        out.push(
          finding(req, where, `${name} fails its EIP-55 checksum (expected ${expected}); check for a typo`),
        );
      }
    }
    return out;
  },
};
