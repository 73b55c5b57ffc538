/**
 * Payee suite, CPR-1.0 section 4.3 rule 5 (a fulfilled request is consumed), section 1 rule 4
 * (single use by convention) and section 2.1 (no fulfillment after expires_at), through the
 * optional harness endpoint `POST {harness}/fulfillments` of profile section 2 (AMB-6).
 */
import { randomUUID } from 'node:crypto';
import {
  answerSaid,
  assertThat,
  check,
  expectError,
  expectErrorCode,
  expectOk,
  expectStatus,
  runsAlone,
  sharedState,
  skip,
} from '../_lib/index.js';
import { assertRaced, runRace, singleWinner } from '../_lib/race.js';
import { expiredRequests, freshRequest, harness, passTime, withClock } from './_support/index.js';

// The payee's test clock is moved by these checks (`cprc run --jobs` runs them after every other
// payee check, in one process: suites/_lib sharedState).
sharedState('payee:clock', [
  'after-expires-request-must-fulfilled',
  'fulfillment-past-expires-answers-409-request-expired',
  'fulfilled-two-seconds-before-expires',
  'fulfillment-one-second-past-expires-409-request-expired',
]);

/** Simultaneous fulfillments of one request_id in the race check. */
const RACERS = 32;

// a race runs with no other check beside it (`cprc run --jobs`): other traffic would widen its spread
runsAlone([`simultaneous-fulfillments-one-request-exactly-succeeds-${RACERS}`]);

