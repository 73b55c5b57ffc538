/**
 * Payee suite, CPR-1.0 section 4.1 (CPR retrieval) with profile sections 1 and 2: the first use
 * of a token returns the full CPR as JSON.
 */
import { assertThat, check, expectOk, expectStatus, payee, sharedState, skip } from '../_lib/index.js';
import { type CorpusEntry, corpus, deliveryProblems, label, referenceRequest } from './_support/index.js';

// These checks judge the payee's corpus of CPRs, built once per process (`cprc run --jobs` runs them
// in one process: suites/_lib sharedState).
sharedState('payee:corpus', [
  'cpr-served-content-type-application-json-utf',
  'get-base-url-cpr-token-returns-full',
]);

/** The reference-form entries of the corpus; fails on any that yielded no CPR. */
async function retrieved(): Promise<Array<CorpusEntry & { cpr: unknown }>> {
  const entries = (await corpus()).filter((e) => e.form === 'reference');
  const failed = entries.filter((e) => e.cpr === undefined);
  assertThat(
    failed.length === 0,
    `the first use of every fresh token returns the CPR; ${failed.length} of ${entries.length} did not: ${
      failed[0] ? `${label(failed[0])}: ${failed[0].problem}` : ''
    }`,
  );
  return entries as Array<CorpusEntry & { cpr: unknown }>;
}

describe('CPR-1.0 section 4.1: CPR retrieval', () => {
  check(
    'get-base-url-cpr-token-returns-full',
    ['CPR-4.1-RETRIEVAL-PATH', 'CPR-4.1-FULL-CPR'],
    'GET {base_url}/cpr/<token> returns the full CPR JSON (base fields plus sub-interface fields), for every rail',
    async () => {
      const entries = await retrieved();
      const problems = entries.flatMap(deliveryProblems);
      assertThat(
        problems.length === 0,
        `every retrieval serves the full CPR; ${problems.length} problem(s): ${problems.slice(0, 5).join(' | ')}`,
      );
    },
  );

  check(
    'first-use-token-answers-200-cpr',
    ['PRF-2-RETRIEVAL-200'],
    'the first use of a token answers 200 with the CPR',
    async () => {
      const { uri } = await referenceRequest();
      const r = await payee().retrieve(uri);
      const cpr = expectOk(r, 'the first retrieval');
      assertThat(cpr !== null && typeof cpr === 'object' && !Array.isArray(cpr), 'the body is a JSON object');
      expectStatus(r, 200, 'the first retrieval');
    },
  );

  check(
    'cpr-served-content-type-application-json-utf',
    ['CPR-4.1-CONTENT-TYPE', 'PRF-1-JSON-UTF8'],
    'the CPR is served with Content-Type application/json (UTF-8)',
    async () => {
      const entries = await retrieved();
      const withHeaders = entries.filter((e) => e.headers !== undefined);
      if (withHeaders.length === 0) skip('the driver reports no response headers (custom binding)');
      for (const e of withHeaders) {
        const ct = e.headers?.['content-type'] ?? '';
        const [type = '', ...params] = ct.split(';').map((s) => s.trim().toLowerCase());
        assertThat(
          type === 'application/json',
          `${label(e)}: Content-Type is application/json (got ${JSON.stringify(ct)})`,
        );
        const charset = params
          .find((p) => p.startsWith('charset='))
          ?.slice('charset='.length)
          .replace(/"/g, '');
        assertThat(
          charset === undefined || charset === 'utf-8',
          `${label(e)}: the JSON is UTF-8 (Content-Type names charset ${charset})`,
        );
      }
    },
  );
});
