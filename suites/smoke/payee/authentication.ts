/**
 * Smoke suite (payee): CPR-1.0 section 5 token rules, as an example of MUST, SHOULD, PROFILE and
 * skipped checks written with the suite library.
 */
import {
  assertThat,
  check,
  expectError,
  expectErrorCode,
  expectOk,
  expectStatus,
  payee,
  skip,
} from '../../_lib/index.js';

/** Asks the payee harness for a fresh reference request (skips without a harness). */
async function freshRequest(): Promise<{ uri: string; token_expires_at?: string }> {
  const h = payee().harness ?? skip('the payee harness is not configured (payee.harness_url)');
  return expectOk(await h.createRequest({ delivery: 'reference' }), 'the harness request');
}

function tokenOf(uri: string): string {
  return /^cpr:\/\/([^/?#]+)/.exec(uri)?.[1] ?? '';
}

describe('smoke: CPR-1.0 section 5, authentication', () => {
  check(
    'repeated-use-same-token-returns-error',
    ['CPR-5-TOKEN-REUSE-ERROR'],
    'a repeated use of the same token returns an error',
    async () => {
      const { uri } = await freshRequest();
      expectOk(await payee().retrieve(uri), 'the first retrieval');
      expectError(await payee().retrieve(uri), 'the second retrieval');
    },
  );

  check(
    'repeated-use-answers-410-code-token-consumed',
    ['PRF-2-TOKEN-CONSUMED-410'],
    'a repeated use answers 410 with code TOKEN_CONSUMED',
    async () => {
      const { uri } = await freshRequest();
      expectOk(await payee().retrieve(uri), 'the first retrieval');
      const again = await payee().retrieve(uri);
      expectErrorCode(again, 'TOKEN_CONSUMED', 'the second retrieval');
      expectStatus(again, 410, 'the second retrieval');
    },
  );

  check(
    'token-expires-within-15-minutes',
    ['CPR-5-TOKEN-WINDOW-15-MIN'],
    'a token expires within 15 minutes',
    async () => {
      const { token_expires_at } = await freshRequest();
      if (token_expires_at === undefined) skip('the harness does not report token_expires_at');
      const seconds = (Date.parse(token_expires_at) - Date.now()) / 1000;
      assertThat(
        Number.isFinite(seconds),
        `token_expires_at is not a timestamp: ${JSON.stringify(token_expires_at)}`,
      );
      assertThat(seconds <= 15 * 60 + 5, `the token lives ${Math.round(seconds)} s, more than 15 minutes`);
    },
  );

  check(
    'cpr-served-over-plain-http',
    ['CPR-5-PAYLOAD-TLS-ONLY'],
    'no CPR is served over plain HTTP',
    async () => {
      const p = payee();
      if (!p.retrievePlainHttp) skip('no plain-HTTP address is configured (payee.plain_http_url)');
      const { uri } = await freshRequest();
      const r = await p.retrievePlainHttp(tokenOf(uri));
      assertThat(
        !r.answered ||
          !(r.status !== undefined && r.status >= 200 && r.status < 300 && r.servedJson !== undefined),
        `the payee served a JSON body over plain HTTP (HTTP ${r.answered ? r.status : ''})`,
      );
    },
  );
});