describe('CPR-1.0 section 4.3 rule 5: fulfillment through the payee harness', () => {
  check(
    `simultaneous-fulfillments-one-request-exactly-succeeds-${RACERS}`,
    ['CPR-4.3-CONSUMED-REJECT', 'PRF-2-FULFILLMENT-DUPLICATE-409'],
    `${RACERS} simultaneous fulfillments of one request_id: exactly one succeeds, the others answer 409 DUPLICATE_ID`,
    async () => {
      const { requestId } = await freshRequest();
      const h = harness();
      const race = await runRace(RACERS, h.raceFulfill?.bind(h, requestId), () => h.fulfill(requestId));
      const what = 'simultaneous fulfillments of one request_id';
      const winner = singleWinner(race, (r) => r.ok, what);
      race.results.forEach((r, i) => {
        if (i === winner) return;
        const loser = `fulfillment ${i + 1} of ${RACERS} (not the one that succeeded)`;
        expectErrorCode(r, 'DUPLICATE_ID', loser);
        expectStatus(r, 409, loser);
      });
      assertRaced(race, what);
    },
  );

  check(
    'post-harness-fulfillments-request-id-answers-200',
    ['PRF-2-FULFILLMENT-FIRST-200'],
    'POST {harness}/fulfillments {request_id} answers 200 the first time',
    async () => {
      const { requestId } = await freshRequest();
      const r = await harness().fulfill(requestId);
      expectOk(r, 'the first fulfillment');
      expectStatus(r, 200, 'the first fulfillment');
    },
  );

  check(
    'after-successful-fulfillment-later-fulfillment-attempts-same',
    ['CPR-4.3-CONSUMED-REJECT', 'CPR-1-SINGLE-USE'],
    'after successful fulfillment, later fulfillment attempts with the same request_id are rejected',
    async () => {
      const { requestId } = await freshRequest();
      expectOk(await harness().fulfill(requestId), 'the first fulfillment');
      expectError(await harness().fulfill(requestId), 'the second fulfillment of the same request_id');
      expectError(await harness().fulfill(requestId), 'the third fulfillment of the same request_id');
    },
  );

  check(
    'second-fulfillment-answers-409-duplicate-id',
    ['PRF-2-FULFILLMENT-DUPLICATE-409'],
    'a second fulfillment answers 409 DUPLICATE_ID',
    async () => {
      const { requestId } = await freshRequest();
      expectOk(await harness().fulfill(requestId), 'the first fulfillment');
      const again = await harness().fulfill(requestId);
      expectErrorCode(again, 'DUPLICATE_ID', 'the second fulfillment');
      expectStatus(again, 409, 'the second fulfillment');
    },
  );

  check(
    'request-id-issued-answers-404-request-unknown',
    ['PRF-2-FULFILLMENT-UNKNOWN-404'],
    'a request_id never issued answers 404 REQUEST_UNKNOWN',
    async () => {
      const r = await harness().fulfill(randomUUID());
      expectErrorCode(r, 'REQUEST_UNKNOWN', 'the fulfillment of a request_id never issued');
      expectStatus(r, 404, 'the fulfillment of a request_id never issued');
    },
  );

  check(
    'after-expires-request-must-fulfilled',
    ['CPR-2.1-EXPIRES-AT'],
    'after expires_at, the request must not be fulfilled',
    async () => {
      const [requestId] = await expiredRequests();
      expectError(await harness().fulfill(requestId), 'the fulfillment of a request past its expires_at');
    },
  );

  check(
    'fulfillment-past-expires-answers-409-request-expired',
    ['PRF-2-FULFILLMENT-EXPIRED-409'],
    'a fulfillment past expires_at answers 409 REQUEST_EXPIRED',
    async () => {
      const [, requestId] = await expiredRequests();
      const r = await harness().fulfill(requestId);
      expectErrorCode(r, 'REQUEST_EXPIRED', 'the fulfillment of a request past its expires_at');
      expectStatus(r, 409, 'the fulfillment of a request past its expires_at');
    },
  );

  check(
    'fulfilled-two-seconds-before-expires',
    ['PRF-2-FULFILLMENT-FIRST-200'],
    'a request is still fulfilled (200) two seconds before its expires_at',
    async () => {
      const { requestId, expiresAtMs } = await freshRequest(60);
      // a real wait cannot aim within a second of an instant: this side needs the test clock
      await passTime(expiresAtMs, 'two seconds before expires_at', -2000);
      const first = await harness().fulfill(requestId);
      expectOk(first, 'the fulfillment two seconds before expires_at');
      expectStatus(first, 200, 'the fulfillment two seconds before expires_at');
    },
  );

  check(
    'fulfillment-one-second-past-expires-409-request-expired',
    ['PRF-2-FULFILLMENT-EXPIRED-409', 'CPR-2.1-EXPIRES-AT'],
    'a fulfillment one second past expires_at is refused with 409 REQUEST_EXPIRED',
    async () => {
      // 60 s with the test clock; without it 1 s, so that the wait stays short
      const { requestId, expiresAtMs } = await freshRequest((await withClock()) ? 60 : 1);
      await passTime(expiresAtMs, 'one second past expires_at', 1000);
      const past = await harness().fulfill(requestId);
      expectErrorCode(past, 'REQUEST_EXPIRED', 'the fulfillment one second past expires_at');
      expectStatus(past, 409, 'the fulfillment one second past expires_at');
    },
  );

  check(
    'fulfillment-request-id-not-uuid-400-or-404-missing-400',
    ['PRF-2-FULFILLMENT-ID-INVALID'],
    'a fulfillment whose request_id is a string but not a UUID answers 400 INVALID_REQUEST or 404 REQUEST_UNKNOWN; a missing or non-string one 400 INVALID_REQUEST',
    async () => {
      const h = harness();
      if (h.fulfillRaw === undefined)
        skip('the payee driver cannot send a raw fulfillment body (custom binding)');
      for (const id of ['not-a-uuid', '12345', 'AAAAAAAA-AAAA-AAAA-AAAA-AAAAAAAAAAAAA']) {
        const r = await h.fulfillRaw({ request_id: id });
        const ok =
          !r.ok &&
          ((r.error.code === 'INVALID_REQUEST' && (r.error.status ?? 400) === 400) ||
            (r.error.code === 'REQUEST_UNKNOWN' && (r.error.status ?? 404) === 404));
        assertThat(
          ok,
          `request_id ${JSON.stringify(id)} (not a UUID) answers 400 INVALID_REQUEST or 404 REQUEST_UNKNOWN (got ${answerSaid(r)})`,
        );
      }
      for (const [what, body] of [
        ['no request_id', {}],
        ['a number request_id', { request_id: 12345 }],
        ['a null request_id', { request_id: null }],
        ['an array request_id', { request_id: ['x'] }],
      ] as const) {
        const r = await h.fulfillRaw(body);
        const ok = !r.ok && r.error.code === 'INVALID_REQUEST' && (r.error.status ?? 400) === 400;
        assertThat(ok, `a fulfillment with ${what} answers 400 INVALID_REQUEST (got ${answerSaid(r)})`);
      }
    },
  );
});
