/**
 * Broken wallets of how a document is read (profile sections 2 and 3): the faults real
 * implementers make reading rail_hint and other enum values, extensions and the sub-interface
 * fields. Each is the reference core with one step replaced.
 */
import { ADDRESS_FIELDS, isRail, RAIL_HINTS, SUB_INTERFACE_NAMES } from '../../../src/model/cpr.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { appliedSubInterface } from '../../../src/validator/subinterface.js';
import { bodyOf, brokenWallet, cprOf, editPayments, editRequests, refusal, refuseFirst } from './harness.js';

type Json = Record<string, unknown>;

function isJsonObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The rail_hint taken as binding: any hint the wallet does not serve, unrecognised ones included, is refused. */
export const hintTakenAsBinding = brokenWallet({
  id: 'wallet-unrecognised-hint-unsupported',
  fault:
    'the rail_hint is taken as binding: a valid request whose hint is unrecognised (FEDNOW, sepa_ct) is refused with UNSUPPORTED_RAIL instead of being read as OPEN',
  expected: ['CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
  core: (options) => {
    const core = createWalletCore(options);
    return {
      async derive(body) {
        // the document is validated as the reference does; only then is the hint looked up
        const result = await core.derive(body);
        const hint = cprOf(body)?.rail_hint;
        if (!result.ok || typeof hint !== 'string' || hint === 'OPEN' || isRail(hint)) return result;
        return refusal(
          'UNSUPPORTED_RAIL',
          `this wallet cannot pay by ${hint}; it pays by ${options.supportedRails.join(', ')}`,
        );
      },
      close: () => core.close(),
    };
  },
});

/** rail_hint upper-cased before it is read (`sepa_ct` taken for SEPA_CT, `on_chain` for ON_CHAIN). */
export const railHintCaseFolded = brokenWallet({
  id: 'wallet-rail-hint-case-folded',
  fault:
    'the rail_hint is upper-cased before it is read, so swift is taken for SWIFT (refused) and on_chain for ON_CHAIN (paid)',
  expected: ['PRF-2-WALLET-ONE-SUB-INTERFACE', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (cpr && typeof cpr.rail_hint === 'string') cpr.rail_hint = cpr.rail_hint.toUpperCase();
      return body;
    }),
});

/** value.asset.type lower-cased before validation (`FIAT` taken for fiat). */
export const assetTypeCaseFolded = brokenWallet({
  id: 'wallet-asset-type-case-folded',
  fault: 'value.asset.type is lower-cased before it is validated, so FIAT and Fiat are taken for fiat',
  expected: [
    'CPR-2.3-ASSET-TYPE',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const asset = (cprOf(body)?.value as Json | undefined)?.asset;
      if (isJsonObject(asset) && typeof asset.type === 'string') asset.type = asset.type.toLowerCase();
      return body;
    }),
});

/** key_type and routing_code_type normalised to upper case in the Payment. */
export const openVocabularyUpperCased = brokenWallet({
  id: 'wallet-key-type-upper-cased',
  fault:
    'key_type and routing_code_type are normalised to upper case in the Payment (payee and conditions), so cpf becomes CPF',
  expected: ['CPR-2.10-INTENT-CONDITIONS', 'PRF-3-INTENT-CONDITIONS', 'PRF-3-PAYMENT-PAYEE'],
  core: (options) =>
    editPayments(createWalletCore(options), (payment) => {
      for (const holder of [payment.payee, payment.intent.conditions]) {
        for (const name of ['key_type', 'routing_code_type']) {
          const v = holder[name];
          if (typeof v === 'string') holder[name] = v.toUpperCase();
        }
      }
      return payment;
    }),
});

/** The name a namespaced extension key stands for: the part after its last `:`. */
function tail(key: string): string {
  return key.slice(key.lastIndexOf(':') + 1);
}

/** Extensions merged over the top level (`Object.assign(cpr, extensions)`, namespace prefixes dropped). */
export const extensionsMerged = brokenWallet({
  id: 'wallet-extensions-merged-over-fields',
  fault:
    'the extensions map is merged over the document (Object.assign, namespace prefix dropped): an extension named iban, memo or expires_at replaces or completes the field',
  expected: [
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-9-IGNORE-UNKNOWN-EXTENSIONS',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-2-WALLET-ONE-SUB-INTERFACE',
    'PRF-3-EXTENSIONS-NEVER-FIELDS',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (!cpr || !isJsonObject(cpr.extensions)) return body;
      for (const [k, v] of Object.entries(cpr.extensions)) cpr[tail(k)] = v;
      return body;
    }),
});

