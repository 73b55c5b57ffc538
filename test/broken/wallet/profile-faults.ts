/**
 * Broken wallets for the rules of the revised profile (sections 1 to 3) and the classes of issue 7:
 * each is the reference core with one step replaced.
 */

import { isRail } from '../../../src/model/cpr.js';
import type { DerivationResult } from '../../../src/reference/wallet/derive.js';
import { createWalletCore, type WalletCore } from '../../../src/reference/wallet/index.js';
import { validateCpr } from '../../../src/validator/validate-cpr.js';
import { bodyOf, brokenWallet, cprOf, editPayments, editRequests, refusal, refuseFirst } from './harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The reference core with its refusals' codes rewritten. */
function recode(
  core: WalletCore,
  code: (result: DerivationResult & { ok: false }) => DerivationResult,
): WalletCore {
  return {
    async derive(body) {
      const result = await core.derive(body);
      return result.ok ? result : code(result);
    },
    close: () => core.close(),
  };
}

/** A document completing a second sub-interface is accepted under a named rail_hint (the extra set dropped). */
export const twoSubInterfacesAccepted = brokenWallet({
  id: 'wallet-two-sub-interfaces-accepted',
  fault:
    'a document that completes two sub-interfaces is derived when its rail_hint names one of them (the other set is ignored)',
  expected: ['PRF-2-WALLET-ONE-SUB-INTERFACE'],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      const hint = cpr?.rail_hint;
      if (!cpr || !isRail(hint)) return body;
      const keep: Record<string, string[]> = {
        iban: ['iban'],
        account: ['account_number'],
        key: ['key_type', 'key_value'],
      };
      const mine = ['SEPA_CT', 'SEPA_INST', 'SWIFT'].includes(hint)
        ? 'iban'
        : hint === 'ACH'
          ? 'account'
          : ['PIX', 'UPI'].includes(hint)
            ? 'key'
            : 'onchain';
      for (const [set, fields] of Object.entries(keep)) {
        if (set !== mine) for (const f of fields) delete cpr[f];
      }
      return body;
    }),
});

/** The stdio form's old reading: a harness-request error is answered INVALID_STRUCTURE (422 on HTTP). */
export const harnessErrorAsStructure = brokenWallet({
  id: 'wallet-harness-error-as-structure',
  fault:
    'an error in the harness request itself is answered INVALID_STRUCTURE (HTTP 422) instead of INVALID_REQUEST',
  expected: ['PRF-3-HARNESS-REQUEST-ERROR'],
  core: (options) =>
    recode(createWalletCore(options), (r) =>
      r.error.code === 'INVALID_REQUEST' ? refusal('INVALID_STRUCTURE', r.error.message) : r,
    ),
});

/** A non-UUID request_id is refused (a PROFILE warning, never a failure). */
export const refusesNonUuidRequestId = brokenWallet({
  id: 'wallet-refuses-non-uuid-request-id',
  fault: 'a request_id that is a non-empty string but not a UUID is refused with INVALID_STRUCTURE',
  expected: ['PRF-1-WALLET-ANY-REQUEST-ID'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const id = cprOf(body)?.request_id;
      return typeof id === 'string' && id !== '' && !UUID.test(id)
        ? refusal('INVALID_STRUCTURE', `"request_id" ${JSON.stringify(id)} is not a uuid`)
        : undefined;
    }),
});

/** memo and remittance_info lengths counted in UTF-16 units (String.length) instead of code points. */
export const countsUtf16Units = brokenWallet({
  id: 'wallet-counts-utf16-units',
  fault:
    'memo and remittance_info lengths are counted in UTF-16 units, so 140 code points outside the BMP are refused',
  expected: [
    'CPR-2.1-MEMO-LENGTH',
    'CPR-2.6-REMITTANCE-LENGTH',
    'CPR-2.7-REMITTANCE-LENGTH',
    'CPR-8-MEMO-LENGTH',
    'CPR-8-REMITTANCE-LENGTH',
    'PRF-2-LENGTH-CODE-POINTS',
  ],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      for (const name of ['memo', 'remittance_info']) {
        const v = cpr?.[name];
        if (typeof v === 'string' && v.length > 140)
          return refusal('INVALID_STRUCTURE', `"${name}" is longer than 140 characters`);
      }
      return undefined;
    }),
});

/** Timestamps read as wall time in UTC, the offset dropped. */
export const ignoresOffset = brokenWallet({
  id: 'wallet-ignores-offset',
  fault: 'timestamps are read as wall time in UTC: the offset of created_at and expires_at is dropped',
  expected: ['PRF-1-TIMESTAMP-ANY-OFFSET'],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      for (const name of ['created_at', 'expires_at']) {
        const v = cpr?.[name];
        if (cpr && typeof v === 'string') cpr[name] = v.replace(/([+-]\d{2}:\d{2}|[Zz])$/, 'Z');
      }
      return body;
    }),
});

