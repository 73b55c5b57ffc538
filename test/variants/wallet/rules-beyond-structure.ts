import type { Finding } from '../../../src/model/finding.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { walletVariant } from './harness.js';

/**
 * The requirement IDs of the rules beyond a document's structure that a wallet may leave
 * unchecked (profile 3 "may refuse"; AMB-41): a code list, checksums, the BIC form, 140-code-point
 * lengths, the rail_address copy agreeing with the top level.
 */
export const RULES_BEYOND_STRUCTURE: ReadonlySet<string> = new Set([
  'CPR-2.3-ASSET-CODE-ISO4217',
  'CPR-2.5-RECEIVER-ADDRESS',
  'CPR-2.5-CONTRACT-ADDRESS',
  'CPR-2.6-IBAN-VALID',
  'CPR-2.6-BIC-VALID',
  'CPR-2.1-MEMO-LENGTH',
  'CPR-8-MEMO-LENGTH',
  'CPR-2.6-REMITTANCE-LENGTH',
  'CPR-2.7-REMITTANCE-LENGTH',
  'CPR-8-REMITTANCE-LENGTH',
  'PRF-2-LENGTH-CODE-POINTS',
  'PRF-2-RAIL-ADDRESS-AGREES',
]);

/** The member a JSON pointer names, or undefined. */
function at(doc: unknown, pointer: string): unknown {
  let v: unknown = doc;
  for (const part of pointer.split('/').slice(1)) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return v;
}

/**
 * Whether a finding is about the content of a well-typed member only: a rule beyond the structure
 * on a non-empty string (a member of the wrong type, or empty, breaks the structure, and the
 * same rules report that too: it stays refused).
 */
export function beyondStructure(f: Finding, doc: unknown): boolean {
  const v = at(doc, f.path);
  return RULES_BEYOND_STRUCTURE.has(f.requirement) && typeof v === 'string' && v !== '';
}

/**
 * Derives documents that break a rule beyond their structure (an unknown ISO 4217 code, a bad
 * IBAN or EIP-55 checksum, a malformed BIC, a memo over 140 code points, a rail_address that
 * disagrees), with their value unmodified, where the reference refuses them. As the clean foreign
 * wallet does for ISO 4217 codes.
 */
export const derivesRulesBeyondStructure = walletVariant({
  id: 'wallet-variant-derives-rules-beyond-structure',
  choice:
    'derives a document that breaks only a rule beyond its structure (code list, checksum, BIC form, length, rail_address agreement) instead of refusing it',
  clause:
    'profile 3: "a wallet may refuse any document that breaks a SPEC or PROFILE rule of section 2 (a bad IBAN checksum, disagreeing chain ids)"',
  core: (options) => createWalletCore({ ...options, tolerates: beyondStructure }),
});
