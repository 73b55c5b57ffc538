/**
 * Shared helpers of the Operator suite (Cash-Pack API 1.0 with profile section 4): the run's
 * test identities, the well-known policy and key (read once per run), builders of signed
 * messages, an independent recomputation of the chain digest, and small scenario steps.
 *
 * Every exchange goes through the Operator driver of the run (`operator()`), so it is recorded
 * as evidence of the check that runs it. Nothing here prints a secret.
 * @packageDocumentation
 */
import { createHash, randomUUID } from 'node:crypto';
import canonicalizeLib from 'canonicalize';
import {
  type Ed25519KeyPair,
  type Ed25519PublicJwk,
  generateEd25519KeyPair,
  signObject,
  verifyObject,
} from '../../../src/crypto/ed25519.js';
import type { CashPack } from '../../../src/generated/cashpack/cashpack.js';
import type { LockRequest } from '../../../src/generated/cashpack/lock-request.js';
import type { Policy } from '../../../src/generated/cashpack/policy.js';
import type { RedemptionRequest } from '../../../src/generated/cashpack/redemption-request.js';
import type { RenewalEntry } from '../../../src/generated/cashpack/renewal-entry.js';
import type { RunConfig } from '../../../src/generated/tool/run-config.js';
import { isObject } from '../../../src/model/util.js';
import { signedRedemptionRequest, signedRenewalEntry } from '../../../src/testing/cashpack-messages.js';
import { parseRfc3339 } from '../../../src/validator/rfc3339.js';
import { validateMessage } from '../../../src/validator/validate-message.js';
import {
  type AnyResult,
  assertThat,
  context,
  expectOk,
  maxWaitMs,
  note,
  type OperatorDriver,
  type OperatorResult,
  onCheckEnd,
  operator,
  perRun,
  skip,
  waitRealTime,
} from '../../_lib/index.js';

export type { CashPack, LockRequest, Policy, RedemptionRequest, RenewalEntry };

/** The `operator` section of the run config (test identities; secrets). */
export type OperatorConfig = NonNullable<RunConfig['operator']>;

/** Which configured principal signs a Lock Request (profile section 5). */
export type PrincipalName = 'funded' | 'low_balance';

/** What every Operator check needs: the driver, the config section, the policy and the key. */
export interface OperatorSetup {
  op: OperatorDriver;
  config: OperatorConfig;
  policy: Policy;
  /** The published key (spec CP 4, 9 rule 3), as served. */
  jwk: Ed25519PublicJwk & { kid: string };
}

let cachedWellKnown: { policy: Policy; jwk: Ed25519PublicJwk & { kid: string } } | undefined;
perRun(() => {
  cachedWellKnown = undefined;
});

/** True for a non-null, non-array object (the shared helper of src/model). */
export { isObject };

/** Schema findings of `doc` as one line each (`/path: message`), empty when valid. */
export function schemaProblems(kind: string, doc: unknown): string[] {
  return validateMessage(kind, doc).findings.map((f) => `${f.path || '/'}: ${f.message}`);
}

/** True when the policy members the checks rely on are usable (the full shape is a check of its own). */
function usablePolicy(policy: unknown): policy is Policy {
  if (!isObject(policy)) return false;
  const integer = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
  return (
    typeof policy.max_amount === 'string' &&
    /^[1-9][0-9]*$/.test(policy.max_amount) &&
    integer(policy.min_expiry_seconds) &&
    integer(policy.max_expiry_seconds) &&
    integer(policy.max_chain_depth) &&
    Array.isArray(policy.assets) &&
    isObject(policy.assets[0])
  );
}

/**
 * The driver, config, policy and key of the run. The driver expires every pack a check issues
 * when the check ends (with a harness: {@link releasingPacks}). The policy and key are read once per run
 * (only a usable pair is kept); a check that depends on them is skipped, with the reason, when
 * they are unusable (the well-known checks report that defect themselves).
 */
export async function setup(): Promise<OperatorSetup> {
  const op = operator();
  const config = context().config.operator ?? skip('no operator is configured (the "operator" section)');
  if (cachedWellKnown === undefined) {
    const policyResult = await op.policy();
    const keyResult = await op.publicKey();
    const policy = policyResult.body;
    const jwk = keyResult.body;
    if (!policyResult.ok || !usablePolicy(policy)) {
      skip(
        'the Operator policy (/.well-known/cashpack-policy.json) lacks usable limits or assets; see PRF-4-POLICY-SHAPE',
      );
    }
    if (!keyResult.ok || !isObject(jwk) || jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') {
      skip(
        'the Operator public key (/.well-known/cashpack-pubkey.json) is unusable; see CP-4-WELL-KNOWN-PUBKEY',
      );
    }
    cachedWellKnown = {
      policy: policy as Policy,
      jwk: jwk as unknown as Ed25519PublicJwk & { kid: string },
    };
  }
  const s: OperatorSetup = { op: releasingPacks(op), config, ...cachedWellKnown };
  // Once per run, before any timestamp is written: an earlier run may have moved the Operator's
  // test clock forward (it never moves back), so the suite learns the Operator's now instead of
  // assuming real time (an advance of 0: nothing moves). An answer that is no clock is reported by
  // the clock checks, not here.
  await testClock(s).catch(() => undefined);
  return s;
}

