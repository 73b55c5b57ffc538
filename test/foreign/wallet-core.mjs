// The paying application: reads a CPR (direct JSON, inline URI or reference
// URI), validates it, selects a rail and derives a CPD-001 Payment
// (spec 4.4, profile section 3). Shared by the HTTPS harness and the stdio
// command.

import { createHash, randomUUID } from 'node:crypto';
import { parseAmount } from './lib/amount.mjs';
import { b64urlDecodeReader, codePointLength, percentDecode, utf8DecodeStrict } from './lib/codec.mjs';
import {
  ALL_SUB_FIELDS,
  ASSET_TYPES,
  CPR_VERSION,
  chainKey,
  FORBIDDEN_TOP_LEVEL,
  findPayerTerms,
  isBytes16,
  isBytes32Hex,
  isEvmAddress,
  isPurposeCode,
  RAILS,
  SUB_INTERFACES,
  subInterfaceOfRail,
  ZERO_UUID,
} from './lib/cpr.mjs';
import { isValidIban } from './lib/iban.mjs';
import { isObject, JsonSyntaxError, parseJson } from './lib/json.mjs';
import { nsFromMs, parseRfc3339 } from './lib/time.mjs';
import { retrieveCpr } from './wallet-fetch.mjs';

/** Rails this wallet serves: SEPA and SWIFT credit transfers and on-chain stablecoins. */
export const SUPPORTED_RAILS = ['SEPA_CT', 'SEPA_INST', 'SWIFT', 'ON_CHAIN'];

const MAX_TEXT = 140;

/** A refusal answered as `{error: {code, message}}`. */
class Refusal extends Error {
  constructor(code, message) {
    super(message);
    this.code = code;
  }
}
const refuse = (code, message) => {
  throw new Refusal(code, message);
};
const structure = (message) => refuse('INVALID_STRUCTURE', message);

const hasOwn = (o, k) => Object.hasOwn(o, k);
const present = (o, k) => hasOwn(o, k) && o[k] !== null && o[k] !== undefined;

/** Remove null members everywhere (only for the wallet-nulls-stripped fault). */
function stripNulls(v) {
  if (Array.isArray(v)) return v.map(stripNulls);
  if (!isObject(v)) return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) if (x !== null) out[k] = stripNulls(x);
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * Create a wallet. `trustPems`: the CA certificates it trusts for reference
 * retrieval. `fault`: one fault id or null.
 */
