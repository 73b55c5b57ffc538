/**
 * Payee suite, CPR-1.0 section 4.3 rule 5 (a fulfilled request is consumed), section 1 rule 4
 * (single use by convention) and section 2.1 (no fulfillment after expires_at), through the
 * optional harness endpoint `POST {harness}/fulfillments` of profile section 2 (AMB-6).
 */
import { randomUUID } from 'node:crypto';
import { check, expectError, expectErrorCode, expectOk, expectStatus } from '../_lib/index.js';
import { expiredRequests, freshRequest, harness } from './_support.js';

describe('CPR-1.0 section 4.3 rule 5: fulfillment through the payee harness', () => {
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
});
