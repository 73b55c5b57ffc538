/**
 * Cash-Pack API section 8 (limits) with their section 7 codes: the configured maximum amount
 * (AMOUNT_EXCEEDS_LIMIT), the permitted expiry range at both ends (EXPIRY_INVALID) and the
 * maximum renewal chain depth (CHAIN_DEPTH_EXCEEDED). Boundaries as AMB-32 reads them; each
 * negative check breaks exactly one condition.
 */
import { assertThat, check, expectErrorCode, expectOk, onCheckEnd, skip } from '../_lib/index.js';
import {
  expectProfileError,
  issue,
  lockRequest,
  newKey,
  type OperatorSetup,
  operatorNow,
  renew,
  renewalEntry,
  setup,
  utcSeconds,
} from './_support/index.js';

type Result = Awaited<ReturnType<OperatorSetup['op']['issue']>>;

/** Deepest chain the suite builds to reach the depth limit (policies above it are skipped). */
const MAX_DEPTH_TESTED = 64;

async function overAmount(s: OperatorSetup): Promise<Result> {
  const amount = (BigInt(s.policy.max_amount) + 1n).toString();
  return s.op.issue(lockRequest(s, { amount }).request);
}

/** Issues whose expires_at lies 120 s outside the policy's range, below and above (AMB-32). */
async function outOfRangeExpiries(s: OperatorSetup): Promise<{ what: string; result: Result }[]> {
  const below = s.policy.min_expiry_seconds - 120;
  const above = s.policy.max_expiry_seconds + 120;
  return [
    {
      what: `expires_at ${below} s from now (min_expiry_seconds ${s.policy.min_expiry_seconds})`,
      result: await s.op.issue(lockRequest(s, { lifetimeSeconds: below }).request),
    },
    {
      what: `expires_at ${above} s from now (max_expiry_seconds ${s.policy.max_expiry_seconds})`,
      result: await s.op.issue(lockRequest(s, { lifetimeSeconds: above }).request),
    },
  ];
}

/** Renews a fresh pack max_chain_depth times (each must succeed), then once more. */
async function beyondDepth(s: OperatorSetup): Promise<Result> {
  const depth = s.policy.max_chain_depth;
  if (depth > MAX_DEPTH_TESTED)
    skip(`max_chain_depth ${depth} is above ${MAX_DEPTH_TESTED}, the deepest chain the suite builds`);
  let { pack, bearer } = await issue(s);
  for (let n = 0; n < depth; n++) ({ pack, bearer } = await renew(s, pack, bearer));
  return s.op.renew(pack, renewalEntry(pack, bearer, newKey()));
}

describe('Cash-Pack API section 8: the configured maximum amount', () => {
  check(
    'issue-more-policy-s-max-amount-yields',
    ['CP-7-AMOUNT-EXCEEDS-LIMIT', 'CP-8-MAX-AMOUNT'],
    "an issue for more than the policy's max_amount yields AMOUNT_EXCEEDS_LIMIT, however large the amount (up to 2^256 - 1, the largest amount profile 1 allows)",
    async () => {
      const s = await setup();
      expectErrorCode(await overAmount(s), 'AMOUNT_EXCEEDS_LIMIT', 'issue of max_amount + 1');
      // Well-formed amounts far above max_amount: a reader that stops short of 2^256 - 1 (a 64-bit
      // integer, a JS number, an exclusive bound) calls them malformed instead.
      const max = BigInt(s.policy.max_amount);
      for (const [what, amount] of [
        ['2^53 + 1', (1n << 53n) + 1n],
        ['2^64', 1n << 64n],
        ['2^256 - 1', (1n << 256n) - 1n],
      ] as const) {
        if (amount <= max) continue;
        expectErrorCode(
          await s.op.issue(lockRequest(s, { amount: amount.toString() }).request),
          'AMOUNT_EXCEEDS_LIMIT',
          `issue of ${what} (${amount}), above max_amount ${s.policy.max_amount}`,
        );
      }
    },
  );

  check(
    'amount-exceeds-limit-http-422-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'AMOUNT_EXCEEDS_LIMIT is HTTP 422 with the error body',
    async () => {
      const s = await setup();
      expectProfileError(await overAmount(s), 422, 'issue of max_amount + 1');
    },
  );
});

describe('Cash-Pack API section 8: the permitted expiry range', () => {
  check(
    'expires-below-min-expiry-seconds-above-max',
    ['CP-7-EXPIRY-INVALID', 'CP-8-EXPIRY-RANGE'],
    'an expires_at below min_expiry_seconds or above max_expiry_seconds from now yields EXPIRY_INVALID',
    async () => {
      const s = await setup();
      for (const r of await outOfRangeExpiries(s))
        expectErrorCode(r.result, 'EXPIRY_INVALID', `issue with ${r.what}`);
    },
  );

  check(
    'expiry-invalid-http-422-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'EXPIRY_INVALID is HTTP 422 with the error body',
    async () => {
      const s = await setup();
      for (const r of await outOfRangeExpiries(s)) expectProfileError(r.result, 422, `issue with ${r.what}`);
    },
  );
});

describe('Cash-Pack API section 8: the maximum renewal chain depth', () => {
  check(
    'max-chain-depth-renewals-succeed-renewal-once',
    ['CP-7-CHAIN-DEPTH-EXCEEDED', 'CP-8-MAX-CHAIN-DEPTH'],
    'max_chain_depth renewals succeed, and a renewal once renewal_chain has reached it yields CHAIN_DEPTH_EXCEEDED',
    async () => {
      const s = await setup();
      expectErrorCode(await beyondDepth(s), 'CHAIN_DEPTH_EXCEEDED', 'renewal at the maximum depth');
    },
  );

  check(
    'chain-depth-exceeded-http-422-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'CHAIN_DEPTH_EXCEEDED is HTTP 422 with the error body',
    async () => {
      const s = await setup();
      expectProfileError(await beyondDepth(s), 422, 'renewal at the maximum depth');
    },
  );
});