export function createWallet({ trustPems, fault = null, supportedRails = SUPPORTED_RAILS }) {
  const on = (id) => fault === id;
  const validated = new Map(); // request_id -> true; only for wallet-validation-cache
  const shared = { context: null }; // only for wallet-shared-context-race

  const timeOptions = {
    ignoreOffset: on('wallet-offset-ignored'),
    flipOffset: on('wallet-offset-sign-flipped'),
  };
  const textLength = (s) => (on('wallet-memo-utf16-length') ? s.length : codePointLength(s));

  // ---------------------------------------------------------------------
  // Reading a document

  /** Only for wallet-extensions-fallback: an extension standing in for an absent field. */
  function extensionFallback(doc, name) {
    if (!on('wallet-extensions-fallback') || !isObject(doc.extensions)) return undefined;
    return present(doc.extensions, name) ? doc.extensions[name] : undefined;
  }

  function readAmount(raw) {
    if (typeof raw === 'string') {
      if (parseAmount(raw) === null)
        structure('value.amount is not a decimal amount string from 1 to 2^256-1');
      return on('wallet-amount-via-number') ? BigInt(Number(raw)).toString() : raw;
    }
    if (typeof raw === 'number') {
      if (on('wallet-number-amount-unsafe')) return String(raw);
      // A JSON number is accepted only when no precision can have been lost.
      if (Number.isSafeInteger(raw) && raw >= 1) return String(raw);
      structure('value.amount is a JSON number that is not a safe integer');
    }
    return structure('value.amount must be a decimal string');
  }

  function checkTimestamps(doc, { skipExpiry }) {
    const created = parseRfc3339(doc.created_at, timeOptions);
    const expires = parseRfc3339(doc.expires_at, timeOptions);
    if (!created) structure('created_at is not an RFC 3339 timestamp');
    if (!expires) structure('expires_at is not an RFC 3339 timestamp');
    const graceNs = on('wallet-expiry-grace') ? 120n * 1_000_000_000n : 0n;
    if (!skipExpiry && expires.ns + graceNs <= nsFromMs(Date.now()))
      refuse('EXPIRED', 'the request has expired');
    if (created.ns >= expires.ns) structure('created_at is not before expires_at');
  }

  function checkAsset(asset) {
    if (!isObject(asset)) structure('value.asset must be an object');
    if (!ASSET_TYPES.includes(asset.type))
      structure('value.asset.type is not fiat, stablecoin, crypto or tokenized');
    if (typeof asset.code !== 'string' || asset.code === '')
      structure('value.asset.code must be a non-empty string');
    if (hasOwn(asset, 'chain_id') && typeof asset.chain_id !== 'string')
      structure('value.asset.chain_id must be a string');
    if ((asset.type === 'stablecoin' || asset.type === 'tokenized') && !present(asset, 'chain_id'))
      structure(`value.asset.chain_id is required for ${asset.type}`);
  }

  /** Which sub-interface the document completes; throws when none or two. */
  function decideSubInterface(doc, hint) {
    const completed = Object.entries(SUB_INTERFACES)
      .filter(([name, sub]) => {
        if (name === 'onchain' && hint !== 'ON_CHAIN' && !on('wallet-onchain-without-hint')) return false;
        return sub.required.every((f) => present(doc, f));
      })
      .map(([name]) => name);
    const named = hint === 'OPEN' ? null : subInterfaceOfRail(hint);
    if (named !== null && on('wallet-two-subinterfaces-with-hint')) {
      if (completed.includes(named)) return named;
      structure(`rail_hint ${hint} needs the ${named} fields`);
    }
    if (completed.length === 0) structure('the document completes no rail sub-interface');
    if (completed.length > 1)
      structure(`the document completes two sub-interfaces (${completed.join(', ')})`);
    const [active] = completed;
    if (named !== null && named !== active) structure(`rail_hint ${hint} needs the ${named} fields`);
    return active;
  }

  function checkSubInterfaceFields(doc, active) {
    const sub = SUB_INTERFACES[active];
    for (const f of sub.fields) {
      if (!hasOwn(doc, f)) continue;
      if (typeof doc[f] !== 'string') structure(`${f} must be a string`);
    }
    for (const f of sub.required) if (doc[f].trim() === '') structure(`${f} must not be empty`);
    if (active === 'onchain') {
      if (!isEvmAddress(doc.receiver_address)) structure('receiver_address is not an EVM address');
      for (const f of ['order_reference', 'acquirer_id'])
        if (hasOwn(doc, f) && !isBytes16(doc[f])) structure(`${f} is not a 16-byte value`);
      if (hasOwn(doc, 'domain_separator') && !isBytes32Hex(doc.domain_separator))
        structure('domain_separator is not 0x + 64 hex digits');
      if (hasOwn(doc, 'contract_address') && !isEvmAddress(doc.contract_address))
        structure('contract_address is not an EVM address');
      const ids = [doc.chain_id, doc.payee.rail_address.chain_id, doc.value.asset.chain_id].filter(
        (x) => x !== undefined,
      );
      if (new Set(ids.map(chainKey)).size > 1) structure('the chain identifiers name different chains');
    }
    if (active === 'iban') {
      if (!isValidIban(doc.iban)) structure('iban fails its format or check digits');
      if (hasOwn(doc, 'purpose_code') && !isPurposeCode(doc.purpose_code))
        structure('purpose_code is not an ISO 20022 code');
    }
    if (hasOwn(doc, 'remittance_info') && textLength(doc.remittance_info) > MAX_TEXT)
      structure('remittance_info is over 140 characters');
    // payee.rail_address carries address fields that must agree with the top level.
    for (const [k, v] of Object.entries(doc.payee.rail_address)) {
      if (!ALL_SUB_FIELDS.includes(k)) continue;
      const same = k === 'chain_id' ? chainKey(v) === chainKey(doc[k]) : v === doc[k];
      if (!same) structure(`payee.rail_address.${k} disagrees with the top-level ${k}`);
    }
  }

  /** Validate a CPR document; returns what derivation needs. */
  function validate(doc, { path }) {
    const checkVersion = !(path === 'inline' && on('wallet-inline-version-unchecked'));
    if (checkVersion && doc.cpr_version !== CPR_VERSION)
      refuse('INVALID_VERSION', 'cpr_version is not CPR-1.0');
    if (typeof doc.request_id !== 'string' || doc.request_id === '')
      structure('request_id must be a non-empty string');
    const skipExpiry = path === 'reference' && on('wallet-retrieved-expiry-unchecked');
    checkTimestamps(doc, { skipExpiry });

    const payerHits = on('wallet-payee-copied-unscreened')
      ? findPayerTerms(doc, { skip: ['payee'] })
      : findPayerTerms(doc);
    if (payerHits.length > 0)
      structure(`the document carries payer, authorization or state data (${payerHits[0].join('.')})`);
    for (const name of FORBIDDEN_TOP_LEVEL)
      if (hasOwn(doc, name)) structure(`the document carries the derivation member ${name}`);

    if (!isObject(doc.payee)) structure('payee must be an object');
    if (!isObject(doc.payee.rail_address)) structure('payee.rail_address must be an object');
    if (hasOwn(doc.payee, 'display_name')) {
      if (typeof doc.payee.display_name !== 'string') structure('payee.display_name must be a string');
      if (on('wallet-display-name-whitespace-refused') && doc.payee.display_name.trim() === '')
        structure('payee.display_name is blank');
    }
    if (!isObject(doc.value)) structure('value must be an object');
    checkAsset(doc.value.asset);
    let amount;
    if (hasOwn(doc.value, 'amount')) amount = readAmount(doc.value.amount);
    else if (extensionFallback(doc, 'amount') !== undefined)
      amount = readAmount(extensionFallback(doc, 'amount'));
    const memo = hasOwn(doc, 'memo') ? doc.memo : extensionFallback(doc, 'memo');
    if (memo !== undefined) {
      if (typeof memo !== 'string') structure('memo must be a string');
      if (textLength(memo) > MAX_TEXT) structure('memo is over 140 characters');
    }
    if (hasOwn(doc, 'extensions') && !isObject(doc.extensions)) structure('extensions must be an object');

    // rail_hint: one of the eight (case-sensitive); anything else reads as OPEN.
    let hint = doc.rail_hint;
    if (on('wallet-rail-hint-case-folded') && typeof hint === 'string') hint = hint.toUpperCase();
    const recognised = typeof hint === 'string' && RAILS.includes(hint);
    if (!recognised && hasOwn(doc, 'rail_hint') && on('wallet-unknown-hint-unsupported'))
      refuse('UNSUPPORTED_RAIL', `rail_hint ${String(hint)} is not supported`);
    if (!recognised) hint = 'OPEN';

    const active = decideSubInterface(doc, hint);
    checkSubInterfaceFields(doc, active);

    // Rail selection (spec 4.4 step 2): the hint if served, else any served rail of the sub-interface.
    const candidates = SUB_INTERFACES[active].rails;
    const rail = supportedRails.includes(hint) ? hint : candidates.find((r) => supportedRails.includes(r));
    if (!rail) {
      refuse(
        'UNSUPPORTED_RAIL',
        `This wallet cannot pay ${candidates.join(' or ')} requests; it pays by ${supportedRails.join(', ')}.`,
      );
    }
    return { active, rail, amount, memo };
  }

  // ---------------------------------------------------------------------
  // Building the Payment

  function buildPayment(doc, info, context) {
    const { active } = info;
    const subFields = {};
    for (const f of SUB_INTERFACES[active].fields) if (hasOwn(doc, f)) subFields[f] = doc[f];

    const conditions = structuredClone(subFields);
    if (active === 'onchain' && !hasOwn(conditions, 'acquirer_id'))
      conditions.acquirer_id = on('wallet-acquirer-zero-hex') ? `0x${'0'.repeat(32)}` : ZERO_UUID;
    const payee = { ...structuredClone(doc.payee), ...structuredClone(subFields) };
    if (on('wallet-chain-id-normalized') && hasOwn(conditions, 'chain_id')) {
      conditions.chain_id = chainKey(conditions.chain_id);
      payee.chain_id = conditions.chain_id;
    }
    let id = randomUUID();
    if (on('wallet-payment-id-memoized')) {
      const h = createHash('sha256').update(`payment:${doc.request_id}`).digest('hex');
      id = `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
    }
    let payment = {
      id,
      payer: context.payer,
      payee,
      value: { amount: info.amount, asset: structuredClone(doc.value.asset) },
      intent: { reference: info.memo ?? doc.request_id, conditions },
      authorization: context.authorization,
      state: 'CREATED',
      context: { rail: context.rail, request_id: doc.request_id },
    };
    if (on('wallet-nulls-stripped')) payment = stripNulls(payment);
    return payment;
  }

  // ---------------------------------------------------------------------
  // Reading the harness request

  function readEnvelope(text, channel) {
    const envelopeCode =
      channel === 'stdio' && on('wallet-stdio-envelope-code') ? 'INVALID_STRUCTURE' : 'INVALID_REQUEST';
    const envelope = (message) => refuse(envelopeCode, message);
    let parsed;
    try {
      parsed = parseJson(text);
    } catch (err) {
      if (err instanceof JsonSyntaxError) envelope(`the harness request is not JSON: ${err.message}`);
      throw err;
    }
    const req = parsed.value;
    if (!isObject(req)) envelope('the harness request must be a JSON object');
    const hasCpr = hasOwn(req, 'cpr');
    const hasUri = hasOwn(req, 'uri');
    if (hasCpr === hasUri) envelope('give exactly one of cpr and uri');
    const cprIsObject = on('wallet-cpr-array-accepted')
      ? typeof req.cpr === 'object' && req.cpr !== null
      : isObject(req.cpr);
    if (hasCpr && !cprIsObject) envelope('cpr must be a JSON object');
    if (hasUri && typeof req.uri !== 'string') envelope('uri must be a string');
    const ctx = req.context;
    if (!isObject(ctx) || !hasOwn(ctx, 'payer') || !hasOwn(ctx, 'rail') || !hasOwn(ctx, 'authorization'))
      envelope('context must be an object with payer, rail and authorization');
    let payerAmount;
    if (hasOwn(ctx, 'payer_amount')) {
      const pa = ctx.payer_amount;
      if (typeof pa === 'string' && parseAmount(pa) !== null) payerAmount = pa;
      else if (Number.isSafeInteger(pa) && pa >= 1) payerAmount = String(pa);
      else envelope('context.payer_amount must be an amount string');
    }
    const inCpr = parsed.duplicates.filter((p) => p[0] === 'cpr');
    if (parsed.duplicates.length > inCpr.length) envelope('the harness request repeats a member name');
    if (inCpr.length > 0) structure('the CPR repeats a member name');
    return { req, payerAmount };
  }

  /** Decode a `cpr://` URI: returns `{ inline: doc }` or `{ token, endpoint }`. */
  function readUri(uri) {
    let text = uri;
    if (on('wallet-uri-lowercased')) text = text.toLowerCase();
    const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#.*)?$/.exec(text);
    if (m?.[1].toLowerCase() !== 'cpr') structure('the uri is not a cpr:// URI');
    const [, , authority, path, query] = m;
    if (authority.toLowerCase() === 'inline') {
      const payload = path.startsWith('/') ? path.slice(1) : '';
      const decoded = percentDecode(payload);
      const bytes = decoded === null ? null : b64urlDecodeReader(decoded);
      if (!bytes || bytes.length === 0) structure('the inline payload is not base64url');
      const json = on('wallet-inline-latin1') ? bytes.toString('latin1') : utf8DecodeStrict(bytes);
      if (json === null) structure('the inline payload is not UTF-8');
      let parsed;
      try {
        parsed = parseJson(json);
      } catch {
        structure('the inline payload is not JSON');
      }
      if (!isObject(parsed.value)) structure('the inline payload is not a JSON object');
      if (parsed.duplicates.length > 0) structure('the inline CPR repeats a member name');
      return { inline: parsed.value };
    }
    if (!/^[A-Za-z0-9._~-]+$/.test(authority))
      refuse('TOKEN_REJECTED', 'the reference URI has no usable token');
    if (path !== '' && path !== '/') refuse('TOKEN_REJECTED', 'the reference URI has an unexpected path');
    const endpoints = [];
    for (const part of (query ?? '').split('&')) {
      const eq = part.indexOf('=');
      if (eq === -1 || part.slice(0, eq) !== 'endpoint') continue;
      const raw = part.slice(eq + 1);
      endpoints.push(
        on('wallet-query-plus-as-space') ? new URLSearchParams(`e=${raw}`).get('e') : percentDecode(raw),
      );
    }
    if (endpoints.length !== 1 || endpoints[0] === null)
      refuse('TOKEN_REJECTED', 'the reference URI needs exactly one endpoint parameter');
    return { token: authority, endpoint: endpoints[0] };
  }

  // ---------------------------------------------------------------------
  // The operation

  async function derive(text, channel) {
    const { req, payerAmount } = readEnvelope(text, channel);
    let context = req.context;
    if (on('wallet-shared-context-race')) {
      shared.context = context;
      await sleep(80); // the "risk check" round trip
      context = shared.context;
    }
    let doc;
    let path = 'direct';
    if (hasOwn(req, 'cpr')) doc = req.cpr;
    else {
      const parsed = readUri(req.uri);
      if (parsed.inline) {
        doc = parsed.inline;
        path = 'inline';
      } else {
        const fetched = await retrieveCpr(parsed, { trustPems, fault });
        if (fetched.error) refuse('TOKEN_REJECTED', fetched.error);
        let body;
        try {
          body = parseJson(utf8DecodeStrict(fetched.body) ?? '');
        } catch {
          structure('the retrieved CPR is not JSON');
        }
        if (!isObject(body.value)) structure('the retrieved CPR is not a JSON object');
        if (body.duplicates.length > 0) structure('the retrieved CPR repeats a member name');
        doc = body.value;
        path = 'reference';
      }
    }
    let info;
    const cached = on('wallet-validation-cache') ? validated.get(doc.request_id) : undefined;
    if (cached) info = cached;
    else {
      info = validate(doc, { path });
      if (on('wallet-validation-cache')) validated.set(doc.request_id, info);
    }
    let amount = info.amount;
    if (payerAmount !== undefined && (amount === undefined || on('wallet-payer-amount-overrides')))
      amount = payerAmount;
    if (amount === undefined)
      refuse('AMOUNT_REQUIRED', 'the request leaves the amount open; give context.payer_amount');
    return buildPayment(doc, { ...info, amount }, context);
  }

  /** Answer one harness request: `{ status, body }` (status is for HTTP; stdio drops it). */
  async function answer(text, channel = 'http') {
    try {
      const payment = await derive(text, channel);
      return { status: 200, body: { payment } };
    } catch (err) {
      if (!(err instanceof Refusal)) {
        console.error('[wallet]', err);
        return {
          status: 422,
          body: { error: { code: 'INVALID_STRUCTURE', message: 'the document could not be read' } },
        };
      }
      const status = err.code === 'INVALID_REQUEST' ? 400 : 422;
      return { status, body: { error: { code: err.code, message: err.message } } };
    }
  }

  return { answer };
}
