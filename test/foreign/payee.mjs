// The payee system: issues CPR-1.0 requests through its harness, delivers them
// as reference URIs (single-use tokens, retrieval over HTTPS) or inline URIs,
// renders QR codes and records fulfilments (profile section 2).

import { randomBytes, randomUUID } from 'node:crypto';
import { parseAmount } from './lib/amount.mjs';
import { b64urlEncode, base32Lower, codePointLength, percentDecode, percentEncode } from './lib/codec.mjs';
import { ASSET_TYPES, CPR_VERSION, findPayerTerms, RAILS, UUID_RE } from './lib/cpr.mjs';
import { badRequest, HttpError, startServer } from './lib/http.mjs';
import { makeIban } from './lib/iban.mjs';
import { isIso4217 } from './lib/iso4217.mjs';
import { isObject } from './lib/json.mjs';
import { eip712DomainSeparator, isValidEvmAddress, toChecksumAddress } from './lib/keccak.mjs';
import { encodeQr, qrToPng } from './lib/qr.mjs';
import { formatNs, nsFromSeconds, TestClock } from './lib/time.mjs';

/** This payee's own limits. */
export const PAYEE_LIMITS = {
  maxTokenTtlSeconds: 900,
  defaultTokenTtlSeconds: 300,
  maxValiditySeconds: 7 * 24 * 3600,
  defaultValiditySeconds: 3600,
  maxTextCodePoints: 140,
};

const DEFAULT_ASSETS = {
  ON_CHAIN: { type: 'stablecoin', code: 'USDC', chain_id: '1' },
  SEPA_CT: { type: 'fiat', code: 'EUR' },
  SEPA_INST: { type: 'fiat', code: 'EUR' },
  SWIFT: { type: 'fiat', code: 'USD' },
  ACH: { type: 'fiat', code: 'USD' },
  PIX: { type: 'fiat', code: 'BRL' },
  UPI: { type: 'fiat', code: 'INR' },
  OPEN: { type: 'fiat', code: 'EUR' },
};

const MERCHANT = 'Foreign Test Merchant';

// Tokens whose EIP-712 domain this payee knows exactly. `domain_separator`
// (spec 2.5: "EIP-712 domain separator of the target token") is written only
// for these; for any other token it is left out (it is optional), never guessed.
// `separator` is the published value: the computed one must equal it, or the
// field is left out as well.
const KNOWN_TOKENS = [
  {
    chainId: 1n,
    symbol: 'USDC',
    domain: {
      name: 'USD Coin',
      version: '2',
      chainId: 1,
      verifyingContract: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
    },
    separator: '0x06c37168a7db5138defc7866392bb87a741f9b3d104deb5094588ce041cae335',
  },
];
const SEPARATORS = new Map(
  KNOWN_TOKENS.map((t) => [t, eip712DomainSeparator(t.domain) === t.separator ? t.separator : null]),
);

/** The domain separator of the asset's token on chain `chainId`, or null when not known exactly. */
function knownDomainSeparator(asset, chainId) {
  if (asset.type !== 'stablecoin') return null;
  const chain = chainNumber(chainId);
  for (const token of KNOWN_TOKENS) {
    if (token.chainId !== chain) continue;
    const byContract = asset.code.toLowerCase() === token.domain.verifyingContract.toLowerCase();
    if (asset.code === token.symbol || byContract) return SEPARATORS.get(token);
  }
  return null;
}

/**
 * A chain identifier this payee can write: decimal N, `eip155:N` or `0x`-hex,
 * naming an EVM chain 1 .. 2^256 - 1 (spec 2.5: "EVM chain ID or equivalent";
 * the receiver address it pairs with is an EVM address). Returns the chain as a
 * BigInt, or null.
 */
