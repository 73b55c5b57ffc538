/**
 * Cash-Pack API section 7 (error codes) not covered by sections 5 and 8: DUPLICATE_ID (with
 * sections 2 and 8, and profile section 1 for redemption_id), CHAIN_DIGEST_MISMATCH and
 * INSUFFICIENT_BALANCE; profile section 1 statuses and INVALID_REQUEST. Each negative check
 * breaks exactly one condition (profile section 4, AMB-30).
 */
import { assertThat, check, expectErrorCode, expectOk, sharedState, skip } from '../_lib/index.js';
import {
  type CashPack,
  expectCodeIn,
  expectProfileCodeIn,
  expectProfileError,
  issue,
  lockRequest,
  lowBalance,
  newKey,
  type OperatorSetup,
  redemptionRequest,
  renew,
  renewalEntry,
  setup,
  statusOf,
} from './_support/index.js';

// These checks spend or measure the low-balance principal's balance (`cprc run --jobs` runs them
// in one process, one after another: suites/_lib sharedState).
sharedState('operator:low-balance-principal', [
  'issue-more-principal-s-available-balance-yields',
  'insufficient-balance-http-422-error-body',
]);

type Result = Awaited<ReturnType<OperatorSetup['op']['issue']>>;

/** A replayed Lock Request (byte-identical), and a new one re-using the request_id. */
async function requestIdReplays(s: OperatorSetup): Promise<{ what: string; result: Result }[]> {
  const { request } = lockRequest(s);
  expectOk(await s.op.issue(request), 'the first issue of the Lock Request');
  const reused = lockRequest(s, { overrides: { request_id: request.request_id } }).request;
  return [
    { what: 'the same Lock Request sent again', result: await s.op.issue(request) },
    { what: 'a new Lock Request re-using the request_id', result: await s.op.issue(reused) },
  ];
}

/** A valid renewal by the current bearer that re-uses the renewal_id of the previous renewal. */
async function renewalIdReplay(s: OperatorSetup): Promise<Result> {
  if (s.policy.max_chain_depth < 2)
    skip('max_chain_depth is below 2: a second renewal would break the depth limit too');
  const issued = await issue(s);
  const first = await renew(s, issued.pack, issued.bearer);
  const entry = renewalEntry(first.pack, first.bearer, newKey(), { renewal_id: first.entry.renewal_id });
  return s.op.renew(first.pack, entry);
}

/** A valid redemption of a fresh pack that re-uses the redemption_id of an earlier redemption. */
async function redemptionIdReplay(s: OperatorSetup): Promise<Result> {
  const a = await issue(s);
  const first = redemptionRequest(s, a.pack, a.bearer);
  expectOk(await s.op.redeem(a.pack, first), 'the first redemption');
  const b = await issue(s);
  return s.op.redeem(
    b.pack,
    redemptionRequest(s, b.pack, b.bearer, 'sufficient', { redemption_id: first.redemption_id }),
  );
}

describe('Cash-Pack API sections 2, 7 and 8: DUPLICATE_ID', () => {
  check(
    'request-id-seen-before-rejected-duplicate-id',
    ['CP-2-REQUEST-ID-REPLAY', 'CP-7-DUPLICATE-ID', 'CP-8-ID-SINGLE-USE'],
    'a request_id seen before is rejected with DUPLICATE_ID (replay and re-use)',
    async () => {
      const s = await setup();
      for (const r of await requestIdReplays(s)) expectErrorCode(r.result, 'DUPLICATE_ID', r.what);
    },
  );

  check(
    'renewal-id-seen-before-rejected-duplicate-id',
    ['CP-2-RENEWAL-ID-REPLAY', 'CP-7-DUPLICATE-ID', 'CP-8-ID-SINGLE-USE'],
    'a renewal_id seen before is rejected with DUPLICATE_ID',
    async () => {
      const s = await setup();
      expectErrorCode(await renewalIdReplay(s), 'DUPLICATE_ID', 'a valid renewal re-using a renewal_id');
    },
  );

  check(
    'redemption-id-seen-before-rejected-duplicate-id',
    ['PRF-1-REDEMPTION-ID-REPLAY'],
    'a redemption_id seen before is rejected with DUPLICATE_ID',
    async () => {
      const s = await setup();
      expectErrorCode(
        await redemptionIdReplay(s),
        'DUPLICATE_ID',
        'a valid redemption re-using a redemption_id',
      );
    },
  );

  check(
    'duplicate-id-http-409-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'DUPLICATE_ID is HTTP 409 with the error body',
    async () => {
      const s = await setup();
      for (const r of await requestIdReplays(s)) expectProfileError(r.result, 409, r.what);
      expectProfileError(await renewalIdReplay(s), 409, 'a renewal re-using a renewal_id');
    },
  );

  check(
    'replayed-redemption-id-http-409',
    ['PRF-1-REDEMPTION-ID-REPLAY'],
    'a replayed redemption_id is HTTP 409',
    async () => {
      const s = await setup();
      expectProfileError(await redemptionIdReplay(s), 409, 'a redemption re-using a redemption_id');
    },
  );
});