/** Seconds of clock skew allowed at the edges of the expiry range (profile 4: "a few seconds"). */
const SKEW = 5;

/** When `result` issued a pack, it is expired through the harness (if any) when the check ends. */
function release(s: OperatorSetup, result: Result): void {
  const id = (result.body as { pack_id?: unknown } | undefined)?.pack_id;
  const h = s.op.harness;
  if (result.ok && h !== undefined && typeof id === 'string') onCheckEnd(() => h.expire(id));
}

/** Issues `request` expecting success; the pack is expired through the harness when the check ends. */
async function issueAndRelease(s: OperatorSetup, request: unknown, what: string): Promise<void> {
  const r = await s.op.issue(request);
  release(s, r);
  expectOk(r, what);
}

describe('Cash-Pack API section 8 and profile section 4: limits are inclusive, at both sides of each boundary', () => {
  check(
    'amount-equal-max-amount-allowed',
    ['PRF-4-LIMITS-INCLUSIVE', 'CP-8-MAX-AMOUNT'],
    'an amount equal to max_amount is allowed (only a greater one exceeds the limit)',
    async () => {
      const s = await setup();
      const r = await s.op.issue(lockRequest(s, { amount: s.policy.max_amount }).request);
      if (!r.ok && r.error?.code === 'INSUFFICIENT_BALANCE')
        skip(`the funded principal cannot cover max_amount ${s.policy.max_amount} (INSUFFICIENT_BALANCE)`);
      release(s, r);
      expectOk(r, `issue of exactly max_amount ${s.policy.max_amount}`);
    },
  );

  check(
    'renewal-chain-may-reach-exactly-max-chain-depth',
    ['PRF-4-LIMITS-INCLUSIVE', 'CP-8-MAX-CHAIN-DEPTH'],
    'a renewal chain may reach exactly max_chain_depth entries: that many renewals succeed and the pack holds them all',
    async () => {
      const s = await setup();
      const depth = s.policy.max_chain_depth;
      if (depth > MAX_DEPTH_TESTED)
        skip(`max_chain_depth ${depth} is above ${MAX_DEPTH_TESTED}, the deepest chain the suite builds`);
      let { pack, bearer } = await issue(s);
      for (let n = 0; n < depth; n++) ({ pack, bearer } = await renew(s, pack, bearer));
      assertThat(
        Array.isArray(pack.renewal_chain) && pack.renewal_chain.length === depth,
        `after ${depth} renewals renewal_chain has ${depth} entries (got ${Array.isArray(pack.renewal_chain) ? pack.renewal_chain.length : 'none'})`,
      );
    },
  );

  check(
    'expiry-a-few-seconds-inside-range-accepted',
    ['PRF-4-LIMITS-INCLUSIVE', 'CP-8-EXPIRY-RANGE'],
    `an expires_at ${SKEW} s inside either end of the expiry range (min_expiry_seconds + ${SKEW}, max_expiry_seconds - ${SKEW}) is accepted`,
    async () => {
      const s = await setup();
      const { min_expiry_seconds: min, max_expiry_seconds: max } = s.policy;
      for (const lifetime of [...new Set([Math.min(min + SKEW, max), Math.max(max - SKEW, min)])]) {
        await issueAndRelease(
          s,
          lockRequest(s, { lifetimeSeconds: lifetime }).request,
          `issue with expires_at ${lifetime} s from now (range ${min}..${max} s)`,
        );
      }
    },
  );

  check(
    'expiry-exactly-max-after-created-at-accepted',
    ['PRF-4-LIMITS-INCLUSIVE', 'CP-8-EXPIRY-RANGE'],
    `an expires_at exactly max_expiry_seconds after the Lock Request's created_at, created_at ${SKEW} s before the Operator's now, is accepted (AMB-40: in range whether "ahead" counts from created_at, exactly the bound, or from now, ${SKEW} s inside it)`,
    async () => {
      const s = await setup();
      const max = s.policy.max_expiry_seconds;
      const created = Math.floor(operatorNow() / 1000) * 1000 - SKEW * 1000;
      const overrides = { created_at: utcSeconds(created), expires_at: utcSeconds(created + max * 1000) };
      await issueAndRelease(
        s,
        lockRequest(s, { overrides }).request,
        `issue with created_at ${overrides.created_at} and expires_at ${overrides.expires_at}, exactly max_expiry_seconds ${max} s apart`,
      );
    },
  );

  check(
    'expiry-a-few-seconds-outside-range-refused',
    ['CP-7-EXPIRY-INVALID', 'CP-8-EXPIRY-RANGE'],
    `an expires_at ${SKEW} s outside either end of the expiry range yields EXPIRY_INVALID`,
    async () => {
      const s = await setup();
      const { min_expiry_seconds: min, max_expiry_seconds: max } = s.policy;
      for (const lifetime of [min - SKEW, max + SKEW]) {
        expectErrorCode(
          await s.op.issue(lockRequest(s, { lifetimeSeconds: lifetime }).request),
          'EXPIRY_INVALID',
          `issue with expires_at ${lifetime} s from now (range ${min}..${max} s)`,
        );
      }
    },
  );
});
