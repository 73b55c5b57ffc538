/**
 * Payee suite, profile section 1: a request the profile does not define (a method an endpoint does
 * not take, a path that is no endpoint) is answered with a 4xx and the error body; its status and
 * code are the payee's choice (405 `METHOD_NOT_ALLOWED`, 404 `NOT_FOUND`, 400 `INVALID_REQUEST`,
 * ...), so only the form is graded, and that no CPR data rides in it. The methods are sent to a
 * live token (a router that ignores the method would serve its CPR) and to the harness endpoints
 * with bodies they would act on; the CPR of that token is retrieved afterwards, when it still can
 * be, and looked for in every answer.
 */
import { randomUUID } from 'node:crypto';
import {
  assertThat,
  check,
  describeUndefinedRequest,
  payee,
  skip,
  type UndefinedRequest,
  undefinedRequestProblems,
} from '../_lib/index.js';
import { cprLeaks, referenceRequest } from './_support/index.js';

describe('profile section 1: requests the profile does not define', () => {
  check(
    'undefined-request-4xx-error-body',
    ['PRF-1-UNDEFINED-REQUEST-ERROR'],
    'a method an endpoint does not take (CPR retrieval, harness requests, fulfillments, clock) and a path that is no endpoint are answered with a 4xx and the error body, whatever its status and code, and carry no CPR data',
    async () => {
      const p = payee();
      const send =
        p.undefinedRequest?.bind(p) ??
        skip('the driver does not send requests outside the profile (custom binding)');
      const hasHarness = p.harness !== undefined;
      // live tokens, when the harness can make them: one for the methods, one for the paths
      const live = hasHarness
        ? (await referenceRequest({ memo: 'Undefined requests' })).ref.token
        : randomUUID().replace(/-/g, '');
      const other = hasHarness
        ? (await referenceRequest({ memo: 'Undefined paths' })).ref.token
        : randomUUID().replace(/-/g, '');
      const id = randomUUID();
      const requests: UndefinedRequest[] = [
        ...(['POST', 'PUT', 'PATCH', 'DELETE'] as const).map(
          (method): UndefinedRequest => ({
            method,
            base: 'api',
            path: `cpr/${live}`,
            ...(method === 'DELETE' ? {} : { body: '{}' }),
          }),
        ),
        { method: 'GET', base: 'api', path: 'cpr' },
        { method: 'GET', base: 'api', path: `cpr/${other}/${id}` },
        { method: 'GET', base: 'api', path: id },
        { method: 'POST', base: 'api', path: `no-such-endpoint-${id}`, body: '{}' },
      ];
      if (hasHarness) {
        // bodies the endpoints would act on, so that a router ignoring the method shows as a success
        const bodies: Record<string, string> = {
          requests: JSON.stringify({ delivery: 'inline', memo: 'Sent with another method' }),
          fulfillments: JSON.stringify({ request_id: randomUUID() }),
          clock: JSON.stringify({ advance_seconds: 0 }),
        };
        for (const [path, body] of Object.entries(bodies)) {
          for (const method of ['GET', 'PUT', 'PATCH', 'DELETE'] as const)
            requests.push({
              method,
              base: 'harness',
              path,
              ...(method === 'PUT' || method === 'PATCH' ? { body } : {}),
            });
        }
        requests.push(
          { method: 'GET', base: 'harness', path: `no-such-endpoint-${id}` },
          { method: 'POST', base: 'harness', path: `no-such-endpoint-${id}`, body: '{}' },
        );
      }
      const answers = [];
      for (const req of requests) answers.push({ req, answer: await send(req) });
      // the CPR behind the live token, if it still serves it: no answer above may carry it
      const served = hasHarness ? await p.retrieve(live) : undefined;
      const cpr = served?.ok ? served.cpr : undefined;
      const problems: string[] = [];
      for (const { req, answer } of answers) {
        const what = describeUndefinedRequest(req);
        problems.push(...undefinedRequestProblems(answer, what));
        problems.push(...cprLeaks(answer.json ?? answer.text, cpr).map((l) => `${what}: ${l}`));
      }
      assertThat(
        problems.length === 0,
        `each of ${requests.length} requests the profile does not define is answered with a 4xx and the error body (any status and code) and no CPR data; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
    },
  );
});
