// The cash-pack Operator (Cash-Pack API 1.0 with profile section 4): issue,
// renew, redeem, status, the well-known policy and key, and the optional
// harness (expire, cancel, clock, balance).

import {
  createHash,
  createPublicKey,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
  sign,
  timingSafeEqual,
  verify,
} from 'node:crypto';
import { amountText, parseAmount } from './lib/amount.mjs';
import { b64urlDecodeStrict, b64urlEncode, percentDecode } from './lib/codec.mjs';
import { chainKey, UUID_RE } from './lib/cpr.mjs';
import { badRequest, HttpError, startServer } from './lib/http.mjs';
import { canonicalBytes, isObject } from './lib/json.mjs';
import { formatNs, nsFromSeconds, parseRfc3339, SECOND_NS, TestClock, toZulu } from './lib/time.mjs';

export const POLICY = {
  operator_id: 'foreign-cashpack-operator',
  max_amount: '50000000000000000000',
  min_expiry_seconds: 10,
  max_expiry_seconds: 30 * 24 * 3600,
  max_chain_depth: 3,
  required_identity_level: 2,
  assets: [
    { type: 'fiat', code: 'EUR' },
    { type: 'stablecoin', code: 'USDC', chain_id: '1' },
  ],
  signature_alg: 'EdDSA',
};

const FUNDED_BALANCE = 10n ** 30n;
const LOW_BALANCE = 5000n;
/** How far a Lock Request's created_at may lie ahead of the Operator's clock. */
const CREATED_AT_LEEWAY_NS = 60n * SECOND_NS;
/**
 * Timing tolerance at the edges of the expiry range: less than one second, because
 * clients stamp created_at and expires_at at slightly different moments.
 */
const EDGE_TOLERANCE_NS = SECOND_NS;

const sha256Hex = (bytes) => createHash('sha256').update(bytes).digest('hex');
const assetKey = (a) => `${a.type}|${a.code}|${a.chain_id ?? ''}`;
/** True when a requested AssetDescriptor names the same asset as an offered one. */
const sameAsset = (offered, asked) =>
  asked.type === offered.type &&
  asked.code === offered.code &&
  (asked.chain_id === undefined
    ? offered.chain_id === undefined
    : offered.chain_id !== undefined && chainKey(asked.chain_id) === chainKey(offered.chain_id));
const hasOwn = (o, k) => Object.hasOwn(o, k);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function ed25519FromRaw(raw) {
  return createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: b64urlEncode(raw) }, format: 'jwk' });
}

function newKeyPair() {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  return { publicKey, privateKey, jwk: privateKey.export({ format: 'jwk' }) };
}

