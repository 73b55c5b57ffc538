/**
 * Payee suite, CPR-1.0 section 5 (authentication: the ephemeral token), with sections 7 rule 1
 * and 8 (limits) and profile section 2 (token lifetime, format, randomness, status codes).
 */
import { randomBytes } from 'node:crypto';
import { decodeCprUri, tokenFormatFindings } from '../../src/codec/index.js';
import {
  assertThat,
  check,
  expectError,
  expectErrorCode,
  expectOk,
  expectStatus,
  payee,
  runsAlone,
  sharedState,
  skip,
} from '../_lib/index.js';
import { assertRaced, runRace, singleWinner } from '../_lib/race.js';
import {
  CLOCK_SLACK_SECONDS,
  corpus,
  cprLeaks,
  expiredTokens,
  harness,
  inBatches,
  label,
  maxTokenTtlSeconds,
  PROFILE_MAX_TOKEN_TTL_SECONDS,
  passTime,
  payeeNowMs,
  type ReferenceRequest,
  referenceRequest,
  sharedOnce,
  withClock,
} from './_support/index.js';
import { randomnessProblems } from './_support/randomness.js';

// These checks judge the sample of tokens, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('payee:token-sample', [
  'tokens-written-lowercase-base32-rfc-4648-padding',
  'tokens-carry-least-128-bits-200',
]);

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', ['token-transmitted-over-tls-reference-uri-names']);

// The payee's test clock is moved by these checks (`cprc run --jobs` runs them after every other
// payee check, in one process: suites/_lib sharedState).
sharedState('payee:clock', [
  'token-must-expire-within-payee-configured-window',
  'use-past-token-lifetime-answers-410-token',
  'token-serves-two-seconds-before-expiry',
  'token-expired-one-second-past-expiry',
]);

/** Simultaneous retrievals of one token in the race check. */
const RACE_WIDTH = 32;

// a race runs with no other check beside it (`cprc run --jobs`): other traffic would widen its spread
runsAlone([`exactly-successful-retrieval-concurrent-retrievals-${RACE_WIDTH}`]);
/** Tokens sampled for the randomness checks. */
const TOKEN_SAMPLE = 200;
/** A token lifetime above every ceiling, asked to see the payee cap it. */
const LONG_TTL_SECONDS = 3600;

/** Seconds from now until a harness answer's token_expires_at (skips when it is not reported). */
function lifetimeOf(r: ReferenceRequest, what: string): number {
  if (r.token_expires_at === undefined)
    skip('the payee harness does not report token_expires_at, so the token lifetime cannot be read');
  const at = Date.parse(r.token_expires_at);
  assertThat(
    Number.isFinite(at),
    `${what}: token_expires_at is a timestamp (got ${JSON.stringify(r.token_expires_at)})`,
  );
  // on the payee's clock: a test clock may have moved it ahead of the suite's
  return (at - payeeNowMs()) / 1000;
}

/** A harness answer's token_expires_at, ms (skips when it is not reported). */
function expiryOf(r: ReferenceRequest): number {
  if (r.token_expires_at === undefined)
    skip('the payee harness does not report token_expires_at, so the token lifetime cannot be read');
  const at = Date.parse(r.token_expires_at);
  assertThat(
    Number.isFinite(at),
    `token_expires_at is a timestamp (got ${JSON.stringify(r.token_expires_at)})`,
  );
  return at;
}