/**
 * The Operator driver as the checks use it: with a harness, every pack it issues (an issue, or an
 * issue racer) is expired through the harness when the check ends, unless the check ended it
 * through this driver first (a redemption, a harness expiry or cancellation answered 2xx). So a
 * run leaves no pack of the suite's locking a Principal's funds until its expires_at (an hour by
 * default), whichever way a check issued it: a later run against the same Operator finds the
 * funds back. A pack that became terminal meanwhile answers 409, which is ignored (a failing
 * cleanup never changes a check's result). Without a harness the driver is returned as it is.
 */
function releasingPacks(op: OperatorDriver): OperatorDriver {
  const h = op.harness;
  if (h === undefined) return op;
  const open = new Set<string>();
  const packIdOf = (value: unknown): unknown => (isObject(value) ? value.pack_id : undefined);
  const issued = (r: OperatorResult): void => {
    const id = r.ok ? packIdOf(r.body) : undefined;
    if (typeof id !== 'string' || open.has(id)) return;
    open.add(id);
    onCheckEnd(async () => {
      if (open.delete(id)) await h.expire(id);
    });
  };
  const ended = (id: unknown, r: OperatorResult): OperatorResult => {
    if (r.ok && typeof id === 'string') open.delete(id);
    return r;
  };
  const harness = new Proxy(h, {
    get(target, prop) {
      if (prop === 'expire' || prop === 'cancel')
        return async (id: string) => ended(id, await target[prop](id));
      const v: unknown = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return new Proxy(op, {
    get(target, prop) {
      switch (prop) {
        case 'harness':
          return harness;
        case 'issue':
          return async (lockRequest: unknown) => {
            const r = await target.issue(lockRequest);
            issued(r);
            return r;
          };
        case 'redeem':
          return async (cashpack: unknown, request: unknown) =>
            ended(packIdOf(cashpack), await target.redeem(cashpack, request));
        case 'race': {
          const race = target.race?.bind(target);
          if (race === undefined) return undefined;
          return async (calls: Parameters<typeof race>[0]) => {
            const outcome = await race(calls);
            outcome.results.forEach((r, i) => {
              const call = calls[i];
              if (call?.op === 'issue') issued(r);
              else if (call?.op === 'redeem') ended(packIdOf(call.cashpack), r);
            });
            return outcome;
          };
        }
        default: {
          const v: unknown = Reflect.get(target, prop);
          return typeof v === 'function' ? v.bind(target) : v;
        }
      }
    },
  });
}

/**
 * The harness of the Operator driver, or a skip naming the missing configuration and `need`,
 * what the check uses it for.
 */
export function harness(
  s: OperatorSetup,
  need = 'EXPIRED and CANCELLED cannot be reached',
): NonNullable<OperatorDriver['harness']> {
  return s.op.harness ?? skip(`the operator harness is not configured (operator.harness_url): ${need}`);
}

/** A fresh Ed25519 key pair (a disposable bearer key, spec CP 1 item 7). */
export function newKey(): Ed25519KeyPair {
  return generateEd25519KeyPair();
}

/** RFC 3339 with `Z`, whole seconds (profile 1). */
export function utcSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * A lifetime (seconds) inside the policy's expiry range, at least 60 s from either bound when
 * the range allows (AMB-32: clock skew must not decide a check): one hour when that fits.
 */
export function validLifetime(policy: Policy): number {
  const min = policy.min_expiry_seconds;
  const max = policy.max_expiry_seconds;
  if (max - min <= 120) return Math.floor((min + max) / 2);
  return Math.min(Math.max(3600, min + 60), max - 60);
}

/** The amount the suite issues by default: 100 smallest units, or max_amount if smaller. */
export function smallAmount(policy: Policy): string {
  return BigInt(policy.max_amount) < 100n ? policy.max_amount : '100';
}

/** Options of {@link lockRequest}. */
export interface LockOptions {
  principal?: PrincipalName;
  bearer?: Ed25519KeyPair;
  amount?: string;
  /** expires_at - now in seconds (default {@link validLifetime}). */
  lifetimeSeconds?: number;
  /** Members to change before signing. */
  overrides?: Partial<LockRequest>;
}

/** Profile 4 LockRequest signed by a configured principal's key, with a fresh request_id. */
export function lockRequest(
  s: OperatorSetup,
  options: LockOptions = {},
): { request: LockRequest; bearer: Ed25519KeyPair } {
  const principal = s.config.principals[options.principal ?? 'funded'];
  const bearer = options.bearer ?? newKey();
  const now = operatorNow();
  const unsigned = {
    request_id: randomUUID(),
    principal_id: principal.principal_id,
    amount: options.amount ?? smallAmount(s.policy),
    asset: s.policy.assets[0] as LockRequest['asset'],
    initial_bearer_pk: bearer.publicKey,
    expires_at: utcSeconds(now + (options.lifetimeSeconds ?? validLifetime(s.policy)) * 1000),
    created_at: utcSeconds(now),
    ...options.overrides,
  };
  return {
    request: signObject(
      unsigned,
      principal.private_key_jwk as Parameters<typeof signObject>[1],
    ) as LockRequest,
    bearer,
  };
}

/** Profile 4 RenewalEntry for the current copy `pack`, signed by `signer`, handing it to `next`. */
export function renewalEntry(
  pack: CashPack,
  signer: Ed25519KeyPair,
  next: Ed25519KeyPair,
  overrides: Partial<RenewalEntry> = {},
): RenewalEntry {
  return signedRenewalEntry(pack, signer, next, utcSeconds(operatorNow()), overrides);
}

/** Which redeemer identity a redemption carries. */
export type RedeemerChoice = 'sufficient' | 'insufficient' | 'none';

/** Profile 4 RedemptionRequest for the current copy `pack`, signed by `signer`. */
export function redemptionRequest(
  s: OperatorSetup,
  pack: CashPack,
  signer: Ed25519KeyPair,
  redeemer: RedeemerChoice = 'sufficient',
  overrides: Partial<RedemptionRequest> = {},
): RedemptionRequest {
  const tokens = s.config.redeemer_identity_tokens;
  return signedRedemptionRequest(
    pack,
    signer,
    {
      identityToken: redeemer === 'none' ? undefined : tokens[redeemer],
      destinationReference: 'cprc-suite-destination',
      createdAt: utcSeconds(operatorNow()),
    },
    overrides,
  );
}

/** An issued pack with the keys and request that made it. */
export interface Issued {
  pack: CashPack;
  bearer: Ed25519KeyPair;
  request: LockRequest;
}

/**
 * Issues a pack (spec CP 4 issue) and asserts success; returns the signed cash-pack. With a
 * harness, the pack is expired when the check ends, as every pack the suite issues is (see
 * {@link setup}).
 */
export async function issue(s: OperatorSetup, options: LockOptions = {}): Promise<Issued> {
  const { request, bearer } = lockRequest(s, options);
  const r = await s.op.issue(request);
  const pack = expectOk(r, 'issue of a valid Lock Request') as CashPack;
  assertThat(isObject(pack), 'the issue answer is a cash-pack object');
  return { pack, bearer, request };
}

/** A renewal that succeeded: the updated pack and the new bearer key. */
export interface Renewed {
  pack: CashPack;
  bearer: Ed25519KeyPair;
  entry: RenewalEntry;
}

/** Renews `pack` from `bearer` to a fresh key (spec CP 4 renew) and asserts success. */
export async function renew(s: OperatorSetup, pack: CashPack, bearer: Ed25519KeyPair): Promise<Renewed> {
  const next = newKey();
  const entry = renewalEntry(pack, bearer, next);
  const updated = expectOk(await s.op.renew(pack, entry), 'renewal by the current bearer') as CashPack;
  assertThat(isObject(updated), 'the renew answer is a cash-pack object');
  return { pack: updated, bearer: next, entry };
}

/**
 * Profile 4 chain digest, recomputed here independently of the implementations' code:
 * d0 = SHA-256(JCS({pack_id, amount, asset, expires_at, initial_bearer_pk})),
 * dN = SHA-256(ASCII of hex d(N-1) || JCS(renewal entry N, signature included)); lowercase hex.
 * Returns every digest d0..dN.
 */
export function chainDigests(
  pack: { pack_id: unknown; amount: unknown; asset: unknown; expires_at: unknown; renewal_chain: unknown },
  initialBearerPk: string,
): string[] {
  const jcs = (value: unknown): Buffer => {
    const text = canonicalizeLib(value);
    if (typeof text !== 'string') throw new Error('a value of the cash-pack cannot be canonicalized (JCS)');
    return Buffer.from(text, 'utf8');
  };
  const { pack_id, amount, asset, expires_at } = pack;
  const digests = [
    createHash('sha256')
      .update(jcs({ pack_id, amount, asset, expires_at, initial_bearer_pk: initialBearerPk }))
      .digest('hex'),
  ];
  const chain = Array.isArray(pack.renewal_chain) ? pack.renewal_chain : [];
  for (const entry of chain) {
    const prev = digests[digests.length - 1] as string;
    digests.push(createHash('sha256').update(Buffer.from(prev, 'ascii')).update(jcs(entry)).digest('hex'));
  }
  return digests;
}

/**
 * Asserts an Operator-signed object (cash-pack, confirmation) carries the published key's kid
 * and a signature that verifies with it (profile 4; spec CP 9 rule 3; AMB-35).
 */
export function assertOperatorSigned(s: OperatorSetup, obj: unknown, what: string): void {
  assertThat(isObject(obj), `${what} is a JSON object`);
  assertThat(
    obj.kid === s.jwk.kid,
    `${what} carries "kid" ${JSON.stringify(s.jwk.kid)} of the published key (got ${JSON.stringify(obj.kid)})`,
  );
  assertThat(
    verifyObject(obj, { kty: 'OKP', crv: 'Ed25519', x: s.jwk.x }),
    `${what}: "signature" verifies with the published Operator key over the JCS bytes of the object without "signature"`,
  );
}

/** Asserts a message validates against its profile schema, listing the findings. */
export function assertSchema(kind: string, doc: unknown, what: string): void {
  const problems = schemaProblems(kind, doc);
  assertThat(
    problems.length === 0,
    `${what} has the profile section 4 shape (${kind}): ${problems.join('; ')}`,
  );
}

/**
 * PROFILE: asserts the HTTP status of an error answer and the profile 1 error body
 * (`{"error": {"code", "message"}}`). Skips when the driver reports no status.
 */
export function expectProfileError(result: AnyResult, status: number, what = 'the answer'): void {
  const r = result as OperatorResult;
  const actual = r.status ?? r.error?.status;
  if (actual === undefined)
    skip('the driver reports no HTTP status (custom binding); PROFILE check not applicable');
  assertThat(
    actual === status,
    `${what}: expected HTTP ${status}, got HTTP ${actual}${r.error?.code ? ` (code ${r.error.code})` : ''}`,
  );
  const problems = schemaProblems('cashpack/error-body', r.body);
  assertThat(
    problems.length === 0,
    `${what}: the error body is {"error": {"code", "message"}}: ${problems.join('; ')}`,
  );
}

/** Flips one character of a base64url signature so it no longer verifies (still well-formed). */
export function corruptSignature(signature: string): string {
  const i = Math.floor(signature.length / 2);
  const c = signature[i] === 'A' ? 'B' : 'A';
  return `${signature.slice(0, i)}${c}${signature.slice(i + 1)}`;
}

/** Shifts an RFC 3339 `Z` timestamp by `seconds`, keeping the whole-second form. */
export function shiftTime(timestamp: string, seconds: number): string {
  return utcSeconds(Date.parse(timestamp) + seconds * 1000);
}

/** A 64-digit lowercase hex digest that is not `digest`. */
export function otherDigest(digest: string): string {
  return createHash('sha256').update(`cprc-suite:${digest}`).digest('hex');
}

/** The status the issuing principal reads for `packId` (asserts success). */
export async function statusOf(
  s: OperatorSetup,
  packId: string,
  principal: PrincipalName = 'funded',
): Promise<unknown> {
  const body = expectOk(
    await s.op.status(packId, s.config.principals[principal].status_credential),
    'status read by the issuing principal',
  );
  return isObject(body) ? body.status : undefined;
}

// ------------------------------------------------------------------ time: the Operator's now

/**
 * The Operator's now minus the suite's, in ms: 0 until the optional test clock is used, then
 * what its last answer said. Every timestamp the suite writes is relative to the Operator's now,
 * so a clock advanced by one check does not make the next check's expiries look past.
 */
let operatorOffsetMs = 0;
perRun(() => {
  operatorOffsetMs = 0;
});

/** The Operator's now as the suite knows it (epoch ms). */
export function operatorNow(): number {
  return Date.now() + operatorOffsetMs;
}

/**
 * `ms` written as RFC 3339 with a numeric offset of `offsetMinutes` (whole seconds), the same
 * instant: `withOffset(Date.UTC(2026, 0, 1, 0), 14 * 60)` is `2026-01-01T14:00:00+14:00`.
 */
export function withOffset(ms: number, offsetMinutes: number): string {
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offsetMinutes * 60_000).toISOString().slice(0, 19);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${wall}${sign}${hh}:${mm}`;
}

/** Margin past the next whole second of {@link intoLaterSecond}: the clocks' sub-second skew. */
const LATER_SECOND_MARGIN_MS = 150;

/**
 * Waits in real time (recorded as the check's wait) until the clock is past the whole second that
 * followed `answeredAt` (epoch ms of an answer), by a margin: whatever the Operator stamps from
 * then on carries a later second than anything it stamped before. A renewal that re-stamps
 * `issued_at` or `expires_at` with its own time writes the same text within the second of the
 * issue (timestamps carry whole seconds), so only a later second shows it. A test clock moves by
 * whole seconds, so the second's phase is the wall clock's whatever it was advanced by. At most
 * 1.15 s; with a lower `--max-wait` it does not wait and notes what that leaves unseen.
 */
export async function intoLaterSecond(answeredAt: number): Promise<void> {
  const wait = Math.floor(answeredAt / 1000) * 1000 + 1000 + LATER_SECOND_MARGIN_MS - Date.now();
  if (wait <= 0) return;
  if (wait > maxWaitMs()) {
    note(
      `did not wait ${Math.round(wait)} ms for a later second (above the maximum wait): a time stamp rewritten within the same second is not seen`,
    );
    return;
  }
  await waitRealTime(wait);
}

/** Epoch ms of an RFC 3339 text, or `undefined` (the suite's own reader). */
export function instantOf(text: unknown): number | undefined {
  if (typeof text !== 'string') return undefined;
  return parseRfc3339(text)?.epochMs;
}

/** The optional test clock of the Operator harness, as probed once per run. */
export type TestClock =
  | {
      present: true;
      /** Advances the clock, asserting the profile answer; returns the Operator's new now (ms). */
      advance(seconds: number): Promise<number>;
      /** Takes `now` (ms), an answer of the clock, as the Operator's now from here on. */
      follow(now: number): void;
    }
  | {
      present: false;
      reason: string;
      /** The probe's answer when it was no profile answer, and the advance it asked. */
      answer?: OperatorResult;
      asked?: number;
    };

let clockProbe: Promise<TestClock> | undefined;
perRun(() => {
  clockProbe = undefined;
});

/**
 * Advances the Operator's test clock by `seconds` and returns its new now (epoch ms), asserting
 * the profile answer: 200 `{now}` in RFC 3339 with `Z`, at least the previous now plus `seconds`.
 */
async function advanceBy(
  h: NonNullable<OperatorDriver['harness']>,
  seconds: number,
  previous: number,
): Promise<number> {
  const advance = h.advanceClock?.bind(h) ?? skip('the operator driver has no test clock');
  const r = await advance(seconds);
  expectOk(r, `POST {harness}/clock {"advance_seconds": ${seconds}}`);
  assertThat(r.status === undefined || r.status === 200, `the test clock answers 200 (got HTTP ${r.status})`);
  assertSchema('harness/clock-response', r.body, 'the test clock answer');
  const now = instantOf((r.body as { now?: unknown }).now) as number;
  assertThat(
    now >= previous + seconds * 1000 - 1000,
    `the test clock moved now forward by at least ${seconds} s (from ${new Date(previous).toISOString()} to ${new Date(now).toISOString()})`,
  );
  operatorOffsetMs = now - Date.now();
  return now;
}

/**
 * The Operator's optional test clock (profile: `POST {harness}/clock`), probed once per run (per
 * process of a `--jobs` run) with an advance of 0 s: the probe learns the Operator's now without
 * moving it. A probe that moved the clock would leave every other process of a `--jobs` run a
 * second behind per process that probed after it (their timestamps written against a stale now:
 * an expiry 5 s inside the Operator's range would land outside it), while only the checks that
 * declare `operator:clock` may move it. A refusal of 0 with the error body is probed again with
 * 1 s: a clock that refuses 0 is still a clock (`operator-test-clock-advance-seconds-validated`
 * fails it for that), and a harness without one refuses both. Absent (with the reason) when no
 * harness is configured, the driver has no clock, or the harness answers 404, 405 or 501 there,
 * or any other 4xx with the error body (a path that is no endpoint, profile 1). An answer that is
 * not the profile's makes the probe fail the running check (the clock check reports it; an expiry
 * check would wait).
 */
export async function testClock(s: OperatorSetup): Promise<TestClock> {
  clockProbe ??= (async (): Promise<TestClock> => {
    const h = s.op.harness;
    if (h === undefined)
      return { present: false, reason: 'the operator harness is not configured (operator.harness_url)' };
    if (h.advanceClock === undefined)
      return { present: false, reason: 'the operator driver offers no test clock' };
    const refused = (x: OperatorResult): boolean =>
      !x.ok && x.error?.code !== undefined && x.status !== undefined && x.status >= 400 && x.status < 500;
    let asked = 0;
    let r = await h.advanceClock(asked);
    if (r.absent !== true && refused(r)) {
      asked = 1;
      r = await h.advanceClock(asked);
    }
    if (r.absent === true)
      return {
        present: false,
        reason: `the operator harness has no test clock (POST {harness}/clock answered HTTP ${r.status})`,
      };
    // Without a clock, POST {harness}/clock is a path that is no endpoint: any 4xx with the error
    // body is the Operator's choice (profile 1), 400 INVALID_REQUEST as well as 404. A clock that
    // refused both well-formed advances could not be told from none: either way there is no clock
    // to use, and the expiry checks wait or skip instead.
    if (refused(r))
      return {
        present: false,
        reason: `the operator harness has no test clock (POST {harness}/clock {"advance_seconds": 0} and {"advance_seconds": 1} answered HTTP ${r.status} ${r.error?.code}: a harness without the clock may answer a path that is no endpoint so, profile 1)`,
      };
    const now = instantOf(isObject(r.body) ? r.body.now : undefined);
    if (!r.ok || now === undefined || (r.status !== undefined && r.status !== 200)) {
      return {
        present: false,
        reason: 'the operator harness clock did not answer 200 {now}',
        answer: r,
        asked,
      };
    }
    operatorOffsetMs = now - Date.now();
    let last = now;
    return {
      present: true,
      advance: async (seconds: number) => {
        last = await advanceBy(h, seconds, Math.max(last, operatorNow() - 1000));
        return last;
      },
      follow: (now: number) => {
        operatorOffsetMs = now - Date.now();
        last = now;
      },
    };
  })();
  return clockProbe;
}

export { maxWaitMs };

// ------------------------------------------------------------------ money: the low-balance principal

/**
 * What the suite knows of the low-balance principal's available balance this run (profile 4 and
 * 5: the configured `available_balance` is only what it held when the configuration was written;
 * every run spends some of it for good, a redemption and a cancellation, so the suite never
 * trusts it after an earlier run):
 * - `set`: the harness offers `POST {harness}/balance`; every check that needs the balance sets
 *   it to the configured figure first, and puts it back when it spent some;
 * - `measured`: no balance capability; measured once per run at first need by issues of the
 *   principal, each accepted one expired through the harness at once (expiry returns the funds,
 *   profile 4), so the measurement leaves the balance as it found it;
 * - `configured`: no harness at all (nothing the suite locks can be released early, so the
 *   suite spends none of it for good); the configured figure is all there is;
 * - `none`: not configured: the checks that need it are skipped with that reason.
 */
type LowBalanceSource =
  | { kind: 'set'; configured: bigint; set: (units: bigint) => Promise<OperatorResult> }
  | { kind: 'measured'; configured: bigint; measured: bigint; how: string }
  | { kind: 'configured'; configured: bigint; how: string }
  | { kind: 'none'; reason: string };

/** The probe of `POST {harness}/balance` (profile 4, optional), made once per run. */
export type BalanceCapability =
  | {
      present: true;
      /** Sends `POST {harness}/balance` with the two values as given. */
      set: (principalId: unknown, amount: unknown) => Promise<OperatorResult>;
      /** The probe's answer, and whether it was 200 `{principal_id, available_balance}` echoing the figure. */
      probe: OperatorResult;
      probeOk: boolean;
    }
  | { present: false; reason: string };

let balanceProbe: Promise<BalanceCapability> | undefined;
let lowBalanceSource: Promise<LowBalanceSource> | undefined;
/** Units of the low-balance principal's balance spent for good since its figure was last known. */
let lowBalanceSpent = 0n;
perRun(() => {
  balanceProbe = undefined;
  lowBalanceSource = undefined;
  lowBalanceSpent = 0n;
});

/** True for a 200 answer `{principal_id, available_balance}` echoing what was set. */
function balanceAnswerOk(r: OperatorResult, principalId: string, units: bigint): boolean {
  return (
    r.ok &&
    (r.status === undefined || r.status === 200) &&
    isObject(r.body) &&
    r.body.principal_id === principalId &&
    r.body.available_balance === units.toString()
  );
}

/**
 * The optional balance capability of the Operator harness, probed once per run by setting the
 * low-balance principal's available balance to its configured figure (the state every check that
 * needs it starts from). Absent, with the reason, when no harness is configured, the driver offers
 * no such call, the balance is not configured, or the harness answers 404, 405 or 501 there
 * (profile 4: absence is never a failure). Any other answer makes it present; `probeOk` says
 * whether the answer was the profile's (the capability checks report one that is not).
 */
export async function balanceCapability(s: OperatorSetup): Promise<BalanceCapability> {
  balanceProbe ??= (async (): Promise<BalanceCapability> => {
    const h = s.op.harness;
    if (h === undefined)
      return { present: false, reason: 'the operator harness is not configured (operator.harness_url)' };
    const set = h.setBalance?.bind(h);
    if (set === undefined)
      return {
        present: false,
        reason: 'the operator driver offers no balance call (POST {harness}/balance)',
      };
    const low = s.config.principals.low_balance;
    if (low.available_balance === undefined)
      return {
        present: false,
        reason:
          'operator.principals.low_balance.available_balance is not configured (the figure the balance is set to)',
      };
    const r = await set(low.principal_id, low.available_balance);
    if (r.absent === true)
      return {
        present: false,
        reason: `the operator harness has no balance capability (POST {harness}/balance answered HTTP ${r.status})`,
      };
    return {
      present: true,
      set,
      probe: r,
      probeOk: balanceAnswerOk(r, low.principal_id, BigInt(low.available_balance)),
    };
  })();
  return balanceProbe;
}

/** What an issue of `units` for the low-balance principal told: accepted, refused for the balance, or neither. */
type Probe = 'accepted' | 'insufficient' | { other: string };

/**
 * Measures the low-balance principal's available balance in [0, configured] with issues of the
 * principal: an accepted one is expired through the harness at once (profile 4: expiry returns the
 * funds), so the balance is left as found. One unit more than configured first (refused when the
 * figure still holds; accepted means the principal holds more, or the balance is not enforced:
 * the configured figure is kept, the checks then tell which), then the configured figure, then a
 * bisection. An answer of another kind (another error, an expiry not accepted) ends the
 * measurement: the configured figure is kept, as the checks that grade those answers report them.
 */
async function measureLowBalance(
  s: OperatorSetup,
  h: NonNullable<OperatorDriver['harness']>,
  configured: bigint,
): Promise<LowBalanceSource> {
  let issues = 0;
  const probe = async (units: bigint): Promise<Probe> => {
    issues += 1;
    const r = await s.op.issue(
      lockRequest(s, { principal: 'low_balance', amount: units.toString() }).request,
    );
    const id = isObject(r.body) ? r.body.pack_id : undefined;
    if (r.ok && typeof id === 'string') {
      const e = await h.expire(id);
      return e.ok
        ? 'accepted'
        : { other: `the harness expiry of the ${units}-unit probe pack answered HTTP ${e.status}` };
    }
    if (!r.ok && r.error?.code === 'INSUFFICIENT_BALANCE') return 'insufficient';
    return {
      other: `an issue of ${units} answered HTTP ${r.status}${r.error?.code ? ` ${r.error.code}` : ''}`,
    };
  };
  const kept = (why: string): LowBalanceSource => ({
    kind: 'configured',
    configured,
    how: `the configured figure ${configured} is used: ${why}`,
  });
  const max = BigInt(s.policy.max_amount);
  if (configured > max) return kept(`it exceeds max_amount ${max}, so no single issue can measure it`);
  if (configured + 1n <= max) {
    const above = await probe(configured + 1n);
    if (above === 'accepted')
      return kept(
        `an issue of ${configured + 1n} was accepted (and expired): more than configured, or no balance check`,
      );
    if (above !== 'insufficient') return kept(above.other);
  }
  if (configured === 0n) return { kind: 'measured', configured, measured: 0n, how: `${issues} issue` };
  const whole = await probe(configured);
  if (whole === 'accepted')
    return {
      kind: 'measured',
      configured,
      measured: configured,
      how: `${issues} issues, each accepted one expired at once`,
    };
  if (whole !== 'insufficient') return kept(whole.other);
  // largest accepted amount in [lo, hi): lo accepted (0 trivially), hi refused
  let lo = 0n;
  let hi = configured;
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n;
    const p = await probe(mid);
    if (p === 'accepted') lo = mid;
    else if (p === 'insufficient') hi = mid;
    else return kept(p.other);
  }
  return {
    kind: 'measured',
    configured,
    measured: lo,
    how: `${issues} issues, each accepted one expired at once`,
  };
}

/** How the suite learns the low-balance principal's balance this run (once, at first need). */
function lowBalanceSourceOf(s: OperatorSetup): Promise<LowBalanceSource> {
  lowBalanceSource ??= (async (): Promise<LowBalanceSource> => {
    const configured = s.config.principals.low_balance.available_balance;
    if (configured === undefined)
      return { kind: 'none', reason: 'operator.principals.low_balance.available_balance is not configured' };
    const capability = await balanceCapability(s);
    if (capability.present) {
      const id = s.config.principals.low_balance.principal_id;
      return {
        kind: 'set',
        configured: BigInt(configured),
        set: (units: bigint) => capability.set(id, units.toString()),
      };
    }
    const h = s.op.harness;
    if (h === undefined)
      return {
        kind: 'configured',
        configured: BigInt(configured),
        how: 'no operator harness: the suite releases nothing early and spends none of this balance for good, so the configured figure is used',
      };
    return measureLowBalance(s, h, BigInt(configured));
  })();
  return lowBalanceSource;
}

/** The asset the low-balance principal's balance is held in (the policy's first), for messages. */
function firstAssetText(s: OperatorSetup): string {
  const a = s.policy.assets[0] as { code?: unknown; type?: unknown; chain_id?: unknown };
  return `${String(a.code)} (${String(a.type)}${a.chain_id === undefined ? '' : `, chain ${String(a.chain_id)}`})`;
}

/**
 * The low-balance principal's available balance at the start of the running check, or why it is
 * not known (see {@link lowBalance}).
 */
async function knownLowBalance(
  s: OperatorSetup,
  need: bigint,
): Promise<{ units: bigint } | { skip: string }> {
  const source = await lowBalanceSourceOf(s);
  if (source.kind === 'none') return { skip: source.reason };
  const id = s.config.principals.low_balance.principal_id;
  if (source.kind === 'set') {
    const r = await source.set(source.configured);
    // what the Operator says the principal now holds (the figure, unless the capability is broken:
    // harness-balance-sets-available-only reports that; the other checks go on from its answer)
    const said = r.ok && isObject(r.body) ? r.body.available_balance : undefined;
    if (typeof said !== 'string' || !/^(0|[1-9][0-9]*)$/.test(said))
      return {
        skip: `POST {harness}/balance setting ${id}'s available balance to ${source.configured} did not answer 200 with the balance it holds (HTTP ${r.status}): the balance is unknown (see harness-balance-sets-available-only)`,
      };
    lowBalanceSpent = 0n;
    // registered before the check locks anything: it runs last, once the check's packs are expired
    onCheckEnd(async () => {
      if (lowBalanceSpent > 0n) {
        await source.set(source.configured);
        lowBalanceSpent = 0n;
      }
    });
    const units = BigInt(said);
    if (units < need)
      return {
        skip: `POST {harness}/balance set ${id}'s available balance to ${units}, less than the ${need} this check needs (see harness-balance-sets-available-only)`,
      };
    return { units };
  }
  const start = source.kind === 'measured' ? source.measured : source.configured;
  const left = start - lowBalanceSpent;
  if (source.kind === 'measured')
    note(
      `the low-balance principal's available balance was measured at ${source.measured} at the start of the run (configured ${source.configured}; ${source.how})${lowBalanceSpent > 0n ? `, ${lowBalanceSpent} spent since` : ''}`,
    );
  else note(source.how);
  if (left >= need) return { units: left };
  const target = source.configured > need ? source.configured : need;
  const asset = firstAssetText(s);
  const why =
    source.kind === 'measured' && lowBalanceSpent === 0n
      ? `measured at the start of the run, configured ${source.configured}: earlier runs used the rest up`
      : `configured ${source.configured}, ${lowBalanceSpent} spent by earlier checks of this run`;
  return {
    skip: `the low-balance principal ${id} holds ${left} units of ${asset}, less than the ${need} this check needs (${why}): top up ${id} by ${target - left} units of ${asset} to restore ${target}, or offer POST {harness}/balance (profile 4)`,
  };
}

