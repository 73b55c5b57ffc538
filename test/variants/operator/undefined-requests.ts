/**
 * Permitted variants of profile 1: a request the profile does not define is answered with a 4xx
 * and the error body; its status and code are the implementation's choice.
 */
import { startFrontedOperator } from '../../broken/operator/_front.js';
import { undefinedKind } from '../../broken/operator/undefined-requests.js';
import type { PermittedVariant } from '../../broken/types.js';

const CLAUSE =
  'profile 1: "A request this profile does not define ... is answered with a 4xx and the error body as well; its status and code are the implementation\'s choice"';

/** 405 METHOD_NOT_ALLOWED with an Allow header for a method; 404 NOT_FOUND for a path. */
export const undefinedMethodNotAllowed: PermittedVariant = {
  id: 'operator-variant-undefined-405-method-not-allowed',
  target: 'operator',
  choice:
    'a method an endpoint does not take is answered 405 METHOD_NOT_ALLOWED with an Allow header, a path that is no endpoint 404 NOT_FOUND',
  clause: CLAUSE,
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path) => {
      const u = undefinedKind(req, path);
      if (u === undefined) return undefined;
      return u.kind === 'method'
        ? {
            status: 405,
            contentType: 'application/json',
            headers: { allow: u.takes },
            body: JSON.stringify({ error: { code: 'METHOD_NOT_ALLOWED', message: `use ${u.takes}` } }),
          }
        : {
            status: 404,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'NOT_FOUND', message: `no endpoint at ${path}` } }),
          };
    }),
};

/** 404 NOT_FOUND for both kinds. */
export const undefinedNotFound: PermittedVariant = {
  id: 'operator-variant-undefined-404-not-found',
  target: 'operator',
  choice: 'a method an endpoint does not take and a path that is no endpoint are both answered 404 NOT_FOUND',
  clause: CLAUSE,
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path) =>
      undefinedKind(req, path) === undefined
        ? undefined
        : {
            status: 404,
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({ error: { code: 'NOT_FOUND', message: `no ${req.method} ${path} here` } }),
          },
    ),
};

/** 400 INVALID_REQUEST for both kinds. */
export const undefinedInvalidRequest: PermittedVariant = {
  id: 'operator-variant-undefined-400-invalid-request',
  target: 'operator',
  choice:
    'a method an endpoint does not take and a path that is no endpoint are both answered 400 INVALID_REQUEST',
  clause: CLAUSE,
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (req, path) =>
      undefinedKind(req, path) === undefined
        ? undefined
        : {
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              error: {
                code: 'INVALID_REQUEST',
                message: `${req.method} ${path} is not a request of this api`,
              },
            }),
          },
    ),
};

/** No test clock, and POST {harness}/clock (then no endpoint) answered 400 INVALID_REQUEST. */
export const noClockInvalidRequest: PermittedVariant = {
  id: 'operator-variant-no-clock-400',
  target: 'operator',
  choice:
    'the harness has no test clock and answers POST {harness}/clock, a path that is then no endpoint, with 400 INVALID_REQUEST (not 404)',
  clause: `profile 4: the test clock is optional; ${CLAUSE}`,
  start: ({ workDir }) =>
    startFrontedOperator(workDir, (_req, path) =>
      path === '/harness/clock'
        ? {
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({
              error: { code: 'INVALID_REQUEST', message: 'this harness has no clock' },
            }),
          }
        : undefined,
    ),
};