function chainNumber(id) {
  if (typeof id !== 'string') return null;
  let v;
  const dec = /^(?:eip155:)?([1-9][0-9]{0,77})$/.exec(id);
  const hex = /^0x([0-9a-fA-F]{1,64})$/.exec(id);
  if (dec) v = BigInt(dec[1]);
  else if (hex) v = BigInt(`0x${hex[1]}`);
  else return null;
  return v >= 1n && v < 2n ** 256n ? v : null;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
/** A string that UTF-8 can carry (no lone surrogate). */
const isWellFormed = (text) => !LONE_SURROGATE.test(text);

// Non-fiat asset codes (spec 2.3: "token symbol or contract reference"): a
// symbol, an EVM contract address (EIP-55 when mixed case), or a CAIP-19 asset id.
const SYMBOL_RE = /^[\p{L}\p{N}][\p{L}\p{N}._$-]{0,31}$/u;
const CAIP19_RE = /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}\/[-a-z0-9]{3,8}:([-.%a-zA-Z0-9]{1,128})$/;
function isTokenCode(code) {
  if (/^0x/i.test(code)) return isValidEvmAddress(code);
  const caip = CAIP19_RE.exec(code);
  if (caip) return !/^0x/i.test(caip[1]) || isValidEvmAddress(caip[1]);
  return SYMBOL_RE.test(code);
}

/**
 * Validate an AssetDescriptor given to the harness; returns a clean copy or
 * throws 400. Everything kept is copied into the CPR, so it must leave the CPR
 * conformant: type from spec 2.3, an active ISO 4217 code for fiat (and no
 * chain), a token symbol or contract reference otherwise, chain_id present for
 * stablecoin and tokenized and always in a form this payee can write. Members
 * spec 2.3 does not define are refused (the payee could not copy them as asked).
 */
function readAsset(asset) {
  if (!isObject(asset)) throw badRequest('asset must be an object');
  const extra = Object.keys(asset).filter((k) => !['type', 'code', 'chain_id'].includes(k));
  if (extra.length > 0)
    throw badRequest(`asset carries members spec 2.3 does not define: ${extra.join(', ')}`);
  if (!ASSET_TYPES.includes(asset.type))
    throw badRequest('asset.type must be fiat, stablecoin, crypto or tokenized');
  if (typeof asset.code !== 'string') throw badRequest('asset.code must be a string');
  if (asset.type === 'fiat') {
    if (!isIso4217(asset.code))
      throw badRequest('asset.code of a fiat asset must be an active ISO 4217 code');
    if (asset.chain_id !== undefined) throw badRequest('a fiat asset names no chain_id');
  } else if (!isTokenCode(asset.code)) {
    throw badRequest('asset.code must be a token symbol or a contract reference');
  }
  const needsChain = asset.type === 'stablecoin' || asset.type === 'tokenized';
  if (asset.chain_id !== undefined && chainNumber(asset.chain_id) === null)
    throw badRequest('asset.chain_id must be an EVM chain id: N, eip155:N or 0x-hex, N >= 1');
  if (needsChain && asset.chain_id === undefined)
    throw badRequest(`asset.chain_id is required for ${asset.type}`);
  const out = { type: asset.type, code: asset.code };
  if (asset.chain_id !== undefined) out.chain_id = asset.chain_id;
  return out;
}

/** A text member (memo, remittance_info): a well-formed string of at most 140 code points. */
function readText(body, name) {
  const v = body[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequest(`${name} must be a string`);
  if (!isWellFormed(v)) throw badRequest(`${name} carries a lone surrogate (not UTF-8 text)`);
  if (codePointLength(v) > PAYEE_LIMITS.maxTextCodePoints)
    throw badRequest(`${name} over ${PAYEE_LIMITS.maxTextCodePoints} code points`);
  return v;
}

/**
 * Why an extensions value cannot be copied into a CPR as given, or null: a
 * string or member name with a lone surrogate, or a number JSON text would not
 * carry exactly (not finite, or an integer beyond 2^53 that was already rounded).
 */
function jsonCopyProblem(value) {
  if (typeof value === 'string') return isWellFormed(value) ? null : 'a string with a lone surrogate';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return 'a number out of range';
    if (Number.isInteger(value) && !Number.isSafeInteger(value)) return 'an integer beyond 2^53 (precision)';
    return null;
  }
  if (Array.isArray(value)) {
    for (const item of value) {
      const p = jsonCopyProblem(item);
      if (p) return p;
    }
    return null;
  }
  if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (!isWellFormed(k)) return 'a member name with a lone surrogate';
      const p = jsonCopyProblem(v);
      if (p) return p;
    }
  }
  return null;
}

