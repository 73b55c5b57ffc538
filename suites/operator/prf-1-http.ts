/**
 * Profile section 1 over HTTP: every error of every endpoint (CP 4 endpoints, well-known
 * resources, the profile 4 harness) is a 4xx with the error body `{"error": {"code", "message"}}`,
 * also for requests the suite's other checks never send: a method the endpoint does not take,
 * and a body larger than the Operator takes. What the Operator answers is free (405 or 400, a
 * size limit or none, taking the request anyway); only an error answer's form is checked.
 */

import type { OperatorRawEndpoint, OperatorResult } from '../_lib/index.js';
import { assertThat, check, skip } from '../_lib/index.js';
import { lockRequest, type OperatorSetup, schemaProblems, setup } from './_support/index.js';

/**
 * PROFILE: the answer is a success, or an error with a 4xx status and the profile 1 error body
 * (a 3xx, a 5xx, a body that is not JSON or not the error object already fail in the driver).
 */
function expectSuccessOrProfileError(r: OperatorResult, what: string): void {
  if (r.ok) return;
  const status = r.status ?? r.error?.status;
  assertThat(
    status !== undefined && status >= 400 && status < 500,
    `${what}: an error is a 4xx (got HTTP ${status ?? 'no status'})`,
  );
  const problems = schemaProblems('cashpack/error-body', r.body);
  assertThat(
    problems.length === 0,
    `${what}: the error body is {"error": {"code", "message"}} with a profile code and a non-empty message: ${problems.join('; ')}`,
  );
}

/** The raw request of the default HTTPS driver, or a skip (a custom binding has its own paths). */
function rawRequest(s: OperatorSetup): NonNullable<OperatorSetup['op']['rawRequest']> {
  return s.op.rawRequest?.bind(s.op) ?? skip('the driver does not expose the HTTP paths (custom binding)');
}

const PATHS: Record<OperatorRawEndpoint, string> = {
  issue: 'POST /v1/cashpack/issue',
  renew: 'POST /v1/cashpack/renew',
  redeem: 'POST /v1/cashpack/redeem',
  status: 'GET /v1/cashpack/{pack_id}/status',
  policy: 'GET /.well-known/cashpack-policy.json',
  pubkey: 'GET /.well-known/cashpack-pubkey.json',
  expire: 'POST {harness}/expire',
  cancel: 'POST {harness}/cancel',
};

describe('Profile section 1: error answers of every endpoint', () => {
  check(
    'method-endpoint-does-not-take-error-body',
    ['PRF-1-ERROR-BODY'],
    'a method an endpoint does not take is answered, when refused, with a 4xx and the error body (issue, renew, redeem, status, well-known resources, harness)',
    async () => {
      const s = await setup();
      const raw = rawRequest(s);
      const endpoints: OperatorRawEndpoint[] = ['issue', 'renew', 'redeem', 'status', 'policy', 'pubkey'];
      // the harness is optional (its expire and cancel are endpoints of the profile when present)
      if (s.op.harness !== undefined) endpoints.push('expire', 'cancel');
      for (const endpoint of endpoints) {
        const taken = PATHS[endpoint].split(' ')[0];
        const others =
          taken === 'POST' ? (['GET', 'PUT', 'DELETE'] as const) : (['POST', 'PUT', 'DELETE'] as const);
        for (const method of others) {
          const r = await raw(method, endpoint, method === 'GET' ? undefined : '{}');
          expectSuccessOrProfileError(r, `${method} to ${PATHS[endpoint].split(' ')[1]}`);
        }
      }
    },
  );

  check(
    'oversized-body-refused-error-body-or-taken',
    ['PRF-1-ERROR-BODY'],
    'a request body of 100 kB (JSON padded with white space) is taken, or refused with a 4xx and the error body (issue, renew, redeem)',
    async () => {
      const s = await setup();
      const raw = rawRequest(s);
      const padding = ' '.repeat(100_000);
      // issue: a valid Lock Request (taking it issues a pack); renew and redeem: an empty object
      // (taking it refuses it as a schema failure): either way an error has the profile's form
      const bodies = {
        issue: JSON.stringify(lockRequest(s).request),
        renew: '{}',
        redeem: '{}',
      } as const;
      for (const endpoint of ['issue', 'renew', 'redeem'] as const) {
        const r = await raw('POST', endpoint, `${bodies[endpoint]}${padding}`);
        expectSuccessOrProfileError(r, `POST ${PATHS[endpoint].split(' ')[1]} with a 100 kB body`);
      }
    },
  );
});