/**
 * The low-balance principal's available balance at the start of the running check. With the
 * balance capability it is set to the configured figure now (and put back when the check ends, if
 * the check spent some); otherwise it is the figure measured at the start of the run (or the
 * configured one, without a harness) minus what this run has spent for good. Skips the check when
 * the balance is not configured, or when less than `need` units are left, naming the principal,
 * the asset and the amount to top up.
 */
export async function lowBalance(s: OperatorSetup, need = 1n): Promise<bigint> {
  const known = await knownLowBalance(s, need);
  if ('skip' in known) skip(known.skip);
  return known.units;
}

/** {@link lowBalance} for a check that also works without it: `undefined` where that would skip. */
export async function lowBalanceIfKnown(s: OperatorSetup): Promise<bigint | undefined> {
  const known = await knownLowBalance(s, 1n);
  return 'units' in known ? known.units : undefined;
}

/**
 * Records `units` of the low-balance principal's balance as spent for good (redeemed: released to
 * a redeemer; cancelled: held, returned to no one; profile 4) and says so in the check's report:
 * with the balance capability the figure is put back when the check ends, without it the units
 * are gone from the target until someone tops the principal up.
 */
export async function spendLowBalance(s: OperatorSetup, units: bigint, how: string): Promise<void> {
  lowBalanceSpent += units;
  const source = await lowBalanceSourceOf(s);
  const id = s.config.principals.low_balance.principal_id;
  note(
    source.kind === 'set'
      ? `${how}: ${units} unit of ${id} spent, put back through POST {harness}/balance when the check ends`
      : `${how}: ${units} unit of ${id} spent for good (${firstAssetText(s)}): without POST {harness}/balance it does not come back`,
  );
}

