import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { validateCpr } from '../../../src/validator/validate-cpr.js';
import { beyondStructure } from '../../variants/wallet/rules-beyond-structure.js';
import { bodyOf, brokenWallet, cprOf, editRequests, refusal, refuseFirst } from './harness.js';

/**
 * A document with a bad IBAN checksum is refused as an unsupported rail: refusing is allowed
 * (profile 3 "may refuse"), but a structural defect is INVALID_STRUCTURE, not UNSUPPORTED_RAIL.
 */
export const badIbanAsUnsupportedRail = brokenWallet({
  id: 'wallet-bad-iban-refused-unsupported-rail',
  fault:
    'a document whose IBAN fails its checksum is refused with UNSUPPORTED_RAIL ("this IBAN cannot be paid") instead of INVALID_STRUCTURE',
  expected: ['PRF-3-DERIVE-ERROR-CODES'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (cpr === undefined) return undefined;
      const bad = validateCpr(cpr, { mode: 'wallet' }).findings.some(
        (f) => f.requirement === 'CPR-2.6-IBAN-VALID' && f.severity === 'error' && beyondStructure(f, cpr),
      );
      return bad ? refusal('UNSUPPORTED_RAIL', 'this IBAN cannot be paid from this wallet') : undefined;
    }),
});

/**
 * Derives documents breaking a rule beyond their structure, as a wallet may, but "repairs" a
 * fiat code outside ISO 4217 to EUR first: the Payment's asset is not the request's.
 */
export const repairsFiatCode = brokenWallet({
  id: 'wallet-repairs-unknown-fiat-code',
  fault: 'derives a request whose fiat code is outside ISO 4217 with the code replaced by EUR',
  expected: ['CPR-INV-5-VALUE-INTEGRITY', 'CPR-2.10-VALUE'],
  core: (options) =>
    editRequests(createWalletCore({ ...options, tolerates: beyondStructure }), (body) => {
      const cpr = bodyOf(body)?.cpr as { value?: { asset?: { type?: unknown; code?: unknown } } } | undefined;
      const asset = cpr?.value?.asset;
      const unknownCode = validateCpr(cpr, { mode: 'wallet' }).findings.some(
        (f) => f.requirement === 'CPR-2.3-ASSET-CODE-ISO4217',
      );
      if (asset && asset.type === 'fiat' && typeof asset.code === 'string' && unknownCode) asset.code = 'EUR';
      return body;
    }),
});

/** The broken wallets of rules beyond a document's structure. */
export const rulesBeyondStructureFaults = [badIbanAsUnsupportedRail, repairsFiatCode];
