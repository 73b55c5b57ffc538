/**
 * Broken wallets whose Payment invariant holds on one path and breaks on another: a delivery
 * form (inline or reference URI), an amount kind (open) or both. Each is the reference core with
 * one step replaced for that path only; the checks of `suites/wallet/2.10-payment-paths.ts` must
 * catch every one.
 */
import { decodeCprUri, encodeInlineUri } from '../../../src/codec/uri.js';
import type { DerivedPayment } from '../../../src/reference/wallet/derive.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, brokenWallet, editPayments, editRequests } from './harness.js';

type Json = Record<string, unknown>;

/** How the harness body delivers the request. */
function pathOf(body: unknown): 'cpr' | 'inline' | 'reference' | undefined {
  const uri = bodyOf(body)?.uri;
  if (typeof uri !== 'string') return bodyOf(body)?.cpr === undefined ? undefined : 'cpr';
  return uri.startsWith('cpr://inline/') ? 'inline' : 'reference';
}

/** Whether the payment took the payer's amount (an open-amount request). */
function openAmount(payment: DerivedPayment, body: unknown): boolean {
  const ctx = bodyOf(body)?.context;
  return typeof ctx === 'object' && ctx !== null && payment.value.amount === (ctx as Json).payer_amount;
}

/** The inline URI's document edited by `edit` and encoded again (the checks the fault skips). */
function editInline(edit: (doc: Json) => void): (body: unknown) => unknown {
  return (body) => {
    const b = bodyOf(body);
    if (!b || pathOf(body) !== 'inline') return body;
    const decoded = decodeCprUri(b.uri);
    if (!decoded.ok || decoded.value.kind !== 'inline') return body;
    const doc = decoded.value.document;
    edit(doc);
    return { ...b, uri: encodeInlineUri(doc) };
  };
}

export const inlineSkipsExpiry = brokenWallet({
  id: 'wallet-inline-skips-expiry',
  fault:
    'expires_at is not checked for a request delivered as an inline URI (taken as fresh from the QR code), only for a CPR object or a retrieved one',
  expected: [
    'CPR-7-EXPIRED-REJECTED',
    'CPR-INV-2-EXPIRY-ENFORCEMENT',
    'CPR-INV-7-REJECTS-EXPIRED',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(
      createWalletCore(options),
      editInline((doc) => {
        const expires = typeof doc.expires_at === 'string' ? Date.parse(doc.expires_at) : Number.NaN;
        if (expires <= Date.now()) doc.expires_at = new Date(Date.now() + 3_600_000).toISOString();
      }),
    ),
});

export const inlineSkipsVersion = brokenWallet({
  id: 'wallet-inline-skips-version',
  fault:
    'cpr_version is not checked for a request delivered as an inline URI, only for a CPR object or a retrieved one',
  expected: [
    'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-9-VERSION-VALIDATED',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(
      createWalletCore(options),
      editInline((doc) => {
        if (typeof doc.cpr_version === 'string' && /^CPR-\d+\.\d+$/.test(doc.cpr_version))
          doc.cpr_version = 'CPR-1.0';
      }),
    ),
});

export const referenceTokenBound = brokenWallet({
  id: 'wallet-reference-token-bound',
  fault:
    "a payment from a reference URI binds the retrieval token in context.request_id instead of the request's request_id",
  expected: ['CPR-2.10-REQUEST-ID-BOUND'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (pathOf(body) !== 'reference') return payment;
      const decoded = decodeCprUri(bodyOf(body)?.uri);
      if (decoded.ok && decoded.value.kind === 'reference') payment.context.request_id = decoded.value.token;
      return payment;
    }),
});

export const uriMemoDropped = brokenWallet({
  id: 'wallet-uri-memo-dropped',
  fault:
    'a payment from a cpr:// URI (inline or reference) takes the request_id as intent.reference, the memo dropped',
  expected: ['CPR-2.10-INTENT-REFERENCE', 'CPR-4.4-INTENT-FROM-MEMO'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (pathOf(body) === 'inline' || pathOf(body) === 'reference')
        payment.intent.reference = payment.context.request_id;
      return payment;
    }),
});