/** A five-second grace period after expires_at (the wallet's clock runs five seconds behind). */
export const expiryGrace = brokenWallet({
  id: 'wallet-expiry-grace',
  fault: 'a request is treated as expired only five seconds after its expires_at (a grace period)',
  expected: [
    'CPR-7-EXPIRED-REJECTED',
    'CPR-INV-2-EXPIRY-ENFORCEMENT',
    'CPR-INV-7-REJECTS-EXPIRED',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) => createWalletCore({ ...options, clock: () => new Date(Date.now() - 5000) }),
});

/** A missing created_at is filled in instead of refused. */
export const createdAtOptional = brokenWallet({
  id: 'wallet-created-at-optional',
  fault: 'a request without created_at is derived (created_at taken as now) instead of refused',
  expected: [
    'CPR-1-VALIDITY-WINDOW',
    'CPR-2.1-REQUIRED-FIELDS',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (cpr && cpr.created_at === undefined) cpr.created_at = new Date(Date.now() - 60_000).toISOString();
      return body;
    }),
});

/** A memo of the wrong type is coerced to a string instead of refused. */
export const memoCoerced = brokenWallet({
  id: 'wallet-memo-coerced',
  fault: 'a memo that is a number or an object is turned into a string instead of refused',
  expected: [
    'CPR-2.1-FIELD-TYPES',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (cpr && cpr.memo !== undefined && typeof cpr.memo !== 'string') cpr.memo = JSON.stringify(cpr.memo);
      return body;
    }),
});

/** An absent acquirer_id is written into the conditions as another UUID, not the zero UUID. */
export const acquirerDefaultWrong = brokenWallet({
  id: 'wallet-acquirer-default-wrong',
  fault:
    'an on-chain request without acquirer_id gets the all-ones UUID as acquirer_id in intent.conditions instead of the zero UUID',
  expected: ['CPR-2.10-INTENT-CONDITIONS', 'PRF-3-INTENT-CONDITIONS'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      const cpr = cprOf(body);
      if (cpr?.rail_hint === 'ON_CHAIN' && cpr.acquirer_id === undefined)
        payment.intent.conditions.acquirer_id = 'ffffffff-ffff-4fff-bfff-ffffffffffff';
      return payment;
    }),
});

/** A context.rail with more than two members or a nested value is refused. */
export const refusesRichContextRail = brokenWallet({
  id: 'wallet-refuses-rich-context-rail',
  fault: 'a context.rail with more than two members, or a nested value, is refused with UNSUPPORTED_RAIL',
  expected: ['PRF-3-CONTEXT-RAIL-OPAQUE'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const rail = bodyOf(body)?.context?.rail;
      if (typeof rail !== 'object' || rail === null) return undefined;
      const values = Object.values(rail);
      return values.length > 2 || values.some((v) => typeof v === 'object' && v !== null)
        ? refusal('UNSUPPORTED_RAIL', 'this wallet does not understand the execution context')
        : undefined;
    }),
});

/** Payer data is ignored for validation but a top-level payer becomes the Payment's payer. */
export const leaksTopLevelPayer = brokenWallet({
  id: 'wallet-leaks-top-level-payer',
  fault: "a CPR carrying payer data is derived, and its top-level payer becomes the Payment's payer",
  expected: ['CPR-2.9-CONTEXT-FROM-APPLICATION', 'CPR-4.4-PAYER-FROM-APPLICATION'],
  core: (options) => {
    const core = createWalletCore(options);
    return {
      async derive(body) {
        const cpr = cprOf(body);
        const planted = cpr?.payer;
        if (!cpr || planted === undefined) return core.derive(body);
        const bare = { ...cpr };
        delete bare.payer;
        const result = await core.derive({ ...bodyOf(body), cpr: bare });
        if (!result.ok) return result;
        return { ok: true, payment: { ...result.payment, payer: planted } };
      },
      close: () => core.close(),
    };
  },
});

/** A CPR carrying payer or state data is refused with a code other than INVALID_STRUCTURE. */
export const payerDataWrongCode = brokenWallet({
  id: 'wallet-payer-data-wrong-code',
  fault:
    'a CPR carrying payer, authorization or state data is refused with INVALID_VERSION instead of INVALID_STRUCTURE',
  expected: ['PRF-3-PAYER-DATA-REFUSED-OR-IGNORED'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (!cpr) return undefined;
      const found = validateCpr(cpr, { mode: 'wallet' }).findings.some((f) =>
        ['CPR-INV-1-NO-PAYER-DATA', 'CPR-INV-6-SEPARATION'].includes(f.requirement),
      );
      return found ? refusal('INVALID_VERSION', 'this document carries data a cpr never holds') : undefined;
    }),
});

export const profileFaults = [
  twoSubInterfacesAccepted,
  harnessErrorAsStructure,
  refusesNonUuidRequestId,
  countsUtf16Units,
  ignoresOffset,
  expiryGrace,
  createdAtOptional,
  memoCoerced,
  acquirerDefaultWrong,
  refusesRichContextRail,
  leaksTopLevelPayer,
  payerDataWrongCode,
];
