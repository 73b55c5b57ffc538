/**
 * Payee suite, spec 5 and 8 with profiles 1 and 2: only a successful `GET {base_url}/cpr/{token}`
 * spends a token. Every other request that names a live token (another method on its retrieval
 * path: HEAD, OPTIONS, POST, PUT, PATCH, DELETE; a GET of another path holding the token: a path
 * that extends it, a suffix or prefix on it, the token as a query or at the root) must neither
 * consume it nor serve it: the exact GET that follows still answers 200 with the CPR ("exactly
 * one successful retrieval", spec 8). Each request is answered as profile 1 asks of a request it
 * does not define: a 4xx with the error body and no CPR data (its status and code are free).
 *
 * Readings (ambiguity register AMB-42, AMB-43): a spelling a server may treat as the same
 * resource (a trailing `/`, `/CPR/` for `/cpr/`, a doubled `/`, the token upper-cased) may be
 * refused like any other path or served as that token's one retrieval (then the exact GET that
 * follows gets 410); a HEAD or OPTIONS answered 2xx without spending the token and without CPR
 * data is a warning (RFC 9110 defines both for any resource; profile 1 asks for a 4xx).
 */

import { isObject } from '../../src/model/util.js';
import {
  assertThat,
  check,
  describeUndefinedRequest,
  payee,
  sharedState,
  skip,
  type UndefinedRequest,
  undefinedRequestProblems,
  warn,
} from '../_lib/index.js';
import { cprLeaks, inBatches, referenceRequest, sharedOnce } from './_support/index.js';

// These checks judge the probes of the retrieval route, built once per process (`cprc run
// --jobs` runs them in one process: suites/_lib sharedWork).
sharedState('payee:retrieval-probes', [
  'only-get-exact-retrieval-path-spends-token',
  'requests-naming-token-answered-4xx-error-body',
  'head-options-retrieval-path-4xx',
]);

/** One request naming a live token; `alias` when a server may read its path as the token's own. */
interface Probe {
  req: (token: string) => UndefinedRequest;
  alias?: true;
}

const api = (method: UndefinedRequest['method'], path: string, body?: string): UndefinedRequest => ({
  method,
  base: 'api',
  path,
  ...(body === undefined ? {} : { body }),
});

const PROBES: readonly Probe[] = [
  // another method on the retrieval path
  { req: (t) => api('HEAD', `cpr/${t}`) },
  { req: (t) => api('OPTIONS', `cpr/${t}`) },
  { req: (t) => api('POST', `cpr/${t}`, '{}') },
  { req: (t) => api('PUT', `cpr/${t}`, '{}') },
  { req: (t) => api('PATCH', `cpr/${t}`, '{}') },
  { req: (t) => api('DELETE', `cpr/${t}`) },
  // a GET of a path that extends or changes the token
  { req: (t) => api('GET', `cpr/${t}/x`) },
  { req: (t) => api('GET', `cpr/${t}/cpr/${t}`) },
  { req: (t) => api('GET', `cpr/${t}.json`) },
  { req: (t) => api('GET', `cpr/${t}%2Fx`) },
  { req: (t) => api('GET', `cpr/${t};x`) },
  { req: (t) => api('GET', `cpr/${t}0`) },
  { req: (t) => api('GET', `cpr/0${t}`) },
  { req: (t) => api('GET', `cpr/${t.slice(0, -1)}`) },
  // a GET of another path holding the token
  { req: (t) => api('GET', `cpr/x/${t}`) },
  { req: (t) => api('GET', `x/cpr/${t}`) },
  { req: (t) => api('GET', t) },
  { req: (t) => api('GET', `cpr?token=${t}`) },
  // spellings a server may read as the same resource
  { req: (t) => api('GET', `cpr/${t}/`), alias: true },
  { req: (t) => api('GET', `CPR/${t}`), alias: true },
  { req: (t) => api('GET', `cpr//${t}`), alias: true },
  { req: (t) => api('GET', `cpr/${t.toUpperCase()}`), alias: true },
];

/** What one probe did: the answer, and the exact GET of the token that followed. */
interface ProbeRun {
  what: string;
  probe: Probe;
  answer: Awaited<ReturnType<NonNullable<ReturnType<typeof payee>['undefinedRequest']>>>;
  /** The answer served the CPR (2xx with a CPR document). */
  served: boolean;
  follow: Awaited<ReturnType<ReturnType<typeof payee>['retrieve']>>;
}

const isCpr = (v: unknown): boolean => isObject(v) && typeof v.cpr_version === 'string';

/** Sends every probe to a fresh token of its own and retrieves that token afterwards; once per run. */
const probeRuns = sharedOnce('payee:retrieval-probes', 'probe-runs', async (): Promise<ProbeRun[]> => {
  const p = payee();
  const send =
    p.undefinedRequest?.bind(p) ??
    skip('the driver does not send requests outside the profile (custom binding)');
  if (p.harness === undefined)
    skip('the payee harness is not configured (payee.harness_url): no live token to probe');
  return inBatches(PROBES, 4, async (probe): Promise<ProbeRun> => {
    const r = await referenceRequest({ memo: 'Exact retrieval route' });
    const req = probe.req(r.ref.token);
    const answer = await send(req);
    const follow = await p.retrieve(r.uri);
    const served = answer.status >= 200 && answer.status < 300 && isCpr(answer.json);
    return { what: describeUndefinedRequest(req), probe, answer, served, follow };
  });
});