describe('CPR-1.0 section 5: the ephemeral token is single use', () => {
  check(
    'token-invalidated-after-first-successful-retrieval',
    ['CPR-5-TOKEN-SINGLE-USE', 'CPR-8-TOKEN-USES'],
    'the token is invalidated after the first successful retrieval',
    async () => {
      const { uri } = await referenceRequest();
      expectOk(await payee().retrieve(uri), 'the first retrieval');
      for (const n of ['second', 'third']) {
        const again = await payee().retrieve(uri);
        assertThat(!again.ok, `the ${n} retrieval of the token yields no CPR (the token was invalidated)`);
      }
    },
  );

  check(
    'token-must-reusable-repeated-use-returns-error',
    ['CPR-5-TOKEN-REUSE-ERROR', 'CPR-7-TOKEN-REUSE'],
    'a token must not be reusable; a repeated use returns an error',
    async () => {
      const { uri } = await referenceRequest();
      expectOk(await payee().retrieve(uri), 'the first retrieval');
      expectError(await payee().retrieve(uri), 'the second retrieval');
    },
  );

  check(
    'later-use-answers-410-token-consumed',
    ['PRF-2-TOKEN-CONSUMED-410'],
    'any later use answers 410 TOKEN_CONSUMED',
    async () => {
      const { uri } = await referenceRequest();
      expectOk(await payee().retrieve(uri), 'the first retrieval');
      for (const n of ['second', 'third']) {
        const again = await payee().retrieve(uri);
        expectErrorCode(again, 'TOKEN_CONSUMED', `the ${n} retrieval`);
        expectStatus(again, 410, `the ${n} retrieval`);
      }
    },
  );

  check(
    `exactly-successful-retrieval-concurrent-retrievals-${RACE_WIDTH}`,
    ['CPR-5-TOKEN-SINGLE-USE', 'CPR-8-TOKEN-USES'],
    `exactly one successful retrieval: ${RACE_WIDTH} concurrent retrievals of one token yield one CPR`,
    async () => {
      const p = payee();
      const { uri } = await referenceRequest();
      // every racer's connection is opened first and its request held one byte short; the last
      // bytes leave together (suites/_lib/race.ts)
      const race = await runRace(RACE_WIDTH, p.raceRetrieve?.bind(p, uri), () => p.retrieve(uri));
      const what = 'simultaneous first uses of one token (AMB-25)';
      singleWinner(race, (r) => r.ok, what);
      assertRaced(race, what);
    },
  );

  check(
    'token-issued-answers-404-token-unknown',
    ['PRF-2-TOKEN-UNKNOWN-404'],
    'a token never issued answers 404 TOKEN_UNKNOWN',
    async () => {
      // Never issued, and shaped like the payee's own tokens (same length and alphabet as a live
      // one, when the harness can issue one) so that only the lookup can tell them apart; random,
      // so no neighbour of a live token. Without a harness: 32 base32 characters, the reference's shape.
      const live = payee().harness ? (await referenceRequest()).ref.token : 'a'.repeat(32);
      const alphabet = /^[0-9a-f]+$/.test(live) ? '0123456789abcdef' : 'abcdefghijklmnopqrstuvwxyz234567';
      const lookalike = [...randomBytes(live.length)].map((b) => alphabet[b % alphabet.length]).join('');
      const tokens = [randomBytes(20).toString('hex'), lookalike];
      for (const token of tokens) {
        const r = await payee().retrieve(token);
        expectErrorCode(r, 'TOKEN_UNKNOWN', `the retrieval of the never-issued token ${token}`);
        expectStatus(r, 404, `the retrieval of the never-issued token ${token}`);
      }
    },
  );
});