function safeEqual(a, b) {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

// ---------------------------------------------------------------------------
// Field readers (400 INVALID_REQUEST on failure)

function needString(obj, name, where) {
  const v = obj[name];
  if (typeof v !== 'string' || v === '') throw badRequest(`${where}.${name} must be a non-empty string`);
  return v;
}
function needUuid(obj, name, where) {
  const v = needString(obj, name, where);
  if (!UUID_RE.test(v)) throw badRequest(`${where}.${name} must be a UUID`);
  return v;
}
function needPublicKey(obj, name, where) {
  const raw = b64urlDecodeStrict(obj[name]);
  if (raw?.length !== 32) throw badRequest(`${where}.${name} must be base64url of 32 bytes`);
  return raw;
}
function needTime(obj, name, where, options) {
  const t = parseRfc3339(obj[name], options);
  if (!t) throw badRequest(`${where}.${name} must be an RFC 3339 timestamp`);
  return t;
}
function needDigest(obj, name, where) {
  const v = obj[name];
  if (typeof v !== 'string' || !/^[0-9a-f]{64}$/.test(v))
    throw badRequest(`${where}.${name} must be 64 lowercase hex digits`);
  return v;
}

const invalidSignature = (message) => new HttpError(401, 'INVALID_SIGNATURE', message);

/** Verify `obj.signature` over JCS(obj without signature) with a public key object. */
function checkSignature(obj, publicKey, what) {
  if (!hasOwn(obj, 'signature')) throw invalidSignature(`${what} has no signature`);
  const sig = b64urlDecodeStrict(obj.signature);
  if (sig?.length !== 64) throw invalidSignature(`${what} signature is not base64url of 64 bytes`);
  const unsigned = { ...obj };
  delete unsigned.signature;
  let ok = false;
  try {
    ok = verify(null, canonicalBytes(unsigned), publicKey, sig);
  } catch {
    ok = false;
  }
  if (!ok) throw invalidSignature(`${what} signature does not verify`);
}

export async function startOperator({ tls, fault = null }) {
  const on = (id) => fault === id;
  const clock = new TestClock();
  const now = () => (on('op-clock-ignored') ? clock.wallNs() : clock.nowNs());

  const opKey = newKeyPair();
  const kid = `foreign-op-${randomBytes(6).toString('hex')}`;
  const publicJwk = (() => {
    const base = on('op-jwk-private-d') ? { ...opKey.jwk } : { kty: 'OKP', crv: 'Ed25519', x: opKey.jwk.x };
    if (on('op-jwk-x-std-base64')) base.x = Buffer.from(opKey.jwk.x, 'base64url').toString('base64');
    return { ...base, kid, alg: 'EdDSA', use: 'sig' };
  })();

  // Principals, credentials and identity tokens of this run.
  const principals = new Map();
  const credentials = new Map(); // credential -> { kind, principalId? }
  const makePrincipal = (label, balance) => {
    const keys = newKeyPair();
    const principalId = `principal-${label}-${randomBytes(4).toString('hex')}`;
    const credential = `cred_${randomBytes(24).toString('base64url')}`;
    const balances = new Map(
      POLICY.assets.map((a) => [assetKey(a), { available: balance, locked: 0n, held: 0n, returned: 0n }]),
    );
    principals.set(principalId, { principalId, publicKey: keys.publicKey, balances });
    credentials.set(credential, { kind: 'principal', principalId });
    return {
      principal_id: principalId,
      private_key_jwk: { kty: 'OKP', crv: 'Ed25519', x: keys.jwk.x, d: keys.jwk.d },
      status_credential: credential,
    };
  };
  const funded = makePrincipal('funded', FUNDED_BALANCE);
  const lowBalance = { ...makePrincipal('low', LOW_BALANCE), available_balance: amountText(LOW_BALANCE) };
  const operatorCredential = `opcred_${randomBytes(24).toString('base64url')}`;
  credentials.set(operatorCredential, { kind: 'operator' });
  const identityTokens = new Map([
    [`idt_${randomBytes(18).toString('base64url')}`, POLICY.required_identity_level],
    [`idt_${randomBytes(18).toString('base64url')}`, POLICY.required_identity_level - 1],
  ]);
  const [sufficientToken, insufficientToken] = [...identityTokens.keys()];

  const packs = new Map(); // pack_id -> state
  const seen = { request: new Set(), renewal: new Set(), redemption: new Set() };
  const payouts = new Map(); // destination reference -> BigInt, redeemed funds

  const signObject = (obj) => ({
    ...obj,
    signature: b64urlEncode(sign(null, canonicalBytes(obj), opKey.privateKey)),
  });

  function cashPackOf(p) {
    return signObject({
      cashpack_version: 'CP-1.0',
      pack_id: p.pack_id,
      amount: p.amount,
      asset: p.asset,
      issued_at: p.issued_at,
      expires_at: p.expires_at,
      current_bearer_pk: p.current_bearer_pk,
      chain_digest: p.chain_digest,
      renewal_chain: p.renewal_chain,
      status: p.status,
      kid,
    });
  }

  const balanceOf = (p) => principals.get(p.principalId).balances.get(p.balanceKey);

  // Terminal moves and where the money goes.
  function expirePack(p, { refund = true } = {}) {
    p.status = 'EXPIRED';
    const b = balanceOf(p);
    b.locked -= p.amountValue;
    if (refund) b.available += p.amountValue;
  }
  function cancelPack(p) {
    p.status = 'CANCELLED';
    const b = balanceOf(p);
    b.locked -= p.amountValue;
    if (on('op-cancel-refunds')) b.available += p.amountValue;
    else b.held += p.amountValue;
  }

  /** Expiry on any access: every ACTIVE pack whose expires_at has passed is EXPIRED. */
  function sweep() {
    const graceNs = on('op-expiry-grace') ? 30n * SECOND_NS : 0n;
    const t = now();
    for (const p of packs.values()) {
      if (p.status === 'ACTIVE' && t >= p.expiresNs + graceNs)
        expirePack(p, { refund: !on('op-lazy-expiry-no-refund') });
    }
  }

  // -------------------------------------------------------------------------
  // POST /v1/cashpack/issue

  async function issue(ctx) {
    const lock = await ctx.json();
    sweep();
    const where = 'lock_request';
    const requestId = needUuid(lock, 'request_id', where);
    const principalId = needString(lock, 'principal_id', where);
    const amount = parseAmount(lock.amount);
    if (amount === null) throw badRequest('lock_request.amount must be a decimal string from 1 to 2^256-1');
    if (!isObject(lock.asset)) throw badRequest('lock_request.asset must be an AssetDescriptor');
    const asset = POLICY.assets.find((a) => sameAsset(a, lock.asset));
    if (!asset) throw badRequest('lock_request.asset is not offered by this Operator');
    const bearerPk = needPublicKey(lock, 'initial_bearer_pk', where);
    const timeOptions = { ignoreOffset: on('op-offset-ignored') };
    const expires = needTime(lock, 'expires_at', where, timeOptions);
    const created = needTime(lock, 'created_at', where, timeOptions);

    const principal = principals.get(principalId);
    if (!principal) {
      if (on('op-unknown-principal-400')) throw badRequest('unknown principal_id');
      throw invalidSignature('the signer is not a known principal');
    }
    checkSignature(lock, principal.publicKey, 'the Lock Request');

    if (seen.request.has(requestId))
      throw new HttpError(409, 'DUPLICATE_ID', 'this request_id was seen before');
    if (on('op-issue-duplicate-race')) await sleep(80); // "database round trip"

    const balance = principal.balances.get(assetKey(asset));
    if (on('op-failed-issue-keeps-lock')) {
      // Lock first, validate afterwards (and forget to unlock on failure).
      if (balance.available < amount)
        throw new HttpError(422, 'INSUFFICIENT_BALANCE', 'available balance too low');
      balance.available -= amount;
      balance.locked += amount;
    }

    // Expiry range, measured from the request's created_at, with under a second of tolerance
    // at both edges; created_at may not lie ahead of our clock, expires_at must still be ahead.
    const t = now();
    const ahead = expires.ns - created.ns;
    const min = nsFromSeconds(POLICY.min_expiry_seconds);
    const max = nsFromSeconds(POLICY.max_expiry_seconds);
    const margin = on('op-expiry-min-safety-margin') ? 60n * SECOND_NS + EDGE_TOLERANCE_NS : 0n;
    const longEnough = ahead > min - EDGE_TOLERANCE_NS + margin;
    const shortEnough = on('op-expiry-max-exclusive') ? ahead < max : ahead < max + EDGE_TOLERANCE_NS;
    if (!longEnough || !shortEnough || created.ns > t + CREATED_AT_LEEWAY_NS || expires.ns <= t)
      throw new HttpError(422, 'EXPIRY_INVALID', 'expires_at is outside the permitted range');

    const maxAmount = BigInt(POLICY.max_amount);
    let exceeds = amount > maxAmount;
    if (on('op-max-amount-float')) exceeds = Number(lock.amount) > Number(POLICY.max_amount);
    if (on('op-max-amount-exclusive')) exceeds = amount >= maxAmount;
    if (exceeds) throw new HttpError(422, 'AMOUNT_EXCEEDS_LIMIT', 'amount exceeds the Operator maximum');

    if (!on('op-failed-issue-keeps-lock')) {
      const short = on('op-balance-equal-refused') ? balance.available <= amount : balance.available < amount;
      if (short) throw new HttpError(422, 'INSUFFICIENT_BALANCE', 'available balance too low');
      balance.available -= amount;
      balance.locked += amount;
    }
    seen.request.add(requestId);

    const packId = randomUUID();
    const expiresText = on('op-offset-echoed') ? lock.expires_at : toZulu(expires);
    const initialPk = b64urlEncode(bearerPk);
    const packAsset = structuredClone(lock.asset); // as the Principal signed it
    const d0 = sha256Hex(
      canonicalBytes({
        pack_id: packId,
        amount: lock.amount,
        asset: packAsset,
        expires_at: expiresText,
        initial_bearer_pk: initialPk,
      }),
    );
    const pack = {
      pack_id: packId,
      principalId,
      amount: lock.amount,
      amountValue: amount,
      asset: packAsset,
      balanceKey: assetKey(asset),
      issued_at: formatNs(t),
      expires_at: expiresText,
      expiresNs: expires.ns,
      current_bearer_pk: initialPk,
      chain_digest: d0,
      renewal_chain: [],
      status: 'ACTIVE',
    };
    packs.set(packId, pack);
    return { status: 201, body: cashPackOf(pack) };
  }

  // -------------------------------------------------------------------------
  // Shared by renew and redeem: the submitted cash-pack and the pack's state.

  function readSubmission(body, memberName) {
    const { cashpack } = body;
    const message = body[memberName];
    if (!isObject(cashpack)) throw badRequest('cashpack must be an object');
    if (!isObject(message)) throw badRequest(`${memberName} must be an object`);
    needString(cashpack, 'pack_id', 'cashpack');
    return { cashpack, message };
  }

  function checkCashPackSignature(cashpack) {
    checkSignature(cashpack, opKey.publicKey, 'the cash-pack');
    if (cashpack.kid !== kid) throw invalidSignature('the cash-pack names an unknown key');
  }

  function lookupPack(packId) {
    const p = packs.get(packId);
    if (!p) throw new HttpError(404, 'PACK_UNKNOWN', 'no such cash-pack');
    return p;
  }

  /** The state a renewal or redemption is checked against. */
  function referenceState(p, cashpack) {
    if (on('op-stale-cashpack-trusted')) {
      return {
        current_bearer_pk: cashpack.current_bearer_pk,
        chain_digest: cashpack.chain_digest,
        status: p.status,
      };
    }
    return p;
  }

  // -------------------------------------------------------------------------
  // POST /v1/cashpack/renew

  async function renew(ctx) {
    const body = await ctx.json();
    if (!on('op-lazy-expiry-status-only')) sweep();
    const { cashpack, message: entry } = readSubmission(body, 'renewal_entry');
    const where = 'renewal_entry';
    if (on('op-renew-missing-signature-400') && !hasOwn(entry, 'signature'))
      throw badRequest('renewal_entry.signature is required');
    const renewalId = needUuid(entry, 'renewal_id', where);
    const packId = needString(entry, 'pack_id', where);
    const prev = needDigest(entry, 'prev_chain_digest', where);
    const bearerRaw = needPublicKey(entry, 'bearer_pk', where);
    needPublicKey(entry, 'new_bearer_pk', where);
    needTime(entry, 'created_at', where);
    if (cashpack.pack_id !== packId) throw badRequest('renewal_entry.pack_id differs from the cash-pack');

    checkSignature(entry, ed25519FromRaw(bearerRaw), 'the renewal entry');
    checkCashPackSignature(cashpack);
    const p = lookupPack(packId);
    const ref = referenceState(p, cashpack);
    if (entry.bearer_pk !== ref.current_bearer_pk)
      throw new HttpError(403, 'BEARER_MISMATCH', 'the submitting key is not the current bearer');
    if (ref.status !== 'ACTIVE')
      throw new HttpError(409, 'INSTRUMENT_NOT_ACTIVE', `the cash-pack is ${p.status}`);
    const renewalKey = on('op-renewal-id-per-pack') ? `${packId}/${renewalId}` : renewalId;
    if (seen.renewal.has(renewalKey))
      throw new HttpError(409, 'DUPLICATE_ID', 'this renewal_id was seen before');
    if (prev !== ref.chain_digest)
      throw new HttpError(409, 'CHAIN_DIGEST_MISMATCH', 'prev_chain_digest is not the current chain digest');
    const depthLimit = on('op-chain-depth-off-by-one') ? POLICY.max_chain_depth - 1 : POLICY.max_chain_depth;
    if (p.renewal_chain.length >= depthLimit)
      throw new HttpError(422, 'CHAIN_DEPTH_EXCEEDED', 'the renewal chain is at its maximum depth');
    if (on('op-renew-race')) await sleep(80); // "optimistic" write

    seen.renewal.add(renewalKey);
    const prevBytes = on('op-chain-digest-raw-bytes')
      ? Buffer.from(p.chain_digest, 'hex')
      : Buffer.from(p.chain_digest, 'utf8');
    p.chain_digest = sha256Hex(Buffer.concat([prevBytes, canonicalBytes(entry)]));
    p.renewal_chain = [...p.renewal_chain, entry];
    p.current_bearer_pk = entry.new_bearer_pk;
    if (on('op-renew-restamps-issued-at')) p.issued_at = formatNs(now());
    return { status: 200, body: cashPackOf(p) };
  }

  // -------------------------------------------------------------------------
  // POST /v1/cashpack/redeem

  async function redeem(ctx) {
    const body = await ctx.json();
    if (!on('op-lazy-expiry-status-only')) sweep();
    const { cashpack, message: rr } = readSubmission(body, 'redemption_request');
    const where = 'redemption_request';
    const redemptionId = needUuid(rr, 'redemption_id', where);
    const packId = needString(rr, 'pack_id', where);
    const prev = needDigest(rr, 'prev_chain_digest', where);
    const bearerRaw = needPublicKey(rr, 'bearer_pk', where);
    needTime(rr, 'created_at', where);
    const dest = rr.destination;
    if (
      !isObject(dest) ||
      dest.type !== 'account' ||
      typeof dest.reference !== 'string' ||
      dest.reference === ''
    )
      throw badRequest('redemption_request.destination must be {type: "account", reference}');
    if (hasOwn(rr, 'redeemer')) {
      if (!isObject(rr.redeemer)) throw badRequest('redemption_request.redeemer must be an object');
      if (hasOwn(rr.redeemer, 'identity_token') && typeof rr.redeemer.identity_token !== 'string')
        throw badRequest('redemption_request.redeemer.identity_token must be a string');
    } else if (on('op-redeemer-missing-400')) throw badRequest('redemption_request.redeemer is required');
    if (cashpack.pack_id !== packId)
      throw badRequest('redemption_request.pack_id differs from the cash-pack');

    checkSignature(rr, ed25519FromRaw(bearerRaw), 'the redemption request');
    checkCashPackSignature(cashpack);
    const p = lookupPack(packId);
    const ref = referenceState(p, cashpack);
    if (rr.bearer_pk !== ref.current_bearer_pk)
      throw new HttpError(403, 'BEARER_MISMATCH', 'the submitting key is not the current bearer');
    if (ref.status !== 'ACTIVE')
      throw new HttpError(409, 'INSTRUMENT_NOT_ACTIVE', `the cash-pack is ${p.status}`);
    if (seen.redemption.has(redemptionId))
      throw new HttpError(409, 'DUPLICATE_ID', 'this redemption_id was seen before');
    if (prev !== ref.chain_digest)
      throw new HttpError(409, 'CHAIN_DIGEST_MISMATCH', 'prev_chain_digest is not the current chain digest');
    const level = identityTokens.get(rr.redeemer?.identity_token);
    const identified = on('op-identity-level-unchecked')
      ? level !== undefined
      : level !== undefined && level >= POLICY.required_identity_level;
    if (!identified)
      throw new HttpError(
        403,
        'REDEEMER_NOT_IDENTIFIED',
        'the redeemer is not identified to the required level',
      );
    if (on('op-redeem-race')) await sleep(80); // "payout instruction" before the state write

    seen.redemption.add(redemptionId);
    p.status = 'REDEEMED';
    const b = balanceOf(p);
    b.locked -= p.amountValue;
    if (on('op-redeem-refunds-principal')) b.available += p.amountValue;
    payouts.set(dest.reference, (payouts.get(dest.reference) ?? 0n) + p.amountValue);
    const confirmation = signObject({
      redemption_id: redemptionId,
      pack_id: packId,
      amount: p.amount,
      asset: p.asset,
      redeemed_at: formatNs(now()),
      status: 'REDEEMED',
      kid,
    });
    return { status: 200, body: confirmation };
  }

  // -------------------------------------------------------------------------
  // GET /v1/cashpack/{pack_id}/status

  async function status(ctx) {
    sweep();
    const header = ctx.req.headers.authorization ?? '';
    const m = /^Bearer[ ]+([^\s]+)[ ]*$/i.exec(header);
    let caller = null;
    if (m) for (const [cred, who] of credentials) if (safeEqual(cred, m[1])) caller = who;
    const packId = percentDecode(ctx.params[0]) ?? '';
    if (!caller) {
      if (on('op-status-outsider-404') && !packs.has(packId))
        throw new HttpError(404, 'PACK_UNKNOWN', 'no such cash-pack');
      throw new HttpError(403, 'FORBIDDEN', 'a valid status credential is required');
    }
    const p = lookupPack(packId);
    if (caller.kind === 'principal' && caller.principalId !== p.principalId && !on('op-status-any-principal'))
      throw new HttpError(403, 'FORBIDDEN', 'this cash-pack belongs to another principal');
    return { status: 200, body: { pack_id: p.pack_id, status: p.status } };
  }

  // -------------------------------------------------------------------------
  // Harness

  function harnessPack(body) {
    if (typeof body.pack_id !== 'string') throw badRequest('pack_id must be a string');
    return lookupPack(body.pack_id);
  }

  async function harnessExpire(ctx) {
    const body = await ctx.json();
    sweep();
    const p = harnessPack(body);
    if (p.status !== 'ACTIVE')
      throw new HttpError(409, 'INSTRUMENT_NOT_ACTIVE', `the cash-pack is ${p.status}`);
    expirePack(p, { refund: !on('op-harness-expire-no-refund') });
    return { status: 200, body: { pack_id: p.pack_id, status: p.status } };
  }

  async function harnessCancel(ctx) {
    const body = await ctx.json();
    sweep();
    const p = harnessPack(body);
    if (p.status !== 'ACTIVE')
      throw new HttpError(409, 'INSTRUMENT_NOT_ACTIVE', `the cash-pack is ${p.status}`);
    cancelPack(p);
    return { status: 200, body: { pack_id: p.pack_id, status: p.status } };
  }

  async function harnessClock(ctx) {
    const body = await ctx.json();
    const n = body.advance_seconds;
    if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > 100 * 365 * 86400)
      throw badRequest('advance_seconds must be a non-negative number of seconds');
    clock.advance(n);
    return { status: 200, body: { now: formatNs(clock.nowNs(), 3) } };
  }

  async function harnessBalance(ctx) {
    const body = await ctx.json();
    sweep();
    const principal = typeof body.principal_id === 'string' ? principals.get(body.principal_id) : undefined;
    if (!principal) throw badRequest('unknown principal_id');
    // "<amount>" (profile 4): an amount string of profile 1, so 1 .. 2^256 - 1; "0" is 400.
    let value = parseAmount(body.available_balance);
    if (on('op-balance-parseint') && value === null) {
      const n = Number.parseInt(String(body.available_balance), 10);
      value = Number.isNaN(n) || n < 0 ? null : BigInt(n);
    }
    if (value === null) throw badRequest('available_balance must be an amount string (1 .. 2^256-1)');
    principal.balances.get(assetKey(POLICY.assets[0])).available = value;
    return {
      status: 200,
      body: { principal_id: principal.principalId, available_balance: amountText(value) },
    };
  }

  // -------------------------------------------------------------------------
  // Servers

  const policyDocument = on('op-policy-max-amount-number')
    ? { ...POLICY, max_amount: Number(POLICY.max_amount) }
    : POLICY;
  const serve = (body) => async () => ({ status: 200, body });
  const unmatched = on('op-undefined-request-empty-body')
    ? ({ req, path }) => {
        if (!path.startsWith('/v1/cashpack/')) return null;
        return { status: req.method === 'GET' ? 404 : 405, body: undefined };
      }
    : null;
  const api = await startServer({
    tls,
    name: 'operator',
    unmatched,
    routes: [
      { method: 'POST', path: /^\/v1\/cashpack\/issue$/, handler: issue },
      { method: 'POST', path: /^\/v1\/cashpack\/renew$/, handler: renew },
      { method: 'POST', path: /^\/v1\/cashpack\/redeem$/, handler: redeem },
      { method: 'GET', path: /^\/v1\/cashpack\/([^/]+)\/status$/, handler: status },
      { method: 'GET', path: /^\/\.well-known\/cashpack-policy\.json$/, handler: serve(policyDocument) },
      { method: 'GET', path: /^\/\.well-known\/cashpack-pubkey\.json$/, handler: serve(publicJwk) },
    ],
  });
  const harness = await startServer({
    tls,
    name: 'operator-harness',
    routes: [
      { method: 'POST', path: /^\/harness\/expire$/, handler: harnessExpire },
      { method: 'POST', path: /^\/harness\/cancel$/, handler: harnessCancel },
      { method: 'POST', path: /^\/harness\/clock$/, handler: harnessClock },
      { method: 'POST', path: /^\/harness\/balance$/, handler: harnessBalance },
    ],
  });

  return {
    baseUrl: api.origin,
    harnessUrl: `${harness.origin}/harness`,
    principals: { funded, low_balance: lowBalance },
    redeemerIdentityTokens: { sufficient: sufficientToken, insufficient: insufficientToken },
    operatorStatusCredential: operatorCredential,
    close: () => Promise.all([api.close(), harness.close()]).then(() => undefined),
  };
}