/** The current bearer of a renewed pack submits the current copy with the previous digest d0. */
async function staleDigest(s: OperatorSetup): Promise<{ renew: Result; redeem: Result }> {
  const issued = await issue(s);
  const renewed = await renew(s, issued.pack, issued.bearer);
  const d0 = issued.pack.chain_digest;
  const current: CashPack = renewed.pack;
  return {
    renew: await s.op.renew(
      current,
      renewalEntry(current, renewed.bearer, newKey(), { prev_chain_digest: d0 }),
    ),
    redeem: await s.op.redeem(
      current,
      redemptionRequest(s, current, renewed.bearer, 'sufficient', { prev_chain_digest: d0 }),
    ),
  };
}

describe('Cash-Pack API sections 2, 3 and 8: replays across packs and exact replays', () => {
  check(
    'renewal-id-reused-on-another-pack-duplicate-id',
    ['CP-2-RENEWAL-ID-REPLAY', 'CP-7-DUPLICATE-ID', 'CP-8-ID-SINGLE-USE'],
    'a renewal_id used on one pack and then on another pack is rejected with DUPLICATE_ID (ids are single use across packs)',
    async () => {
      const s = await setup();
      const a = await issue(s);
      const first = await renew(s, a.pack, a.bearer);
      const b = await issue(s);
      const entry = renewalEntry(b.pack, b.bearer, newKey(), { renewal_id: first.entry.renewal_id });
      expectErrorCode(
        await s.op.renew(b.pack, entry),
        'DUPLICATE_ID',
        'a valid renewal of another pack re-using a renewal_id',
      );
    },
  );

  check(
    'exact-replay-successful-redemption-refused',
    ['CP-3-REDEEMED', 'CP-3-TERMINAL-STATUS'],
    'an exact replay of a successful redemption is refused with DUPLICATE_ID or INSTRUMENT_NOT_ACTIVE (either is correct) and the pack stays REDEEMED',
    async () => {
      const s = await setup();
      const { pack, bearer } = await issue(s);
      const request = redemptionRequest(s, pack, bearer);
      expectOk(await s.op.redeem(pack, request), 'the first redemption');
      const replay = await s.op.redeem(pack, request);
      expectCodeIn(replay, ['DUPLICATE_ID', 'INSTRUMENT_NOT_ACTIVE'], 'the same redemption sent again');
      const status = await statusOf(s, pack.pack_id);
      assertThat(status === 'REDEEMED', `the pack stays REDEEMED (got ${JSON.stringify(status)})`);
    },
  );

  check(
    'exact-replay-successful-renewal-refused',
    ['CP-2-RENEWAL-ID-REPLAY', 'CP-8-ID-SINGLE-USE'],
    'an exact replay of a successful renewal is refused (DUPLICATE_ID, CHAIN_DIGEST_MISMATCH or BEARER_MISMATCH: it breaks all three) and the new bearer keeps the pack',
    async () => {
      const s = await setup();
      const { pack, bearer } = await issue(s);
      const next = newKey();
      const entry = renewalEntry(pack, bearer, next);
      const renewed = expectOk(await s.op.renew(pack, entry), 'the first renewal') as CashPack;
      const replay = await s.op.renew(pack, entry);
      expectCodeIn(
        replay,
        ['DUPLICATE_ID', 'CHAIN_DIGEST_MISMATCH', 'BEARER_MISMATCH'],
        'the same renewal sent again',
      );
      expectOk(
        await s.op.redeem(renewed, redemptionRequest(s, renewed, next)),
        'redemption by the bearer of the first renewal after the replay',
      );
    },
  );
});

