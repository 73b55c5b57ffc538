/**
 * Profile 1 broken for requests the profile does not define (a method an endpoint does not take,
 * a path that is no endpoint): each must be answered with a 4xx and the error body, whatever its
 * status and code. The faults sit in a front before the reference Operator (its routing layer).
 */
import type { IncomingMessage } from 'node:http';
import type { BrokenImplementation } from '../types.js';
import { type FrontAnswer, startFrontedOperator } from './_front.js';

/** The POST endpoints of CP 4 and the profile 4 harness. */
const POST_ONLY: ReadonlySet<string> = new Set([
  '/v1/cashpack/issue',
  '/v1/cashpack/renew',
  '/v1/cashpack/redeem',
  '/harness/expire',
  '/harness/cancel',
  '/harness/clock',
  '/harness/balance',
]);

/** The GET endpoints: the status path of any pack id and the two well-known resources. */
function isGetEndpoint(path: string): boolean {
  return (
    path === '/.well-known/cashpack-policy.json' ||
    path === '/.well-known/cashpack-pubkey.json' ||
    /^\/v1\/cashpack\/[^/]+\/status$/.test(path)
  );
}

/**
 * What makes a request one the profile does not define: `method` (an endpoint that takes another
 * method; `takes` names it) or `path` (no endpoint); undefined for a request of the profile.
 */
export function undefinedKind(
  req: IncomingMessage,
  path: string,
): { kind: 'method'; takes: 'GET' | 'POST' } | { kind: 'path' } | undefined {
  const takes = POST_ONLY.has(path) ? 'POST' : isGetEndpoint(path) ? 'GET' : undefined;
  if (takes === undefined) return { kind: 'path' };
  return req.method === takes ? undefined : { kind: 'method', takes };
}

/** A JSON answer of the front. */
function json(status: number, body: unknown, headers?: Record<string, string>): FrontAnswer {
  return {
    status,
    contentType: 'application/json',
    body: JSON.stringify(body),
    ...(headers ? { headers } : {}),
  };
}

/** A path that is no endpoint answers 200 with a JSON object (a catch-all route). */
export const unknownPath200: BrokenImplementation = {
  id: 'operator-unknown-path-200',
  target: 'operator',
  fault:
    'a path that is no endpoint is answered 200 {"ok": true} by a catch-all route instead of a 4xx error body',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path) =>
      undefinedKind(req, path)?.kind === 'path' ? json(200, { ok: true }) : undefined,
    ),
};

/** Every request the profile does not define ends in a 500 (the framework's unhandled route). */
export const undefinedRequest500: BrokenImplementation = {
  id: 'operator-undefined-request-500',
  target: 'operator',
  fault:
    'a method an endpoint does not take and a path that is no endpoint are answered 500 INTERNAL_ERROR (with the error body) instead of a 4xx',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path) =>
      undefinedKind(req, path) === undefined
        ? undefined
        : json(500, { error: { code: 'INTERNAL_ERROR', message: `no route for ${req.method} ${path}` } }),
    ),
};

/** A method an endpoint does not take is refused with the request body echoed back beside the error. */
export const undefinedMethodEchoesBody: BrokenImplementation = {
  id: 'operator-undefined-method-echoes-body',
  target: 'operator',
  fault:
    'a method an endpoint does not take is answered 405 METHOD_NOT_ALLOWED with the error body and the request it refused echoed back (a Lock Request: request_id, principal_id, amount, expires_at)',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path, body) => {
      if (undefinedKind(req, path)?.kind !== 'method') return undefined;
      let echoed: unknown = null;
      try {
        echoed = JSON.parse(body.toString('utf8'));
      } catch {
        echoed = null;
      }
      return json(405, {
        error: { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed here` },
        request: echoed,
      });
    }),
};