export const referenceStatePending = brokenWallet({
  id: 'wallet-reference-state-pending',
  fault: 'a payment from a reference URI starts in state PENDING (awaiting the payee) instead of CREATED',
  expected: [
    'CPR-2.10-STATE',
    'CPR-3-PAYMENT-CREATED',
    'PRF-3-HARNESS-MESSAGE-SCHEMA',
    'PRF-3-PAYMENT-SHAPE',
  ],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (pathOf(body) === 'reference') (payment as unknown as Json).state = 'PENDING';
      return payment;
    }),
});

export const openAmountAssetRebuilt = brokenWallet({
  id: 'wallet-open-amount-asset-rebuilt',
  fault:
    "an open amount's asset is rebuilt from the amount prompt as {type, code}: an on-chain asset loses its chain_id",
  // a stablecoin or tokenized asset without chain_id also breaks the Payment's schema (spec 2.3)
  expected: [
    'CPR-2.10-VALUE',
    'CPR-INV-5-VALUE-INTEGRITY',
    'PRF-3-HARNESS-MESSAGE-SCHEMA',
    'PRF-3-PAYMENT-SHAPE',
  ],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (openAmount(payment, body)) {
        const { type, code } = payment.value.asset;
        payment.value.asset = { type, code };
      }
      return payment;
    }),
});

export const openAmountContextAnnotated = brokenWallet({
  id: 'wallet-open-amount-context-annotated',
  fault:
    "an open-amount payment records the payer's amount in context.rail (the ExecutionContext is changed)",
  expected: ['CPR-2.10-CONTEXT', 'PRF-3-PAYMENT-CONTEXT-RAIL'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (openAmount(payment, body))
        payment.context.rail = { ...(payment.context.rail as Json), payer_amount: payment.value.amount };
      return payment;
    }),
});

export const inlinePayeeDescriptorOnly = brokenWallet({
  id: 'wallet-inline-payee-descriptor-only',
  fault:
    'a payment from an inline URI carries only the payee descriptor (display_name, rail_address), without the sub-interface fields',
  expected: ['PRF-3-PAYMENT-PAYEE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (pathOf(body) !== 'inline') return payment;
      const { display_name, rail_address } = payment.payee;
      payment.payee = display_name === undefined ? { rail_address } : { display_name, rail_address };
      return payment;
    }),
});

export const openAmountIdIsRequestId = brokenWallet({
  id: 'wallet-open-amount-id-is-request-id',
  fault: "an open-amount payment takes the request's request_id as its id instead of a new one",
  expected: ['CPR-2.10-ID'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (openAmount(payment, body)) payment.id = payment.context.request_id;
      return payment;
    }),
});

export const uriOpenAmountUnprompted = brokenWallet({
  id: 'wallet-uri-open-amount-unprompted',
  fault:
    "an open amount delivered by a cpr:// URI without the payer's amount is paid with a default of 1 unit (the prompt is skipped on that path)",
  expected: ['CPR-4.5-OPEN-AMOUNT', 'PRF-3-DERIVE-ERROR-CODES'],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const b = bodyOf(body);
      if (!b || pathOf(body) === 'cpr' || typeof b.context !== 'object' || b.context === null) return body;
      const ctx = b.context as Json;
      if (ctx.payer_amount === undefined) ctx.payer_amount = '1';
      return body;
    }),
});

export const referencePayerAnnotated = brokenWallet({
  id: 'wallet-reference-payer-annotated',
  fault:
    'a payment from a reference URI records where the request came from in payer (payer.source = the endpoint)',
  expected: ['CPR-2.10-PAYER'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment, body) => {
      if (pathOf(body) !== 'reference') return payment;
      const decoded = decodeCprUri(bodyOf(body)?.uri);
      const source = decoded.ok && decoded.value.kind === 'reference' ? decoded.value.endpoint : 'reference';
      payment.payer = { ...(payment.payer as Json), source };
      return payment;
    }),
});

/** The faults of this file. */
export const pathsFaults = [
  inlineSkipsExpiry,
  inlineSkipsVersion,
  referenceTokenBound,
  uriMemoDropped,
  referenceStatePending,
  openAmountAssetRebuilt,
  openAmountContextAnnotated,
  inlinePayeeDescriptorOnly,
  openAmountIdIsRequestId,
  uriOpenAmountUnprompted,
  referencePayerAnnotated,
];
