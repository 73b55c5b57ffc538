/**
 * Payee suite, CPR-1.0 section 7 (errors: "not shown") as fixed by profile section 1 (the error
 * body and its status) and section 2 (no error body ever contains CPR fields). Every error the
 * payee's endpoints answer in the suite's scenarios is collected once and graded here.
 */
import { randomUUID } from 'node:crypto';
import {
  assertThat,
  check,
  type DriverError,
  expectErrorCode,
  expectOk,
  expectStatus,
  type PayeeRequestParams,
  payee,
  sharedState,
  skip,
} from '../_lib/index.js';
import {
  cprLeaks,
  errorBodyProblems,
  expiredRequests,
  expiredTokens,
  freshRequest,
  harness,
  PAYEE_ERROR_STATUS,
  referenceRequest,
  sharedOnce,
} from './_support/index.js';

// These checks judge the payee's error answers, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('payee:error-answers', [
  'error-answers-error-code-code-message-text',
  'error-code-comes-http-status-row-profile',
  'error-body-cpr-retrieval-ever-contains-cpr',
]);

// The payee's test clock is moved by these checks (`cprc run --jobs` runs them after every other
// payee check, in one process: suites/_lib sharedState).
sharedState('payee:clock', [
  'error-answers-error-code-code-message-text',
  'error-code-comes-http-status-row-profile',
  'error-body-cpr-retrieval-ever-contains-cpr',
]);

/** One error answer of the payee, what caused it, and the CPR it must not leak (if known). */
interface ErrorAnswer {
  what: string;
  /** `retrieval` (spec 4.1, profile 2) or `harness` (profile 2 harness). */
  endpoint: 'retrieval' | 'harness';
  error: DriverError;
  knownCpr?: unknown;
}

/**
 * Provokes every error of the payee's endpoints once: consumed, expired and unknown tokens;
 * duplicate, expired and unknown fulfillments; malformed harness bodies. An answer that is not
 * an error (a fault other checks grade) is left out.
 */
const errorAnswers = sharedOnce('payee:error-answers', 'error-answers', async (): Promise<ErrorAnswer[]> => {
  harness();
  const out: ErrorAnswer[] = [];
  const p = payee();
  const add = (
    what: string,
    endpoint: ErrorAnswer['endpoint'],
    r: { ok: boolean; error?: DriverError },
    knownCpr?: unknown,
  ) => {
    if (!r.ok && r.error)
      out.push({ what, endpoint, error: r.error, ...(knownCpr === undefined ? {} : { knownCpr }) });
  };
  // Retrieval: a consumed token (its CPR is known and must not leak), an unknown one, an expired one.
  const used = await referenceRequest();
  const first = await p.retrieve(used.uri);
  const cpr = first.ok ? first.cpr : undefined;
  add('the second use of a token', 'retrieval', await p.retrieve(used.uri), cpr);
  add('a never-issued token', 'retrieval', await p.retrieve(randomUUID().replace(/-/g, '')));
  // The expiry scenarios wait; when the payee grants no short lifetime their own checks skip,
  // and this collection goes on without them.
  const expired = await expiredTokens().then(
    (reqs) => reqs[2],
    () => undefined,
  );
  if (expired) add('a token past its lifetime', 'retrieval', await p.retrieve(expired.uri));
  // Harness: fulfillments (duplicate, unknown, expired) and malformed bodies.
  const h = harness();
  const { requestId } = await freshRequest();
  expectOk(await h.fulfill(requestId), 'the first fulfillment');
  add('a second fulfillment', 'harness', await h.fulfill(requestId));
  add('the fulfillment of a request_id never issued', 'harness', await h.fulfill(randomUUID()));
  const expiredId = await expiredRequests().then(
    (ids) => ids[2],
    () => undefined,
  );
  if (expiredId) add('a fulfillment past expires_at', 'harness', await h.fulfill(expiredId));
  add(
    'a harness request with an unknown delivery form',
    'harness',
    await h.createRequest({ delivery: 'carrier-pigeon' } as unknown as PayeeRequestParams),
  );
  add('a fulfillment whose request_id is not a UUID', 'harness', await h.fulfill('not-a-uuid'));
  return out;
});

/**
 * Harness request bodies with one member of a type or form no reading of profile 2 can honour
 * (schema failures: profile 1 INVALID_REQUEST). Values a lenient payee might honour as asked
 * (an over-long memo, an unserved rail, a count of 0) are judged elsewhere, never here.
 */
