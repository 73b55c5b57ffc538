/**
 * Profile section 1 at the wallet's HTTP harness: a request the profile does not define (a method
 * `{harness}/derive` does not take, a path that is no endpoint) is answered with a 4xx and the
 * error body; its status and code are the wallet's choice (405 `METHOD_NOT_ALLOWED`, 404
 * `NOT_FOUND`, 400 `INVALID_REQUEST`, ...), so only the form is graded, and that no Payment rides
 * in it. The stdio form has no methods or paths: the check is registered for the HTTP channel only.
 */
import { randomUUID } from 'node:crypto';
import {
  assertThat,
  check,
  describeUndefinedRequest,
  forEachWalletChannel,
  skip,
  type UndefinedRequest,
  undefinedRequestProblems,
} from '../_lib/index.js';
import { baseCpr, deriveContext } from './_support/index.js';

describe('Profile section 1: requests the profile does not define (wallet harness)', () => {
  forEachWalletChannel((wallet, channel) => {
    if (channel !== 'http') return;
    check(
      'undefined-request-4xx-error-body',
      ['PRF-1-UNDEFINED-REQUEST-ERROR'],
      'a method {harness}/derive does not take (GET, PUT, PATCH, DELETE) and a path that is no endpoint are answered with a 4xx and the error body, whatever its status and code, and carry no Payment',
      async () => {
        const send =
          wallet.undefinedRequest?.bind(wallet) ??
          skip('the driver does not send requests outside the profile (custom binding)');
        // a derivation the wallet would answer with a Payment, so that a router ignoring the
        // method shows as a success
        const body = JSON.stringify({ cpr: await baseCpr(wallet), context: deriveContext() });
        const id = randomUUID();
        const requests: UndefinedRequest[] = [
          ...(['GET', 'PUT', 'PATCH', 'DELETE'] as const).map(
            (method): UndefinedRequest => ({
              method,
              base: 'harness',
              path: 'derive',
              ...(method === 'PUT' || method === 'PATCH' ? { body } : {}),
            }),
          ),
          { method: 'GET', base: 'harness', path: `no-such-endpoint-${id}` },
          { method: 'POST', base: 'harness', path: `no-such-endpoint-${id}`, body },
          { method: 'POST', base: 'harness', path: `derive/${id}`, body },
        ];
        const problems: string[] = [];
        for (const req of requests)
          problems.push(...undefinedRequestProblems(await send(req), describeUndefinedRequest(req)));
        assertThat(
          problems.length === 0,
          `each of ${requests.length} requests the profile does not define is answered with a 4xx and the error body (any status and code) and no Payment; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
        );
      },
    );
  });
});