/** The first member named `amount` (after any namespace prefix) at any depth of `value`. */
function amountIn(value: unknown): unknown {
  if (!isJsonObject(value)) return undefined;
  for (const [k, v] of Object.entries(value)) {
    if (tail(k) === 'amount' && (typeof v === 'string' || typeof v === 'number')) return String(v);
    const deeper = amountIn(v);
    if (deeper !== undefined) return deeper;
  }
  return undefined;
}

/** An open amount filled from an `amount` found in extensions when the payer gave none. */
export const extensionAmountUsed = brokenWallet({
  id: 'wallet-extension-amount-fills-open-amount',
  fault:
    "an open-amount request without the payer's amount is paid with an amount found in its extensions (a suggested amount) instead of being refused",
  expected: ['CPR-9-IGNORE-UNKNOWN-EXTENSIONS', 'PRF-3-EXTENSIONS-NEVER-FIELDS'],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const b = bodyOf(body);
      const cpr = cprOf(body);
      if (!b || !cpr || !isJsonObject(b.context) || b.context.payer_amount !== undefined) return body;
      if (!isJsonObject(cpr.value) || cpr.value.amount !== undefined) return body;
      const suggested = amountIn(cpr.extensions);
      if (suggested !== undefined) b.context.payer_amount = suggested;
      return body;
    }),
});

/** A sub-interface field missing at the top level taken from payee.rail_address. */
export const addressFromRailAddress = brokenWallet({
  id: 'wallet-address-from-rail-address',
  fault:
    'an address field missing at the top level (iban, account_number, key_type, receiver_address...) is taken from payee.rail_address',
  expected: [
    'CPR-2.5-ONCHAIN-FIELDS',
    'CPR-2.7-ACCOUNT-FIELDS',
    'CPR-2.8-INSTANT-KEY-FIELDS',
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-2-EXACTLY-ONE-SUB-INTERFACE',
    'PRF-2-WALLET-ONE-SUB-INTERFACE',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      const address = isJsonObject(cpr?.payee) ? cpr.payee.rail_address : undefined;
      if (!cpr || !isJsonObject(address)) return body;
      for (const sub of SUB_INTERFACE_NAMES) {
        for (const f of ADDRESS_FIELDS[sub])
          if (cpr[f] === undefined && address[f] !== undefined) cpr[f] = address[f];
      }
      return body;
    }),
});

/** On-chain selected from its fields when the hint is absent, OPEN or unrecognised. */
export const onchainFromFields = brokenWallet({
  id: 'wallet-onchain-selected-by-fields',
  fault:
    'a document with chain_id and receiver_address is read as on-chain when its rail_hint is absent, OPEN or unrecognised (on-chain needs ON_CHAIN)',
  expected: [
    'CPR-4.4-PARSE-VALIDATE',
    'CPR-INV-7-VALIDATES-BASE',
    'PRF-2-WALLET-ONE-SUB-INTERFACE',
    'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN',
  ],
  core: (options) =>
    editRequests(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (!cpr || cpr.chain_id === undefined || cpr.receiver_address === undefined) return body;
      if (!isRail(cpr.rail_hint)) cpr.rail_hint = 'ON_CHAIN';
      return body;
    }),
});

/** A document completing no sub-interface refused as an unsupported rail (rails looked up before validation). */
export const incompleteAsUnsupported = brokenWallet({
  id: 'wallet-no-sub-interface-unsupported-rail',
  fault:
    'a document that completes no sub-interface (or two) is refused with UNSUPPORTED_RAIL (no rail found for it) instead of INVALID_STRUCTURE',
  expected: ['PRF-2-WALLET-ONE-SUB-INTERFACE', 'PRF-3-DERIVE-ERROR-CODES', 'PRF-3-UNKNOWN-RAIL-HINT-AS-OPEN'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) => {
      const cpr = cprOf(body);
      if (!cpr) return undefined;
      const hint = cpr.rail_hint;
      const read =
        typeof hint === 'string' && !(RAIL_HINTS as readonly string[]).includes(hint)
          ? { ...cpr, rail_hint: 'OPEN' }
          : cpr;
      return appliedSubInterface(read) === null
        ? refusal('UNSUPPORTED_RAIL', 'no rail this wallet supports can pay this request')
        : undefined;
    }),
});

/** The faults of this file. */
export const readingFaults = [
  hintTakenAsBinding,
  railHintCaseFolded,
  assetTypeCaseFolded,
  openVocabularyUpperCased,
  extensionsMerged,
  extensionAmountUsed,
  addressFromRailAddress,
  onchainFromFields,
  incompleteAsUnsupported,
];
