/**
 * Profile section 1 over HTTP: every error of every endpoint (CP 4 endpoints, well-known
 * resources, the profile 4 harness) is a 4xx with the error body `{"error": {"code", "message"}}`,
 * also for requests the suite's other checks never send. A request the profile does not define (a
 * method an endpoint does not take, a path that is no endpoint) is answered with a 4xx and the
 * error body too; its status and code are the Operator's choice (405 `METHOD_NOT_ALLOWED`, 404
 * `NOT_FOUND`, 400 `INVALID_REQUEST`, ...), so only the form is graded, and that no pack data
 * rides in it. A body larger than the Operator takes is a defined request: it may be taken, or
 * refused with a 4xx and the error body.
 */

import { randomUUID } from 'node:crypto';
import type { CashPack } from '../../src/generated/cashpack/cashpack.js';
import type { OperatorRawEndpoint, OperatorResult, UndefinedRequest } from '../_lib/index.js';
import {
  assertThat,
  check,
  describeUndefinedRequest,
  skip,
  undefinedRequestProblems,
} from '../_lib/index.js';
import { issue, lockRequest, type OperatorSetup, schemaProblems, setup } from './_support/index.js';

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

/** The driver's way to send a request profile 1 does not define, or a skip (a custom binding). */
function undefinedRequests(s: OperatorSetup): NonNullable<OperatorSetup['op']['undefinedRequest']> {
  return (
    s.op.undefinedRequest?.bind(s.op) ??
    skip('the driver does not send requests outside the profile (custom binding)')
  );
}

/** Values of a pack that no answer to another request carries. */
function packSecrets(pack: CashPack): string[] {
  return [pack.chain_digest, pack.signature, pack.current_bearer_pk].filter(
    (v): v is string => typeof v === 'string',
  );
}

/** Sends each request and fails on every answer that is not a 4xx error body free of pack data. */
async function expectUndefinedAnswers(
  send: NonNullable<OperatorSetup['op']['undefinedRequest']>,
  requests: readonly UndefinedRequest[],
  secrets: readonly string[],
): Promise<void> {
  const problems: string[] = [];
  for (const req of requests) {
    problems.push(...undefinedRequestProblems(await send(req), describeUndefinedRequest(req), secrets));
  }
  assertThat(
    problems.length === 0,
    `each of ${requests.length} requests the profile does not define is answered with a 4xx and the error body (any status and code); ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
  );
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
    ['PRF-1-UNDEFINED-REQUEST-ERROR'],
    'a method an endpoint does not take is answered with a 4xx and the error body, whatever its status and code (issue, renew, redeem, status, well-known resources, harness), and carries no pack data',
    async () => {
      const s = await setup();
      const send = undefinedRequests(s);
      const { pack } = await issue(s);
      const secrets = packSecrets(pack);
      const packId = String(pack.pack_id);
      // bodies a router that ignores the method would act on (a fresh valid Lock Request, the
      // pack's id for the harness), so that taking the request shows as a success
      const bodyFor = (path: string): string =>
        path === 'v1/cashpack/issue'
          ? JSON.stringify(lockRequest(s).request)
          : path.startsWith('v1/cashpack/')
            ? '{}'
            : JSON.stringify({ pack_id: packId });
      const posts: [UndefinedRequest['base'], string][] = [
        ['api', 'v1/cashpack/issue'],
        ['api', 'v1/cashpack/renew'],
        ['api', 'v1/cashpack/redeem'],
      ];
      // the harness is optional (its expire and cancel are endpoints of the profile when present)
      if (s.op.harness !== undefined) posts.push(['harness', 'expire'], ['harness', 'cancel']);
      const gets = [
        `v1/cashpack/${encodeURIComponent(packId)}/status`,
        '.well-known/cashpack-policy.json',
        '.well-known/cashpack-pubkey.json',
      ];
      const requests: UndefinedRequest[] = [
        ...posts.flatMap(([base, path]) =>
          (['GET', 'PUT', 'PATCH', 'DELETE'] as const).map(
            (method): UndefinedRequest => ({
              method,
              base,
              path,
              ...(method === 'GET' || method === 'DELETE' ? {} : { body: bodyFor(path) }),
            }),
          ),
        ),
        ...gets.flatMap((path) =>
          (['POST', 'PUT', 'PATCH', 'DELETE'] as const).map(
            (method): UndefinedRequest => ({
              method,
              base: 'api',
              path,
              ...(method === 'DELETE' ? {} : { body: '{}' }),
            }),
          ),
        ),
      ];
      await expectUndefinedAnswers(send, requests, secrets);
    },
  );

  check(
    'path-no-endpoint-error-body',
    ['PRF-1-UNDEFINED-REQUEST-ERROR'],
    'a path that is no endpoint (under /v1/cashpack/, /.well-known/, the root and the harness) is answered with a 4xx and the error body, whatever its status and code, and carries no pack data',
    async () => {
      const s = await setup();
      const send = undefinedRequests(s);
      const { pack } = await issue(s);
      const id = randomUUID();
      const paths: [UndefinedRequest['base'], string][] = [
        ['api', `v1/cashpack/${id}`],
        ['api', `v1/cashpack/${encodeURIComponent(String(pack.pack_id))}/history`],
        ['api', `v1/cashpack/transfer-${id}`],
        ['api', `.well-known/cashpack-${id}.json`],
        ['api', id],
      ];
      if (s.op.harness !== undefined) paths.push(['harness', `no-such-endpoint-${id}`]);
      const requests = paths.flatMap(([base, path]) => [
        { method: 'GET', base, path } as UndefinedRequest,
        { method: 'POST', base, path, body: '{}' } as UndefinedRequest,
      ]);
      await expectUndefinedAnswers(send, requests, packSecrets(pack));
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