// ------------------------------------------------------------------ error codes

/** Profile section 1: the HTTP status of each Operator error code. */
export const PROFILE_ERROR_STATUS: Readonly<Record<string, number>> = {
  INVALID_REQUEST: 400,
  INVALID_SIGNATURE: 401,
  BEARER_MISMATCH: 403,
  REDEEMER_NOT_IDENTIFIED: 403,
  FORBIDDEN: 403,
  PACK_UNKNOWN: 404,
  DUPLICATE_ID: 409,
  CHAIN_DIGEST_MISMATCH: 409,
  INSTRUMENT_NOT_ACTIVE: 409,
  AMOUNT_EXCEEDS_LIMIT: 422,
  EXPIRY_INVALID: 422,
  INSUFFICIENT_BALANCE: 422,
  CHAIN_DEPTH_EXCEEDED: 422,
};

/** Every Operator error code of the profile table, for a refusal whose code the profile leaves open. */
export const ALL_ERROR_CODES: readonly string[] = Object.keys(PROFILE_ERROR_STATUS);

/**
 * Asserts an error answer whose `error.code` is one of `codes` (several when the request breaks
 * more than one condition by nature: profile 4 leaves the order of tests free). An empty or
 * other code fails.
 */
export function expectCodeIn(result: AnyResult, codes: readonly string[], what: string): string {
  const r = result as OperatorResult;
  assertThat(!r.ok, `${what}: expected an error ${codes.join(' or ')}, got a success (HTTP ${r.status})`);
  const code = r.error?.code;
  assertThat(
    code !== undefined && codes.includes(code),
    `${what}: expected error code ${codes.join(' or ')}, got ${code === undefined ? 'no code' : JSON.stringify(code)} (HTTP ${r.status ?? r.error?.status})`,
  );
  return code;
}

/**
 * PROFILE: {@link expectCodeIn}, plus the HTTP status of the code's row in the profile table and
 * the error body `{"error": {"code", "message"}}`.
 */
export function expectProfileCodeIn(result: AnyResult, codes: readonly string[], what: string): void {
  const code = expectCodeIn(result, codes, what);
  expectProfileError(result, PROFILE_ERROR_STATUS[code] as number, `${what} (${code})`);
}
