/**
 * The reference cash-pack Operator: spec CP (cashpack-api-1.0) with the wire details of profile
 * section 4. Every spec step is a protected method, so that a subclass overriding exactly one
 * of them yields exactly one fault (the deliberately broken variants of `test/broken/`).
 *
 * The Operator decides from its own stored state ({@link OperatorStore}), never from the copy of
 * a cash-pack a client submits; the copy only has to carry the Operator's valid signature.
 * @packageDocumentation
 */
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { initialChainDigest, nextChainDigest } from '../../crypto/chain-digest.js';
import {
  type Ed25519PrivateJwk,
  type Ed25519PublicJwk,
  jwkThumbprint,
  publicKeyFromJwk,
  signObject,
  verifyObject,
} from '../../crypto/ed25519.js';
import { OperatorError } from './errors.js';
import { MessageParser, parseRfc3339 } from './parse.js';
import {
  type Account,
  assetKey,
  type IdKind,
  type OperatorStore,
  type PackRecord,
  type StoreState,
} from './store.js';
import type {
  AssetDescriptor,
  CashPack,
  LockRequest,
  PackStatus,
  Policy,
  RedemptionConfirmation,
  RedemptionRequest,
  RenewalEntry,
} from './types.js';

/** A principal as the Operator knows it: its verification key and status credential. */
export interface KnownPrincipal {
  /** base64url of the raw 32-byte Ed25519 public key that signs its Lock Requests. */
  publicKey: string;
  /** The secret it presents as `Authorization: Bearer ...` on the status endpoint. */
  statusCredential: string;
}

/** Everything an Operator instance needs; built by `startReferenceOperator`. */
export interface OperatorDeps {
  /** The policy it enforces and publishes. */
  policy: Policy;
  /** Its Ed25519 signing key (secret). */
  signingKey: Ed25519PrivateJwk;
  /** principal_id -> key and credential. */
  principals: ReadonlyMap<string, KnownPrincipal>;
  /** Redeemer identity token -> verified identity level (spec CP 5 rule 4). */
  identityTokens: ReadonlyMap<string, number>;
  /** The Operator's own status credential. */
  operatorCredential: string;
  /** The time source (tests may move it); the harness test clock adds its advance to it. */
  clock: () => Date;
  /** The ledger and instrument store. */
  store: OperatorStore;
}

/** An HTTP-independent response: the status and the JSON body. */
export interface OperatorResponse {
  status: number;
  body: unknown;
}

/** The scheme of profile 4's `Authorization: Bearer {credential}`, lower case, with its space. */
const BEARER = 'bearer ';

/** Who is calling the status endpoint. */
export type StatusCaller = { kind: 'operator' } | { kind: 'principal'; principal_id: string };

const TERMINAL: ReadonlySet<PackStatus> = new Set(['REDEEMED', 'EXPIRED', 'CANCELLED']);

/** Profile 4 body members of renew and redeem (also named in their error messages). */
const RENEWAL_ENTRY = 'renewal_entry';
const REDEMPTION_REQUEST = 'redemption_request';