describe('CPR-1.0 section 5 rule 1 and section 8: the token expires', () => {
  check(
    'token-must-expire-within-payee-configured-window',
    ['CPR-5-TOKEN-EXPIRY'],
    'the token must expire within the payee-configured window',
    async () => {
      const [r] = await expiredTokens();
      expectError(
        await payee().retrieve(r.uri),
        'a retrieval after the token lifetime (token_ttl_seconds 1)',
      );
    },
  );

  check(
    'use-past-token-lifetime-answers-410-token',
    ['PRF-2-TOKEN-EXPIRED-410'],
    'a use past the token lifetime answers 410 TOKEN_EXPIRED',
    async () => {
      const [, r] = await expiredTokens();
      const got = await payee().retrieve(r.uri);
      expectErrorCode(got, 'TOKEN_EXPIRED', 'a retrieval after the token lifetime');
      expectStatus(got, 410, 'a retrieval after the token lifetime');
    },
  );

  check(
    'token-serves-two-seconds-before-expiry',
    ['PRF-2-HARNESS-TOKEN-TTL'],
    'a token asked for 60 s still serves its CPR two seconds before its token_expires_at',
    async () => {
      const r = await referenceRequest({ token_ttl_seconds: 60 });
      await passTime(expiryOf(r), 'two seconds before token_expires_at', -2000);
      expectOk(await payee().retrieve(r.uri), 'the first retrieval two seconds before token_expires_at');
    },
  );

  check(
    'token-expired-one-second-past-expiry',
    ['CPR-5-TOKEN-EXPIRY', 'PRF-2-TOKEN-EXPIRED-410'],
    'a token answers 410 TOKEN_EXPIRED one second past its token_expires_at',
    async () => {
      // 60 s with the test clock; without it 1 s, so that the wait stays short
      const r = await referenceRequest({ token_ttl_seconds: (await withClock()) ? 60 : 1 });
      await passTime(expiryOf(r), 'one second past token_expires_at', 1000);
      const got = await payee().retrieve(r.uri);
      expectErrorCode(got, 'TOKEN_EXPIRED', 'the first retrieval one second past token_expires_at');
      expectStatus(got, 410, 'the first retrieval one second past token_expires_at');
    },
  );

  check(
    'token-lifetime-most-15-minutes-recommended-even',
    ['CPR-5-TOKEN-WINDOW-15-MIN', 'CPR-8-TOKEN-LIFETIME'],
    'the token lifetime is at most 15 minutes (recommended), even when a longer one is asked',
    async () => {
      for (const params of [{}, { token_ttl_seconds: LONG_TTL_SECONDS }]) {
        const r = await referenceRequest(params);
        const what = `a token asked with ${JSON.stringify(params)}`;
        const seconds = lifetimeOf(r, what);
        assertThat(
          seconds <= 15 * 60 + CLOCK_SLACK_SECONDS,
          `${what}: the token lives ${Math.round(seconds)} s, more than 15 minutes`,
        );
      }
    },
  );

  check(
    'token-lifetime-most-900-s-most-configured',
    ['PRF-2-TOKEN-LIFETIME'],
    'the token lifetime is at most 900 s and at most the configured maximum (payee.max_token_ttl_seconds)',
    async () => {
      const ceiling = Math.min(maxTokenTtlSeconds(), PROFILE_MAX_TOKEN_TTL_SECONDS);
      for (const params of [{}, { token_ttl_seconds: LONG_TTL_SECONDS }]) {
        const r = await referenceRequest(params);
        const what = `a token asked with ${JSON.stringify(params)}`;
        const seconds = lifetimeOf(r, what);
        assertThat(
          seconds <= ceiling + CLOCK_SLACK_SECONDS,
          `${what}: token_expires_at is ${Math.round(seconds)} s away, above the ceiling of ${ceiling} s`,
        );
      }
    },
  );

  check(
    'token-ttl-seconds-sets-token-lifetime-capped',
    ['PRF-2-HARNESS-TOKEN-TTL'],
    'token_ttl_seconds sets the token lifetime (capped at the payee’s maximum)',
    async () => {
      const ceiling = Math.min(maxTokenTtlSeconds(), PROFILE_MAX_TOKEN_TTL_SECONDS);
      const asked = Math.min(60, ceiling);
      const short = await referenceRequest({ token_ttl_seconds: asked });
      const shortLife = lifetimeOf(short, `a token asked with token_ttl_seconds ${asked}`);
      assertThat(
        Math.abs(shortLife - asked) <= CLOCK_SLACK_SECONDS,
        `asked for token_ttl_seconds ${asked}, token_expires_at is ${asked} s away (got ${Math.round(shortLife)} s)`,
      );
      const long = await referenceRequest({ token_ttl_seconds: LONG_TTL_SECONDS });
      const longLife = lifetimeOf(long, `a token asked with token_ttl_seconds ${LONG_TTL_SECONDS}`);
      assertThat(
        longLife <= ceiling + CLOCK_SLACK_SECONDS,
        `asked for ${LONG_TTL_SECONDS} s, the lifetime is capped at ${ceiling} s (got ${Math.round(longLife)} s)`,
      );
    },
  );
});