describe('Profile section 1: statuses of exact replays', () => {
  check(
    'exact-replays-http-status-of-their-code',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'an exact replay of a successful redemption or renewal answers with the status of its code (409 or 403) and the error body',
    async () => {
      const s = await setup();
      const a = await issue(s);
      const request = redemptionRequest(s, a.pack, a.bearer);
      expectOk(await s.op.redeem(a.pack, request), 'the first redemption');
      expectProfileCodeIn(
        await s.op.redeem(a.pack, request),
        ['DUPLICATE_ID', 'INSTRUMENT_NOT_ACTIVE'],
        'the same redemption sent again',
      );
      const b = await issue(s);
      const entry = renewalEntry(b.pack, b.bearer, newKey());
      expectOk(await s.op.renew(b.pack, entry), 'the first renewal');
      expectProfileCodeIn(
        await s.op.renew(b.pack, entry),
        ['DUPLICATE_ID', 'CHAIN_DIGEST_MISMATCH', 'BEARER_MISMATCH'],
        'the same renewal sent again',
      );
    },
  );
});

describe('Cash-Pack API section 7: CHAIN_DIGEST_MISMATCH', () => {
  check(
    'prev-chain-digest-differs-instrument-s-current',
    ['CP-7-CHAIN-DIGEST-MISMATCH'],
    "a prev_chain_digest that differs from the instrument's current chain_digest yields CHAIN_DIGEST_MISMATCH (renew and redeem)",
    async () => {
      const s = await setup();
      const r = await staleDigest(s);
      expectErrorCode(r.renew, 'CHAIN_DIGEST_MISMATCH', 'renewal citing the previous chain digest');
      expectErrorCode(r.redeem, 'CHAIN_DIGEST_MISMATCH', 'redemption citing the previous chain digest');
    },
  );

  check(
    'chain-digest-mismatch-http-409-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'CHAIN_DIGEST_MISMATCH is HTTP 409 with the error body',
    async () => {
      const s = await setup();
      const r = await staleDigest(s);
      expectProfileError(r.renew, 409, 'renewal citing the previous chain digest');
      expectProfileError(r.redeem, 409, 'redemption citing the previous chain digest');
    },
  );
});

/** An issue by the low-balance principal of one unit more than its available balance. */
async function overBalance(s: OperatorSetup): Promise<Result> {
  const amount = ((await lowBalance(s, 0n)) + 1n).toString();
  if (BigInt(amount) > BigInt(s.policy.max_amount)) {
    skip("the low-balance principal's balance + 1 exceeds max_amount: the amount limit would be broken too");
  }
  return s.op.issue(lockRequest(s, { principal: 'low_balance', amount }).request);
}

describe('Cash-Pack API section 7: INSUFFICIENT_BALANCE', () => {
  check(
    'issue-more-principal-s-available-balance-yields',
    ['CP-7-INSUFFICIENT-BALANCE'],
    "an issue for more than the Principal's available balance yields INSUFFICIENT_BALANCE",
    async () => {
      const s = await setup();
      expectErrorCode(await overBalance(s), 'INSUFFICIENT_BALANCE', 'issue above the available balance');
    },
  );

  check(
    'insufficient-balance-http-422-error-body',
    ['PRF-1-ERROR-STATUS', 'PRF-1-ERROR-BODY'],
    'INSUFFICIENT_BALANCE is HTTP 422 with the error body',
    async () => {
      const s = await setup();
      expectProfileError(await overBalance(s), 422, 'issue above the available balance');
    },
  );
});

describe('Profile section 1: INVALID_REQUEST', () => {
  check(
    'malformed-json-answers-400-invalid-request-issue',
    ['PRF-1-INVALID-REQUEST'],
    'malformed JSON answers 400 INVALID_REQUEST on issue, renew and redeem',
    async () => {
      const s = await setup();
      const raw = s.op.rawPost?.bind(s.op) ?? skip('the driver cannot send a raw body (custom binding)');
      for (const endpoint of ['issue', 'renew', 'redeem'] as const) {
        const r = await raw(endpoint, '{"request_id": ');
        expectProfileError(r, 400, `${endpoint} with a malformed JSON body`);
        expectErrorCode(r, 'INVALID_REQUEST', `${endpoint} with a malformed JSON body`);
      }
    },
  );
});