// The last instant RFC 3339 can write with a four-digit year.
const LAST_INSTANT_NS = BigInt(Date.UTC(9999, 11, 31, 23, 59, 59)) * 1_000_000_000n;

function readPositiveInt(body, name) {
  const v = body[name];
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v < 1) throw badRequest(`${name} must be a positive integer`);
  return v;
}

export async function startPayee({ tls, fault = null }) {
  const on = (id) => fault === id;
  const clock = new TestClock();
  const tokens = new Map(); // token -> { cpr, expiresNs, consumed, requestId }
  const requests = new Map(); // request_id -> { expiresNs, fulfilled }
  const identityCache = new Map(); // only used by payee-request-id-reused
  let lastQr = null; // only used by payee-qr-stale

  // Addresses this payee receives on, fixed for the life of the process.
  const account = {
    // An EVM address in its EIP-55 checksummed form.
    receiver: toChecksumAddress(`0x${randomBytes(20).toString('hex')}`),
    sepaIban: makeIban('DE', '500105170648489890'),
    swiftIban: makeIban('GB', 'NWBK60161331926819', { badCheck: on('payee-swift-iban-check') }),
    pixKey: randomUUID(),
  };

  const now = () => clock.nowNs();
  // Timestamps the payee emits: RFC 3339, UTC, `Z`.
  const stamp = (ns) => {
    const text = formatNs(ns);
    return on('payee-offset-timestamps') ? text.replace(/Z$/, '+00:00') : text;
  };

  function newToken() {
    if (on('payee-token-64-bits')) return randomBytes(8).toString('hex');
    const text = base32Lower(randomBytes(20)); // 160 bits
    return on('payee-token-uppercase') ? text.toUpperCase() : text;
  }

  /** The sub-interface fields and rail address for a rail. */
  function subInterfaceFields(rail, asset, requestId, remittance) {
    const shortRef = requestId.slice(0, 8).toUpperCase();
    switch (rail) {
      case 'ON_CHAIN': {
        const chainId = asset.chain_id ?? '1';
        const separator = knownDomainSeparator(asset, chainId);
        return {
          fields: {
            chain_id: chainId,
            receiver_address: account.receiver,
            ...(separator ? { domain_separator: separator } : {}),
            order_reference: requestId,
          },
          railAddress: {
            receiver_address: account.receiver,
            chain_id: on('payee-custom-chain-rail-address') ? '1' : chainId,
          },
        };
      }
      case 'SWIFT':
        return {
          fields: {
            iban: account.swiftIban,
            bic: 'NWBKGB2LXXX',
            beneficiary_name: `${MERCHANT} Ltd`,
            ...(remittance !== undefined ? { remittance_info: remittance } : {}),
            end_to_end_id: `E2E-${shortRef}`,
          },
          railAddress: { iban: account.swiftIban, bic: 'NWBKGB2LXXX' },
        };
      case 'ACH':
        return {
          fields: {
            account_number: '000123456789',
            routing_code: '021000021',
            routing_code_type: 'ABA',
            bank_name: 'Foreign Test Bank',
            beneficiary_name: `${MERCHANT} Inc`,
            ...(remittance !== undefined ? { remittance_info: remittance } : {}),
            end_to_end_id: `E2E-${shortRef}`,
          },
          railAddress: { account_number: '000123456789', routing_code: '021000021' },
        };
      case 'PIX':
        return {
          fields: {
            key_type: 'EVP',
            key_value: account.pixKey,
            beneficiary_name: `${MERCHANT} Ltda`,
            txid: shortRef,
          },
          railAddress: { key_type: 'EVP', key_value: account.pixKey },
        };
      case 'UPI':
        return {
          fields: {
            key_type: 'UPI_ID',
            key_value: 'merchant@foreignbank',
            beneficiary_name: `${MERCHANT} Pvt Ltd`,
            txid: shortRef,
          },
          railAddress: { key_type: 'UPI_ID', key_value: 'merchant@foreignbank' },
        };
      default: {
        // SEPA_CT, SEPA_INST, OPEN and no hint: an IBAN request.
        const fields = {
          iban: account.sepaIban,
          bic: 'INGDDEFFXXX',
          beneficiary_name: `${MERCHANT} GmbH`,
          remittance_info: remittance ?? `Order ${shortRef}`,
          end_to_end_id: `E2E-${shortRef}`,
          purpose_code: 'GDDS',
        };
        if (rail === 'OPEN' && on('payee-open-two-subinterfaces')) {
          Object.assign(fields, { account_number: '000123456789', routing_code: '021000021' });
        }
        return { fields, railAddress: { iban: account.sepaIban, bic: 'INGDDEFFXXX' } };
      }
    }
  }

  // -------------------------------------------------------------------------
  // Harness: POST /harness/requests

  async function createRequest(ctx) {
    const body = await ctx.json();
    const { delivery } = body;
    if (delivery !== 'reference' && delivery !== 'inline')
      throw badRequest('delivery must be "reference" or "inline"');
    const railHint = body.rail_hint;
    if (railHint !== undefined && !RAILS.includes(railHint))
      throw badRequest('rail_hint is not one of the eight rails');
    let amount;
    if (body.amount !== undefined) {
      if (parseAmount(body.amount) === null)
        throw badRequest('amount must be a decimal string from 1 to 2^256-1');
      amount = body.amount;
    }
    const asset = body.asset !== undefined ? readAsset(body.asset) : DEFAULT_ASSETS[railHint ?? 'OPEN'];
    readText(body, 'memo');
    // remittance_info (not in the profile's harness shape, but named by its
    // "memo or remittance text" rule): used on the rails whose sub-interface has
    // the field (IBAN, account); elsewhere the payee cannot honour it.
    const remittance = readText(body, 'remittance_info');
    if (remittance !== undefined && ['ON_CHAIN', 'PIX', 'UPI'].includes(railHint))
      throw badRequest(`rail ${railHint} has no remittance_info field`);
    if (body.extensions !== undefined) {
      if (!isObject(body.extensions)) throw badRequest('extensions must be an object');
      const hits = on('payee-extension-payer-namespaced')
        ? Object.keys(body.extensions).filter((k) =>
            /^(payer|debtor|mandate|settlement)|^(status|state)$/i.test(k),
          )
        : findPayerTerms(body.extensions);
      if (hits.length > 0) throw badRequest('extensions carry payer, authorization or state data');
      const problem = jsonCopyProblem(body.extensions);
      if (problem) throw badRequest(`extensions carry ${problem}; they cannot be copied as given`);
    }
    if (body.qr !== undefined && typeof body.qr !== 'boolean') throw badRequest('qr must be a boolean');
    let ttl = readPositiveInt(body, 'token_ttl_seconds') ?? PAYEE_LIMITS.defaultTokenTtlSeconds;
    if (!on('payee-token-ttl-uncapped')) ttl = Math.min(ttl, PAYEE_LIMITS.maxTokenTtlSeconds);
    let validity = readPositiveInt(body, 'validity_seconds') ?? PAYEE_LIMITS.defaultValiditySeconds;
    validity = Math.min(validity, PAYEE_LIMITS.maxValiditySeconds);
    if (on('payee-validity-minute-floor')) validity = Math.floor(validity / 60) * 60;

    // One request id per request; the faulty variant reuses an id for an identical harness call.
    let requestId = randomUUID();
    if (on('payee-request-id-reused')) {
      const key = JSON.stringify([railHint, amount, asset, body.memo, delivery]);
      requestId = identityCache.get(key) ?? requestId;
      identityCache.set(key, requestId);
    }

    const createdNs = now();
    const expiresNs = createdNs + nsFromSeconds(validity);
    if (expiresNs > LAST_INSTANT_NS || createdNs + nsFromSeconds(ttl) > LAST_INSTANT_NS)
      throw badRequest('the clock is too far ahead to write expires_at in RFC 3339');
    const { fields, railAddress } = subInterfaceFields(railHint ?? 'OPEN', asset, requestId, remittance);
    const value = amount !== undefined ? { amount, asset } : { asset };
    const cpr = {
      cpr_version: CPR_VERSION,
      request_id: requestId,
      created_at: stamp(createdNs),
      expires_at: stamp(expiresNs),
      payee: { display_name: MERCHANT, rail_address: railAddress },
      value,
      ...(body.memo !== undefined ? { memo: body.memo } : {}),
      ...(railHint !== undefined ? { rail_hint: railHint } : {}),
      ...fields,
      ...(body.extensions !== undefined ? { extensions: body.extensions } : {}),
    };
    requests.set(requestId, { expiresNs, fulfilled: false });

    const answer = { request_id: requestId };
    if (delivery === 'reference') {
      const token = newToken();
      const tokenExpiresNs = createdNs + nsFromSeconds(ttl);
      tokens.set(token, { cpr, expiresNs: tokenExpiresNs, consumed: false, requestId });
      const endpoint = on('payee-endpoint-unencoded') ? baseUrl : percentEncode(baseUrl);
      answer.uri = `cpr://${token}?endpoint=${endpoint}`;
      answer.token_expires_at = stamp(tokenExpiresNs);
    } else {
      let json = Buffer.from(JSON.stringify(cpr), 'utf8');
      if (on('payee-inline-bom')) json = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), json]);
      const payload = on('payee-inline-padded')
        ? json.toString('base64').replace(/\+/g, '-').replace(/\//g, '_')
        : b64urlEncode(json);
      answer.uri = `cpr://inline/${payload}`;
    }
    if (body.qr === true) {
      let qrText = answer.uri;
      if (on('payee-qr-stale')) {
        qrText = lastQr ?? answer.uri;
        lastQr = answer.uri;
      }
      let symbol;
      try {
        symbol = encodeQr(qrText, { ec: on('payee-qr-ec-low') ? 'L' : 'M' });
      } catch {
        throw badRequest('the URI is too long for a QR code; ask for reference delivery');
      }
      answer.qr_png_base64 = qrToPng(symbol).toString('base64');
    }
    // The answer lists uri first, as the profile shows it.
    return { status: 201, body: { uri: answer.uri, ...answer } };
  }

  // -------------------------------------------------------------------------
  // Harness: POST /harness/fulfillments

  async function fulfil(ctx) {
    const body = await ctx.json();
    const id = body.request_id;
    if (typeof id !== 'string') throw badRequest('request_id must be a string');
    if (!UUID_RE.test(id)) throw new HttpError(404, 'REQUEST_UNKNOWN', 'no request has this id');
    const request = requests.get(id);
    if (!request) throw new HttpError(404, 'REQUEST_UNKNOWN', 'no request has this id');
    if (request.fulfilled) throw new HttpError(409, 'DUPLICATE_ID', 'this request was already fulfilled');
    const current = on('payee-fulfillment-wall-clock') ? clock.wallNs() : now();
    if (current >= request.expiresNs) throw new HttpError(409, 'REQUEST_EXPIRED', 'this request has expired');
    if (on('payee-fulfillment-race')) await new Promise((r) => setTimeout(r, 80)); // "ledger write"
    request.fulfilled = true;
    return { status: 200, body: { request_id: id, fulfilled_at: stamp(now()) } };
  }

  // -------------------------------------------------------------------------
  // Harness: POST /harness/clock

  async function advanceClock(ctx) {
    const body = await ctx.json();
    const n = body.advance_seconds;
    const allowed = on('payee-clock-moves-back') ? Number.isFinite(n) : Number.isFinite(n) && n >= 0;
    if (typeof n !== 'number' || !allowed || Math.abs(n) > 100 * 365 * 86400)
      throw badRequest('advance_seconds must be a non-negative number of seconds');
    clock.advance(n);
    return { status: 200, body: { now: formatNs(clock.nowNs(), 3) } };
  }

  // -------------------------------------------------------------------------
  // Retrieval: GET {base_url}/cpr/{token}

  async function retrieve(ctx) {
    const token = percentDecode(ctx.params[0]);
    const entry = token === null ? undefined : tokens.get(token);
    if (!entry) throw new HttpError(404, 'TOKEN_UNKNOWN', 'this token was never issued');
    const leak = on('payee-consumed-error-leaks') ? { body: { request_id: entry.requestId } } : {};
    if (entry.consumed) throw new HttpError(410, 'TOKEN_CONSUMED', 'this token was already used', leak);
    const current = on('payee-token-expiry-wall-clock') ? clock.wallNs() : now();
    if (current >= entry.expiresNs) throw new HttpError(410, 'TOKEN_EXPIRED', 'this token has expired');
    if (on('payee-token-race')) await new Promise((r) => setTimeout(r, 80)); // "session store" round trip
    entry.consumed = true;
    let cpr = entry.cpr;
    if (on('payee-served-to-client')) {
      cpr = {
        ...cpr,
        extensions: { ...(cpr.extensions ?? {}), 'com.foreign:served_to': ctx.req.socket.remoteAddress },
      };
    }
    return { status: 200, body: cpr };
  }

  const cprPath = on('payee-cpr-path-prefix-match') ? /^\/cpr\/([^/]+)(?:\/.*)?$/ : /^\/cpr\/([^/]+)$/;
  const baseRoutes = [{ method: 'GET', path: cprPath, handler: retrieve }];
  if (on('payee-head-consumes')) baseRoutes.push({ method: 'HEAD', path: cprPath, handler: retrieve });
  const errorContentType = on('payee-error-content-type') ? 'text/plain; charset=utf-8' : null;

  const base = await startServer({ tls, routes: baseRoutes, name: 'payee', errorContentType });
  const baseUrl = base.origin;
  const harness = await startServer({
    tls,
    name: 'payee-harness',
    errorContentType,
    routes: [
      { method: 'POST', path: /^\/harness\/requests$/, handler: createRequest },
      { method: 'POST', path: /^\/harness\/fulfillments$/, handler: fulfil },
      { method: 'POST', path: /^\/harness\/clock$/, handler: advanceClock },
    ],
  });
  // Plain HTTP: never serves a CPR; every request is refused with 403.
  const plainRoutes = on('payee-plain-http-serves') ? baseRoutes : [];
  const plain = await startServer({
    tls: null,
    name: 'payee-plain',
    routes: plainRoutes,
    unmatched: () => ({
      status: 403,
      body: { error: { code: 'HTTPS_REQUIRED', message: 'this payee serves requests over HTTPS only' } },
    }),
  });

  return {
    baseUrl,
    harnessUrl: `${harness.origin}/harness`,
    plainHttpUrl: plain.origin,
    close: () => Promise.all([base.close(), harness.close(), plain.close()]).then(() => undefined),
  };
}