const followText = (f: ProbeRun['follow']): string =>
  f.ok
    ? `HTTP ${f.status ?? 200} with a CPR`
    : [f.error.status && `HTTP ${f.error.status}`, f.error.code].filter(Boolean).join(' ') || 'an error';

describe('spec 5, 8 and profiles 1, 2: only a successful GET of exactly /cpr/{token} spends the token', () => {
  check(
    'only-get-exact-retrieval-path-spends-token',
    ['CPR-8-TOKEN-USES', 'PRF-2-RETRIEVAL-200'],
    'a HEAD, OPTIONS, POST, PUT, PATCH or DELETE of /cpr/{token}, or a GET of another path holding the token (extended, suffixed, prefixed, truncated, in a query), leaves the token unspent: the GET of /cpr/{token} that follows answers 200 with the CPR; a spelling served as the token itself spends it (then 410)',
    async () => {
      const problems: string[] = [];
      const runs = await probeRuns();
      for (const run of runs) {
        if (run.probe.alias && run.served) {
          if (run.follow.ok || run.follow.error.status !== 410)
            problems.push(
              `${run.what} served the CPR and the GET of /cpr/{token} that followed got ${followText(run.follow)}: two successful retrievals of one token`,
            );
          continue;
        }
        if (!run.follow.ok || !isCpr(run.follow.cpr))
          problems.push(
            `${run.what} was answered HTTP ${run.answer.status}; the GET of /cpr/{token} that followed got ${followText(run.follow)}: the token was spent without a successful retrieval`,
          );
      }
      assertThat(
        problems.length === 0,
        `each of ${runs.length} requests naming a live token leaves it to the one GET of /cpr/{token}; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
    },
  );

  check(
    'requests-naming-token-answered-4xx-error-body',
    ['PRF-1-UNDEFINED-REQUEST-ERROR'],
    'a POST, PUT, PATCH or DELETE of /cpr/{token} and a GET of another path holding the token are answered with a 4xx and the error body (any status and code) and carry no CPR data; a spelling of the path a server may read as the token itself may also serve it',
    async () => {
      const problems: string[] = [];
      const runs = (await probeRuns()).filter(
        (r) => r.probe.req('t').method !== 'HEAD' && r.probe.req('t').method !== 'OPTIONS',
      );
      for (const run of runs) {
        if (run.probe.alias && run.served) continue; // AMB-42: read as the token's own retrieval
        const cpr = run.follow.ok ? run.follow.cpr : undefined;
        problems.push(...undefinedRequestProblems(run.answer, run.what));
        problems.push(...cprLeaks(run.answer.json ?? run.answer.text, cpr).map((l) => `${run.what}: ${l}`));
      }
      assertThat(
        problems.length === 0,
        `each of ${runs.length} requests naming a live token is answered with a 4xx and the error body and no CPR data; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
    },
  );

  check(
    'head-options-retrieval-path-4xx',
    ['PRF-1-UNDEFINED-REQUEST-ERROR'],
    'a HEAD of /cpr/{token} is answered with a 4xx (a HEAD answer has no body: only its status is graded), an OPTIONS with a 4xx and the error body; either answered 2xx without spending the token or showing CPR data is a warning (AMB-43)',
    async () => {
      const problems: string[] = [];
      const doubtful: string[] = [];
      for (const run of await probeRuns()) {
        const method = run.probe.req('t').method;
        if (method !== 'HEAD' && method !== 'OPTIONS') continue;
        const { status } = run.answer;
        const cpr = run.follow.ok ? run.follow.cpr : undefined;
        const leaks = cprLeaks(run.answer.json ?? run.answer.text, cpr).map((l) => `${run.what}: ${l}`);
        if (method === 'HEAD' && run.answer.text.length > 0)
          leaks.push(`${run.what}: the HEAD answer has a body`);
        problems.push(...leaks);
        if (status >= 200 && status < 300) {
          doubtful.push(`${run.what} answered HTTP ${status}`);
          continue;
        }
        if (method === 'HEAD') {
          if (status < 400 || status >= 500)
            problems.push(
              `${run.what}: answered HTTP ${status}; a request the profile does not define gets a 4xx`,
            );
        } else problems.push(...undefinedRequestProblems(run.answer, run.what));
      }
      assertThat(
        problems.length === 0,
        `HEAD and OPTIONS of /cpr/{token} are answered with a 4xx (OPTIONS with the error body) and no CPR data; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
      if (doubtful.length > 0)
        warn(
          `${doubtful.join('; ')}: profile 1 answers a method an endpoint does not take with a 4xx (AMB-43: RFC 9110 defines HEAD and OPTIONS for every resource, so a 2xx that spends nothing is graded a warning)`,
        );
    },
  );
});