const MALFORMED_CREATE_REQUESTS: readonly (readonly [string, Record<string, unknown>])[] = [
  ['without delivery', {}],
  ['with delivery "carrier-pigeon"', { delivery: 'carrier-pigeon' }],
  ['with delivery a number', { delivery: 1 }],
  ['with rail_hint a number', { delivery: 'inline', rail_hint: 5 }],
  ['with amount a JSON number', { delivery: 'inline', amount: 1999 }],
  ['with amount "abc"', { delivery: 'inline', amount: 'abc' }],
  ['with amount "-5"', { delivery: 'inline', amount: '-5' }],
  ['with amount "1.5"', { delivery: 'inline', amount: '1.5' }],
  ['with asset a bare string', { delivery: 'inline', asset: 'EUR' }],
  ['with asset without type', { delivery: 'inline', asset: { code: 'EUR' } }],
  ['with asset of an unknown type', { delivery: 'inline', asset: { type: 'cash', code: 'EUR' } }],
  ['with memo a number', { delivery: 'inline', memo: 42 }],
  ['with extensions an array', { delivery: 'inline', extensions: [] }],
  ['with extensions a string', { delivery: 'inline', extensions: 'x' }],
  ['with token_ttl_seconds a string', { delivery: 'reference', token_ttl_seconds: '60' }],
  ['with validity_seconds a string', { delivery: 'inline', validity_seconds: '3600' }],
  ['with validity_seconds a boolean', { delivery: 'inline', validity_seconds: true }],
  ['with qr "yes"', { delivery: 'reference', qr: 'yes' }],
];

describe('profile section 1: the error body of every payee endpoint', () => {
  check(
    'error-answers-error-code-code-message-text',
    ['PRF-1-ERROR-BODY'],
    'every error answers {"error": {"code": "<CODE>", "message": "<text for a person>"}} with a 4xx status',
    async () => {
      const answers = await errorAnswers();
      assertThat(answers.length > 0, 'the payee answered errors to the error scenarios');
      for (const a of answers) {
        const problems = errorBodyProblems(a.error);
        assertThat(
          problems.length === 0,
          `${a.what}: the error body follows profile 1: ${problems.join('; ')}`,
        );
      }
    },
  );

  check(
    'error-code-comes-http-status-row-profile',
    ['PRF-1-ERROR-STATUS'],
    'each error code comes with the HTTP status of its row in the profile table',
    async () => {
      const answers = await errorAnswers();
      const graded = answers.filter((a) => a.error.status !== undefined && typeof a.error.code === 'string');
      if (graded.length === 0) skip('the driver reports no HTTP status or no error code (custom binding)');
      for (const a of graded) {
        const want = PAYEE_ERROR_STATUS[a.error.code as string];
        assertThat(
          want !== undefined,
          `${a.what}: the code ${a.error.code} is one of the payee's codes (${Object.keys(PAYEE_ERROR_STATUS).join(', ')})`,
        );
        assertThat(
          a.error.status === want,
          `${a.what}: ${a.error.code} comes with HTTP ${want} (got ${a.error.status})`,
        );
      }
    },
  );

  check(
    'malformed-harness-body-answers-400-invalid-request',
    ['PRF-1-INVALID-REQUEST'],
    'a malformed harness body answers 400 INVALID_REQUEST: each member of POST {harness}/requests of a type no reading can honour (delivery missing or another form; rail_hint, memo or a count given as another JSON type; an amount that is no amount; an asset that is no AssetDescriptor; extensions that are no object; qr not a boolean), one at a time',
    async () => {
      const h = harness();
      for (const [what, body] of MALFORMED_CREATE_REQUESTS) {
        const bad = await h.createRequest(body as unknown as PayeeRequestParams);
        expectErrorCode(bad, 'INVALID_REQUEST', `a harness request ${what}`);
        expectStatus(bad, 400, `a harness request ${what}`);
      }
      // profile 2: a non-UUID string may also be 404 REQUEST_UNKNOWN; a missing one is 400
      if (h.fulfillRaw !== undefined) {
        const noId = await h.fulfillRaw({});
        expectErrorCode(noId, 'INVALID_REQUEST', 'a fulfillment without request_id');
        expectStatus(noId, 400, 'a fulfillment without request_id');
      }
    },
  );

  check(
    'error-body-cpr-retrieval-ever-contains-cpr',
    ['PRF-2-NO-CPR-IN-ERROR'],
    'no error body of CPR retrieval ever contains CPR fields',
    async () => {
      const answers = (await errorAnswers()).filter((a) => a.endpoint === 'retrieval');
      assertThat(answers.length > 0, 'the payee answered errors to the retrieval error scenarios');
      for (const a of answers) {
        const leaks = cprLeaks(a.error.body, a.knownCpr);
        assertThat(leaks.length === 0, `${a.what}: ${leaks.join('; ')}`);
      }
    },
  );
});