describe('CPR-1.0 section 5 rules 4-5: TLS only', () => {
  check(
    'token-transmitted-over-tls-reference-uri-names',
    ['CPR-5-TLS-ONLY'],
    'the token is transmitted only over TLS: every reference URI names an https endpoint',
    async () => {
      const entries = (await corpus()).filter((e) => e.form === 'reference' || e.form === 'qr-reference');
      for (const e of entries) {
        const d = decodeCprUri(e.uri);
        assertThat(d.ok && d.value.kind === 'reference', `${label(e)}: the uri has the reference shape`);
        assertThat(
          /^https:\/\//i.test(d.value.retrievalUrl),
          `${label(e)}: the token is sent to an https URL (got ${d.value.retrievalUrl.replace(d.value.token, '{token}')})`,
        );
      }
    },
  );

  // Decision (AMB-27): after a live token was tried over plain HTTP, the payee may keep it
  // usable over TLS or invalidate it as exposed; both conform. What never conforms is a CPR (or
  // any of its fields) in the plain-HTTP answer, or a different CPR over TLS afterwards.
  check(
    'payee-serves-cpr-payloads-over-tls-plain',
    ['CPR-5-PAYLOAD-TLS-ONLY', 'CPR-INV-8-TLS-ONLY', 'CPR-4.1-TLS-ONLY'],
    'the payee serves CPR payloads only over TLS: the plain-HTTP address never yields a CPR for a live token',
    async () => {
      const p = payee();
      if (!p.retrievePlainHttp) skip('no plain-HTTP address is configured (payee.plain_http_url)');
      const r = await referenceRequest();
      const plain = await p.retrievePlainHttp(r.ref.token);
      if (plain.answered) {
        const is2xx = plain.status !== undefined && plain.status >= 200 && plain.status < 300;
        assertThat(
          !(is2xx && plain.servedJson !== undefined),
          `no JSON is served over plain HTTP (got HTTP ${plain.status} with a JSON body)`,
        );
        const body = plain.servedJson ?? plain.body ?? '';
        assertThat(
          !String(plain.body ?? '').includes(r.request_id),
          `the plain-HTTP answer does not carry the CPR (its request_id ${r.request_id} appears in it)`,
        );
        const leaks = cprLeaks(body);
        assertThat(
          leaks.length === 0,
          `the plain-HTTP answer (HTTP ${plain.status}) carries no CPR field: ${leaks.join('; ')}`,
        );
      }
      const after = await p.retrieve(r.uri);
      if (after.ok) {
        const id = (after.cpr as { request_id?: unknown }).request_id;
        assertThat(
          id === r.request_id,
          `over TLS afterwards the token still yields its own CPR (request_id ${r.request_id}, got ${JSON.stringify(id)})`,
        );
      } else {
        const leaks = cprLeaks(after.error.body);
        assertThat(
          leaks.length === 0,
          `the TLS refusal of the exposed token carries no CPR field: ${leaks.join('; ')}`,
        );
      }
    },
  );
});

/** The tokens of {@link TOKEN_SAMPLE} fresh reference requests, in issue order. */
const tokenSample = sharedOnce('payee:token-sample', 'token-sample', async () => {
  harness();
  const reqs = await inBatches(
    Array.from({ length: TOKEN_SAMPLE }, (_, i) => i),
    16,
    () => referenceRequest(),
  );
  return reqs.map((r) => r.ref.token);
});

describe('profile section 2: token format and randomness', () => {
  check(
    'tokens-written-lowercase-base32-rfc-4648-padding',
    ['PRF-2-TOKEN-FORMAT'],
    'tokens are written in lowercase base32 (RFC 4648, no padding) or lowercase hex',
    async () => {
      const tokens = await tokenSample();
      for (const t of tokens) {
        const bad = tokenFormatFindings(t).filter((f) => f.requirement === 'PRF-2-TOKEN-FORMAT');
        assertThat(bad.length === 0, bad.map((f) => f.message).join('; '));
      }
    },
  );

  check(
    `tokens-carry-least-128-bits-${TOKEN_SAMPLE}`,
    ['PRF-2-TOKEN-ENTROPY'],
    `tokens carry at least 128 bits of randomness: length, no repeats, no shared prefix, no sequence, monobit and runs tests over ${TOKEN_SAMPLE} tokens`,
    async () => {
      const tokens = await tokenSample();
      if (tokens.some((t) => !/^[a-z2-7]+$/.test(t) && !/^[0-9a-f]+$/.test(t)))
        skip(
          'the tokens are not lowercase base32 or hex (graded by PRF-2-TOKEN-FORMAT), so their bits cannot be read',
        );
      for (const t of tokens) {
        const short = tokenFormatFindings(t).filter((f) => f.requirement === 'PRF-2-TOKEN-ENTROPY');
        assertThat(short.length === 0, short.map((f) => f.message).join('; '));
      }
      const problems = randomnessProblems(tokens);
      assertThat(problems.length === 0, `the tokens look random: ${problems.join('; ')}`);
    },
    { timeoutMs: 60_000 },
  );
});