/** Compares two secrets in constant time (over their SHA-256, so lengths may differ). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** Profile 1: timestamps an implementation emits are RFC 3339 with `Z`. */
function utc(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The reference Operator. Endpoint methods (`issue`, `renew`, `redeem`, `status`, `expire`,
 * `cancel`, `policyDocument`, `publicKeyDocument`) return an {@link OperatorResponse} or throw an
 * {@link OperatorError}; the HTTP server maps both onto the wire.
 *
 * @example
 * ```ts
 * class NoAmountLimit extends ReferenceOperator {
 *   protected override checkAmountLimit(): void {} // broken on purpose: AMOUNT_EXCEEDS_LIMIT never fires
 * }
 * await startReferenceOperator({ tls, operatorClass: NoAmountLimit });
 * ```
 */
export class ReferenceOperator {
  /** The dependencies this instance was built with. */
  protected readonly deps: OperatorDeps;
  /** RFC 7638 thumbprint of the signing key: the `kid` of every Operator-signed object. */
  readonly kid: string;
  /** The public signing key as published at `/.well-known/cashpack-pubkey.json`. */
  readonly publicJwk: Required<Ed25519PublicJwk>;
  /** The request-body checks (profile 1 and 4 shapes). */
  protected readonly parser: MessageParser;
  /**
   * How far the harness test clock has moved now forward, in ms (profile 4 optional test clock):
   * only ever grows.
   */
  protected clockOffsetMs = 0;

  constructor(deps: OperatorDeps) {
    this.deps = deps;
    this.parser = this.createParser();
    const x = publicKeyFromJwk(deps.signingKey);
    this.kid = jwkThumbprint(x);
    this.publicJwk = { kty: 'OKP', crv: 'Ed25519', x, kid: this.kid, alg: 'EdDSA', use: 'sig' };
  }

  /** The store (for ledger audits). */
  get store(): OperatorStore {
    return this.deps.store;
  }

  /** The parser of request bodies (a broken Operator may inject a weakened one). */
  protected createParser(): MessageParser {
    return new MessageParser();
  }

  /**
   * Current time in epoch milliseconds: the injected clock plus every advance of the harness test
   * clock. Every expiry decision reads it.
   */
  protected now(): number {
    return this.deps.clock().getTime() + this.clockOffsetMs;
  }

  /** Releases what the instance holds (timers of a subclass); called when its server closes. */
  dispose(): void {}

  // ---------------------------------------------------------------- endpoints

  /**
   * Spec CP 4 `POST /v1/cashpack/issue`: takes a Lock Request, locks the principal's funds and
   * returns 201 with the signed cash-pack (profile 4: ACTIVE, empty renewal_chain, chain_digest d0).
   */
  async issue(body: unknown): Promise<OperatorResponse> {
    // Profile 4: the issue body is a LockRequest.
    const request = this.parser.lockRequest(body);
    const now = this.now();
    // Spec CP 5 rule 1: the Lock Request is signed by the Principal.
    this.verifyPrincipalSignature(request);
    // Profile 4: the asset is one the policy offers.
    this.checkAssetOffered(request.asset);
    // Spec CP 8: Operator's configured maximum amount (AMOUNT_EXCEEDS_LIMIT).
    this.checkAmountLimit(request.amount);
    // Spec CP 8: Operator's permitted expiry range (EXPIRY_INVALID).
    const expiresAtMs = this.checkExpiryRange(request.expires_at, now);
    // Profile 4: expiry returns funds from the instant expires_at passes, sweep or not.
    await this.settleExpiredOf(request.principal_id, now);
    // Spec CP 1 item 2: the Principal's funds are locked (with the replay and balance checks).
    const record = await this.commitIssue(request, expiresAtMs, now);
    return { status: 201, body: this.signPack(record) };
  }

  /**
   * Spec CP 4 `POST /v1/cashpack/renew`: takes `{cashpack, renewal_entry}`, replaces
   * current_bearer_pk (spec CP 1 item 5) and returns 200 with the updated signed cash-pack.
   */
  async renew(body: unknown): Promise<OperatorResponse> {
    // Profile 4: renew body {cashpack, renewal_entry}.
    const envelope = this.parser.envelope(body);
    const entry = this.parser.renewalEntry(envelope, RENEWAL_ENTRY);
    const copy = this.parser.submittedPack(envelope);
    // Spec CP 4: the entry renews the cash-pack submitted with it.
    this.checkSamePack(entry, copy, RENEWAL_ENTRY);
    // Spec CP 5 rule 1: the submitted cash-pack carries the Operator's signature.
    const submitted = this.verifyPackCopy(copy);
    // Spec CP 5 rule 1: the Renewal Entry is signed by the submitting key.
    this.verifyBearerSignature(entry, RENEWAL_ENTRY);
    const now = this.now();
    // Spec CP 3: a pack past expires_at is EXPIRED on any access.
    await this.settleExpiry(entry.pack_id, now);
    const record = await this.commitRenewal(entry, submitted, now);
    return { status: 200, body: this.signPack(record) };
  }

  /**
   * Spec CP 4 `POST /v1/cashpack/redeem`: takes `{cashpack, redemption_request}`, releases the
   * funds (spec CP 3 REDEEMED) and returns 200 with the signed Redemption Confirmation.
   */
  async redeem(body: unknown): Promise<OperatorResponse> {
    // Profile 4: redeem body {cashpack, redemption_request}.
    const envelope = this.parser.envelope(body);
    const request = this.parser.redemptionRequest(envelope, REDEMPTION_REQUEST);
    const copy = this.parser.submittedPack(envelope);
    // Spec CP 4: the request redeems the cash-pack submitted with it.
    this.checkSamePack(request, copy, REDEMPTION_REQUEST);
    // Spec CP 5 rule 1: the submitted cash-pack carries the Operator's signature.
    const submitted = this.verifyPackCopy(copy);
    // Spec CP 5 rule 1: the Redemption Request is signed by the bearer key.
    this.verifyBearerSignature(request, REDEMPTION_REQUEST);
    // Spec CP 5 rule 4: the redeemer is verified to the required identity level.
    this.checkRedeemer(request.redeemer);
    const now = this.now();
    // Spec CP 3: a pack past expires_at is EXPIRED on any access.
    await this.settleExpiry(request.pack_id, now);
    const confirmation = await this.commitRedemption(request, submitted, now);
    return { status: 200, body: confirmation };
  }

  /**
   * Spec CP 4 `GET /v1/cashpack/{pack_id}/status`, restricted to the issuing Principal and the
   * Operator (spec CP 5 rule 3; profile 4: `Authorization: Bearer {credential}`).
   */
  async status(packId: string, authorization: string | undefined): Promise<OperatorResponse> {
    const caller = this.identifyCaller(authorization);
    await this.settleExpiry(packId, this.now());
    const record = this.deps.store.getPack(packId);
    if (record === undefined) {
      // Profile 4: unknown pack -> 404 PACK_UNKNOWN, but only to an authenticated caller.
      if (caller === undefined) throw this.forbidden();
      throw new OperatorError('PACK_UNKNOWN', `no cash-pack with pack_id ${JSON.stringify(packId)}`);
    }
    this.checkStatusAccess(record, caller);
    return { status: 200, body: { pack_id: record.pack_id, status: record.status } };
  }

  /** Profile 4 harness `POST {harness}/expire {pack_id}`: ACTIVE -> EXPIRED, funds returned. */
  async expire(body: unknown): Promise<OperatorResponse> {
    return this.harnessTransition(body, 'EXPIRED');
  }

  /** Profile 4 harness `POST {harness}/cancel {pack_id}`: ACTIVE -> CANCELLED, funds held. */
  async cancel(body: unknown): Promise<OperatorResponse> {
    return this.harnessTransition(body, 'CANCELLED');
  }

  /**
   * Profile 4 optional harness test clock `POST {harness}/clock {"advance_seconds": N}`: moves
   * this Operator's now forward by N seconds for every expiry decision (never back) and answers
   * 200 `{now}` in RFC 3339 with `Z`.
   */
  async advanceClock(body: unknown): Promise<OperatorResponse> {
    const seconds = this.parser.clockAdvance(body);
    this.clockOffsetMs += seconds * 1000;
    return { status: 200, body: { now: utc(this.now()) } };
  }

  /**
   * Profile 4 optional harness capability `POST {harness}/balance {principal_id,
   * available_balance}`: sets that principal's available balance in the policy's first asset
   * (locked and held funds unchanged) and answers 200 `{principal_id, available_balance}`; an
   * unknown principal or a malformed amount is 400 INVALID_REQUEST.
   */
  async setBalance(body: unknown): Promise<OperatorResponse> {
    const { principal_id, available_balance } = this.parser.balanceBody(body);
    this.checkBalancePrincipal(principal_id);
    const asset = this.assetKeyOf(this.deps.policy.assets[0] as AssetDescriptor);
    const account = await this.deps.store.commit({
      check: () => {},
      apply: (state) => {
        const byAsset = state.accounts.get(principal_id) ?? new Map<string, Account>();
        state.accounts.set(principal_id, byAsset);
        const held = byAsset.get(asset) ?? { available: 0n, locked: 0n, redeemedOut: 0n };
        this.applyBalance(held, available_balance);
        byAsset.set(asset, held);
        return { ...held };
      },
    });
    return { status: 200, body: { principal_id, available_balance: account.available.toString() } };
  }

  /** Profile 4 harness balance: only a principal this Operator knows has a balance to set. */
  protected checkBalancePrincipal(principalId: string): void {
    if (!this.deps.principals.has(principalId))
      throw new OperatorError('INVALID_REQUEST', '"principal_id" names no principal of this operator');
  }

  /** Profile 4 harness balance: the available funds become `figure`; locked and held funds stay. */
  protected applyBalance(account: Account, figure: bigint): void {
    account.available = figure;
  }

  /** Spec CP 4 well-known `/.well-known/cashpack-policy.json` (profile 4 shape). */
  policyDocument(): OperatorResponse {
    return { status: 200, body: this.deps.policy };
  }

  /** Spec CP 4, 9 rule 3: `/.well-known/cashpack-pubkey.json`, the current key as a JWK. */
  publicKeyDocument(): OperatorResponse {
    return { status: 200, body: this.publicJwk };
  }

  private async harnessTransition(body: unknown, to: 'EXPIRED' | 'CANCELLED'): Promise<OperatorResponse> {
    const packId = this.parser.packIdBody(body);
    await this.settleExpiry(packId, this.now());
    const record = await this.commitTerminal(packId, to);
    return { status: 200, body: { pack_id: record.pack_id, status: record.status } };
  }

  // ---------------------------------------------------------------- spec steps (checks)

  /** Spec CP 5 rule 1: the Lock Request's signature verifies with the named Principal's key. */
  protected verifyPrincipalSignature(request: LockRequest): void {
    const principal = this.deps.principals.get(request.principal_id);
    if (principal === undefined) {
      throw new OperatorError(
        'INVALID_SIGNATURE',
        'the signer is unknown: "principal_id" names no principal',
      );
    }
    if (!verifyObject(request, principal.publicKey)) {
      throw new OperatorError(
        'INVALID_SIGNATURE',
        'the lock request "signature" does not verify with the principal\'s key',
      );
    }
  }

  /**
   * The reference's choice: the requested asset must be one of the policy's assets
   * (INVALID_REQUEST). The profile names no code for another asset; without this step it is
   * INSUFFICIENT_BALANCE (the Principal holds nothing in it), a permitted variant.
   */
  // Stryker disable next-line BlockStatement: which code refuses an asset outside the policy is free (profile 4 names none; variant operator-variant-asset-refused-as-balance)
  protected checkAssetOffered(asset: AssetDescriptor): void {
    const key = this.assetKeyOf(asset);
    // Stryker disable next-line ConditionalExpression,MethodExpression,BlockStatement: as above (INSUFFICIENT_BALANCE then refuses it); every() equals some() on the one-asset reference policy
    if (!this.deps.policy.assets.some((a) => this.assetKeyOf(a) === key)) {
      throw new OperatorError(
        'INVALID_REQUEST',
        '"asset" is not one of the assets in the operator policy (/.well-known/cashpack-policy.json)',
      );
    }
  }

  /** Spec CP 7 AMOUNT_EXCEEDS_LIMIT: the amount exceeds the configured maximum. */
  protected checkAmountLimit(amount: string): void {
    if (BigInt(amount) > BigInt(this.deps.policy.max_amount)) {
      throw new OperatorError(
        'AMOUNT_EXCEEDS_LIMIT',
        `"amount" exceeds the operator's maximum of ${this.deps.policy.max_amount}`,
      );
    }
  }

  /**
   * Spec CP 7 EXPIRY_INVALID: expires_at - now must lie within [min_expiry_seconds,
   * max_expiry_seconds] of the policy. Returns expires_at in epoch milliseconds.
   */
  protected checkExpiryRange(expiresAt: string, now: number): number {
    const ms = parseRfc3339(expiresAt) as number;
    const seconds = (ms - now) / 1000;
    const { min_expiry_seconds: min, max_expiry_seconds: max } = this.deps.policy;
    // Stryker disable next-line EqualityOperator: now runs on in ms, so an expiry exactly at a bound cannot be hit from outside (profile 4: a suite allows seconds of skew at the edges)
    if (seconds < min || seconds > max) {
      throw new OperatorError(
        'EXPIRY_INVALID',
        `"expires_at" must be between ${min} and ${max} seconds from now`,
      );
    }
    return ms;
  }

  /** Spec CP 2, 8 and profile 1: request_id, renewal_id and redemption_id are single use. */
  protected checkDuplicateId(state: StoreState, kind: IdKind, id: string): void {
    if (state.seenIds[kind].has(id.toLowerCase())) {
      throw new OperatorError('DUPLICATE_ID', `"${kind}" was seen before (replay is rejected)`);
    }
  }

  /** Spec CP 7 INSUFFICIENT_BALANCE: available balance below the requested amount. */
  protected checkBalance(
    state: StoreState,
    principalId: string,
    asset: AssetDescriptor,
    amount: string,
  ): void {
    // Stryker disable next-line OptionalChaining: unreachable from outside: every principal has an account in the one asset the reference policy offers (another asset is refused before)
    const available = this.accountOf(state, principalId, asset)?.available ?? 0n;
    if (available < BigInt(amount)) {
      throw new OperatorError('INSUFFICIENT_BALANCE', 'the principal\'s available balance is below "amount"');
    }
  }

  /**
   * Spec CP 5 rule 1: the submitted cash-pack copy must carry a valid Operator signature
   * (INVALID_SIGNATURE otherwise). Returns the copy, which is still never trusted for decisions.
   */
  protected verifyPackCopy(copy: Record<string, unknown>): CashPack {
    if (!verifyObject(copy, this.publicJwk)) {
      throw new OperatorError(
        'INVALID_SIGNATURE',
        'the submitted "cashpack" does not carry a valid operator signature (was it altered?)',
      );
    }
    return copy as unknown as CashPack;
  }

  /** Spec CP 5 rule 1: a renewal entry or redemption request is signed by its `bearer_pk`. */
  protected verifyBearerSignature(message: RenewalEntry | RedemptionRequest, member: string): void {
    if (!verifyObject(message, message.bearer_pk)) {
      throw new OperatorError(
        'INVALID_SIGNATURE',
        `"${member}.signature" does not verify with its "bearer_pk"`,
      );
    }
  }

  /**
   * Spec CP 4: renew and redeem take one cash-pack and a message about it; a message naming
   * another pack than the submitted copy is INVALID_REQUEST (it renews or redeems neither).
   */
  protected checkSamePack(
    message: RenewalEntry | RedemptionRequest,
    copy: { pack_id: string },
    member: string,
  ) {
    if (message.pack_id !== copy.pack_id) {
      throw new OperatorError('INVALID_REQUEST', `"${member}.pack_id" must equal "cashpack.pack_id"`);
    }
  }

  /** The stored record of a pack (PACK_UNKNOWN when the Operator never issued it). */
  protected storedPack(state: StoreState, packId: string): PackRecord {
    const record = state.packs.get(packId);
    if (record === undefined) {
      throw new OperatorError('PACK_UNKNOWN', `no cash-pack with pack_id ${JSON.stringify(packId)}`);
    }
    return record;
  }

  /**
   * What the Operator decides from: its stored record. The submitted copy is deliberately
   * ignored (a stale or edited copy must not change the outcome).
   */
  protected packForDecision(stored: PackRecord, _submitted: CashPack): PackRecord {
    return stored;
  }

  /**
   * Spec CP 3 and profile 4: a pack is EXPIRED from the instant its expires_at passes (at
   * expires_at itself it is no longer ACTIVE). The one place that compares a pack with now.
   */
  protected hasExpired(pack: PackRecord, now: number): boolean {
    // Stryker disable next-line EqualityOperator: now runs on in ms, so the instant expires_at itself cannot be hit from outside (profile 4: a suite allows seconds of skew)
    return now >= pack.expiresAtMs;
  }

  /**
   * Spec CP 7 INSTRUMENT_NOT_ACTIVE: status is REDEEMED, EXPIRED or CANCELLED. A pack past its
   * expires_at is EXPIRED by then: every access settles expiry first ({@link settleExpiry}) at the
   * same `now`, which a subclass may use.
   */
  protected checkActive(pack: PackRecord, _now: number): void {
    if (TERMINAL.has(pack.status)) {
      throw new OperatorError('INSTRUMENT_NOT_ACTIVE', `the cash-pack is ${pack.status}`);
    }
  }

  /** Spec CP 5 rule 2: the submitting key must match the stored current_bearer_pk (BEARER_MISMATCH). */
  protected verifyBearer(pack: PackRecord, bearerPk: string): void {
    if (pack.current_bearer_pk !== bearerPk) {
      throw new OperatorError('BEARER_MISMATCH', '"bearer_pk" is not the current bearer of the cash-pack');
    }
  }

  /** Spec CP 7 CHAIN_DIGEST_MISMATCH: prev_chain_digest must equal the stored current chain_digest. */
  protected checkChainDigest(pack: PackRecord, prevChainDigest: string): void {
    if (pack.chain_digest !== prevChainDigest) {
      throw new OperatorError(
        'CHAIN_DIGEST_MISMATCH',
        '"prev_chain_digest" differs from the cash-pack\'s current chain_digest (stale copy?)',
      );
    }
  }

  /** Spec CP 7 CHAIN_DEPTH_EXCEEDED: renewal_chain has reached max_chain_depth. */
  protected checkDepth(pack: PackRecord): void {
    if (pack.renewal_chain.length >= this.deps.policy.max_chain_depth) {
      throw new OperatorError(
        'CHAIN_DEPTH_EXCEEDED',
        `"renewal_chain" has reached the operator's maximum depth of ${this.deps.policy.max_chain_depth}`,
      );
    }
  }

  /** Spec CP 5 rule 4 and profile 4: a known identity token at or above required_identity_level. */
  protected checkRedeemer(redeemer: RedemptionRequest['redeemer']): void {
    if (redeemer === undefined) {
      throw new OperatorError('REDEEMER_NOT_IDENTIFIED', 'the redemption request has no "redeemer"');
    }
    const level = this.deps.identityTokens.get(redeemer.identity_token);
    if (level === undefined || level < this.deps.policy.required_identity_level) {
      throw new OperatorError(
        'REDEEMER_NOT_IDENTIFIED',
        `"redeemer.identity_token" is not verified to identity level ${this.deps.policy.required_identity_level}`,
      );
    }
  }

  /** Profile 4: maps `Authorization: Bearer {credential}` to a caller, or `undefined`. */
  protected identifyCaller(authorization: string | undefined): StatusCaller | undefined {
    // the scheme name is case-insensitive (RFC 9110 11.1); profile 4 fixes the rest: one space,
    // then the credential
    if (authorization === undefined) return undefined;
    // Stryker disable next-line ConditionalExpression: how leniently a header of another form is read is free (profile 4 fixes what a caller sends); a missing header is refused above
    if (authorization.slice(0, BEARER.length).toLowerCase() !== BEARER) return undefined;
    const credential = authorization.slice(BEARER.length);
    if (sameSecret(credential, this.deps.operatorCredential)) return { kind: 'operator' };
    for (const [principal_id, p] of this.deps.principals) {
      // Stryker disable next-line StringLiteral: equivalent: checkStatusAccess reads only whether the caller is the Operator
      if (sameSecret(credential, p.statusCredential)) return { kind: 'principal', principal_id };
    }
    return undefined;
  }

  /** Spec CP 5 rule 3: only the issuing Principal and the Operator may read the status (FORBIDDEN). */
  protected checkStatusAccess(pack: PackRecord, caller: StatusCaller | undefined): void {
    if (caller === undefined) throw this.forbidden();
    if (caller.kind === 'operator') return;
    if (caller.principal_id !== pack.principal_id) {
      throw new OperatorError(
        'FORBIDDEN',
        'the status of a cash-pack is visible only to its issuing principal',
      );
    }
  }

  private forbidden(): OperatorError {
    return new OperatorError(
      'FORBIDDEN',
      'the status endpoint needs "Authorization: Bearer <credential>" of the issuing principal or the operator',
    );
  }

  // ---------------------------------------------------------------- spec steps (commits)

  /**
   * Profile 1 and 4: the expires_at the cash-pack carries, the requested instant written with
   * `Z` (a request already in upper-case `Z` form is kept verbatim).
   */
  protected emittedExpiry(requested: string, expiresAtMs: number): string {
    // Stryker disable next-line Regex: either Z form of the same instant is allowed (profile 1 and 4: "emits Z"; variant operator-variant-expiry-own-form); the anchors are redundant on RFC 3339 text
    return /^[^tz]+T[^z]+Z$/.test(requested) ? requested : utc(expiresAtMs);
  }

  /**
   * Spec CP 1 item 2: locks the Principal's funds (available -> locked) and records the new
   * ACTIVE pack, after re-checking request_id replay and balance in the same transaction.
   */
  protected commitIssue(
    request: LockRequest,
    expiresAtMs: number,
    now: number,
  ): Promise<PackRecord> | PackRecord {
    const amount = BigInt(request.amount);
    return this.deps.store.commit({
      check: (state) => {
        this.checkDuplicateId(state, 'request_id', request.request_id);
        this.checkBalance(state, request.principal_id, request.asset, request.amount);
      },
      apply: (state) => {
        const account = this.heldAccount(state, request.principal_id, request.asset);
        account.available -= amount;
        // Stryker disable next-line AssignmentOperator: the locked bucket is bookkeeping no answer reads (ledger audits of the vitest tests)
        account.locked += amount;
        state.seenIds.request_id.add(request.request_id.toLowerCase());
        const pack_id = randomUUID();
        const expires_at = this.emittedExpiry(request.expires_at, expiresAtMs);
        const record: PackRecord = {
          pack_id,
          principal_id: request.principal_id,
          amount: request.amount,
          asset: request.asset,
          issued_at: utc(now),
          expires_at,
          expiresAtMs,
          initial_bearer_pk: request.initial_bearer_pk,
          current_bearer_pk: request.initial_bearer_pk,
          // Profile 4: d0 = SHA-256(JCS({pack_id, amount, asset, expires_at, initial_bearer_pk})).
          chain_digest: initialChainDigest({
            pack_id,
            amount: request.amount,
            asset: request.asset,
            expires_at,
            initial_bearer_pk: request.initial_bearer_pk,
          }),
          renewal_chain: [],
          status: 'ACTIVE',
        };
        state.packs.set(pack_id, record);
        return { ...record };
      },
    });
  }

  /**
   * The stored-state conditions of a renewal, in the order this Operator tests them (profile 4:
   * the order is free): replay, status, chain digest, bearer, depth.
   */
  protected renewalChecks(state: StoreState, pack: PackRecord, entry: RenewalEntry, now: number): void {
    this.checkDuplicateId(state, 'renewal_id', entry.renewal_id);
    this.checkActive(pack, now);
    // A stale copy shows first as a chain digest mismatch (the loser of a race learns why).
    this.checkChainDigest(pack, entry.prev_chain_digest);
    this.verifyBearer(pack, entry.bearer_pk);
    this.checkDepth(pack);
  }

  /**
   * The stored-state conditions of a redemption, in the order this Operator tests them (profile
   * 4: the order is free, so an exact replay of a successful redemption answers DUPLICATE_ID here).
   */
  protected redemptionChecks(
    state: StoreState,
    pack: PackRecord,
    request: RedemptionRequest,
    now: number,
  ): void {
    this.checkDuplicateId(state, 'redemption_id', request.redemption_id);
    this.checkActive(pack, now);
    this.checkChainDigest(pack, request.prev_chain_digest);
    this.verifyBearer(pack, request.bearer_pk);
  }

  /**
   * Spec CP 1 item 5: appends the entry, advances the chain digest (profile 4: dN) and hands the
   * bearer rights to new_bearer_pk, after the replay, status, bearer, digest and depth checks on
   * the stored state in the same transaction.
   */
  protected commitRenewal(
    entry: RenewalEntry,
    submitted: CashPack,
    now: number,
  ): Promise<PackRecord> | PackRecord {
    return this.deps.store.commit({
      check: (state) => {
        const pack = this.packForDecision(this.storedPack(state, entry.pack_id), submitted);
        this.renewalChecks(state, pack, entry, now);
      },
      apply: (state) => {
        const record = this.storedPack(state, entry.pack_id);
        state.seenIds.renewal_id.add(entry.renewal_id.toLowerCase());
        record.renewal_chain = [...record.renewal_chain, entry];
        record.chain_digest = nextChainDigest(record.chain_digest, entry);
        record.current_bearer_pk = entry.new_bearer_pk;
        return { ...record };
      },
    });
  }

  /**
   * Spec CP 3 REDEEMED ("funds released"): moves the pack to REDEEMED and the funds from locked
   * to redeemed-out, after the replay, status, bearer and digest checks in the same transaction.
   */
  protected commitRedemption(
    request: RedemptionRequest,
    submitted: CashPack,
    now: number,
  ): Promise<RedemptionConfirmation> | RedemptionConfirmation {
    return this.deps.store.commit({
      check: (state) => {
        const pack = this.packForDecision(this.storedPack(state, request.pack_id), submitted);
        this.redemptionChecks(state, pack, request, now);
      },
      apply: (state) => {
        const record = this.storedPack(state, request.pack_id);
        state.seenIds.redemption_id.add(request.redemption_id.toLowerCase());
        record.status = 'REDEEMED';
        this.moveFunds(state, record, 'locked', 'redeemedOut');
        // Profile 4: RedemptionConfirmation, signed by the Operator with kid.
        return signObject(
          {
            redemption_id: request.redemption_id,
            pack_id: record.pack_id,
            amount: record.amount,
            asset: record.asset,
            redeemed_at: utc(now),
            status: 'REDEEMED' as const,
          },
          this.deps.signingKey,
          { kid: this.kid },
        );
      },
    });
  }

  /**
   * Profile 4 harness: ACTIVE -> EXPIRED (funds locked -> available, spec CP 3 "funds returned")
   * or ACTIVE -> CANCELLED (funds stay locked, spec CP 3 "held pending instruction");
   * INSTRUMENT_NOT_ACTIVE for a terminal pack.
   */
  protected commitTerminal(packId: string, to: 'EXPIRED' | 'CANCELLED'): Promise<PackRecord> | PackRecord {
    return this.deps.store.commit({
      check: (state) => {
        this.checkActive(this.storedPack(state, packId), Number.NEGATIVE_INFINITY);
      },
      apply: (state) => {
        const record = this.storedPack(state, packId);
        record.status = to;
        if (to === 'EXPIRED') this.moveFunds(state, record, 'locked', 'available');
        return { ...record };
      },
    });
  }

  /**
   * Spec CP 3 EXPIRED: a pack still ACTIVE at or after its expires_at becomes EXPIRED when it is
   * next accessed, and its funds return to the Principal (locked -> available).
   */
  protected async settleExpiry(packId: string, now: number): Promise<void> {
    await this.deps.store.commit({
      check: () => {},
      apply: (state) => {
        // Read inside the transaction: only a still-ACTIVE pack expires, so funds return once.
        const record = state.packs.get(packId);
        if (record !== undefined) this.expireIfDue(state, record, now);
      },
    });
  }

  /**
   * Profile 4 money: before a Principal's balance is read (issue), every pack of theirs whose
   * expires_at has passed is EXPIRED and its funds are back, whether or not it was accessed. The
   * reference settles every due pack (other Principals' too: they are EXPIRED by then anyway).
   */
  protected async settleExpiredOf(_principalId: string, now: number): Promise<void> {
    await this.deps.store.commit({
      check: () => {},
      apply: (state) => {
        for (const record of state.packs.values()) this.expireIfDue(state, record, now);
      },
    });
  }

  /** Inside a transaction: ACTIVE and past expires_at -> EXPIRED, funds locked -> available. */
  protected expireIfDue(state: StoreState, record: PackRecord, now: number): void {
    if (record.status !== 'ACTIVE' || !this.hasExpired(record, now)) return;
    record.status = 'EXPIRED';
    this.moveFunds(state, record, 'locked', 'available');
  }

  /** Moves a pack's amount between two buckets of its issuing Principal's account. */
  protected moveFunds(
    state: StoreState,
    record: PackRecord,
    from: 'locked' | 'available',
    to: 'available' | 'redeemedOut' | 'locked',
  ): void {
    const account = this.heldAccount(state, record.principal_id, record.asset);
    const amount = BigInt(record.amount);
    // Stryker disable next-line AssignmentOperator: `from` is the locked bucket, bookkeeping no answer reads (ledger audits of the vitest tests)
    account[from] -= amount;
    account[to] += amount;
  }

  /**
   * The key that matches an asset against the policy and the accounts (type, code, chain_id):
   * one place, so that a subclass changes asset matching everywhere at once.
   */
  protected assetKeyOf(asset: AssetDescriptor): string {
    return assetKey(asset);
  }

  /** A Principal's account in an asset, or `undefined` when it holds nothing in that asset. */
  protected accountOf(state: StoreState, principalId: string, asset: AssetDescriptor): Account | undefined {
    // Stryker disable next-line OptionalChaining: every principal the Operator knows has its accounts opened at start
    return state.accounts.get(principalId)?.get(this.assetKeyOf(asset));
  }

  /** The account a checked issue or an issued pack draws on (a ledger invariant that it exists). */
  private heldAccount(state: StoreState, principalId: string, asset: AssetDescriptor): Account {
    const account = this.accountOf(state, principalId, asset);
    // Stryker disable next-line ConditionalExpression,StringLiteral: unreachable from outside: the balance check before (issue) and the issue itself (redeem, expiry) guarantee the account
    if (account === undefined) throw new Error(`ledger invariant broken: no account of ${principalId}`);
    return account;
  }

  /** Profile 4 CashPack from the stored record, signed by the Operator with kid. */
  protected signPack(record: PackRecord): CashPack {
    return signObject(
      {
        cashpack_version: 'CP-1.0' as const,
        pack_id: record.pack_id,
        amount: record.amount,
        asset: record.asset,
        issued_at: record.issued_at,
        expires_at: record.expires_at,
        current_bearer_pk: record.current_bearer_pk,
        chain_digest: record.chain_digest,
        renewal_chain: record.renewal_chain,
        status: record.status,
      },
      this.deps.signingKey,
      { kid: this.kid },
    );
  }
}
