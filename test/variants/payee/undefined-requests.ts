/**
 * Permitted variants of profile 1 at the payee: a request the profile does not define is answered
 * with a 4xx and the error body; its status and code are the payee's choice.
 */
import { startBrokenPayee } from '../../broken/payee/_start.js';
import { json, routingPayee, undefinedKind } from '../../broken/payee/undefined-requests.js';
import type { PermittedVariant } from '../../broken/types.js';

const CLAUSE =
  'profile 1: "A request this profile does not define ... is answered with a 4xx and the error body as well; its status and code are the implementation\'s choice"';

/** 405 METHOD_NOT_ALLOWED with an Allow header for a method; 404 NOT_FOUND for a path. */
export const undefinedMethodNotAllowed: PermittedVariant = {
  id: 'payee-variant-undefined-405-method-not-allowed',
  target: 'payee',
  choice:
    'a method an endpoint does not take is answered 405 METHOD_NOT_ALLOWED with an Allow header, a path that is no endpoint 404 NOT_FOUND',
  clause: CLAUSE,
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee((req, res) => {
        const u = undefinedKind(req);
        if (u === undefined) return false;
        req.resume();
        if (u.kind === 'method')
          json(
            res,
            405,
            { error: { code: 'METHOD_NOT_ALLOWED', message: `use ${u.takes}` } },
            { allow: u.takes },
          );
        else json(res, 404, { error: { code: 'NOT_FOUND', message: 'no endpoint here' } });
        return true;
      }),
    ),
};

/** 400 INVALID_REQUEST for both kinds. */
export const undefinedInvalidRequest: PermittedVariant = {
  id: 'payee-variant-undefined-400-invalid-request',
  target: 'payee',
  choice:
    'a method an endpoint does not take and a path that is no endpoint are both answered 400 INVALID_REQUEST',
  clause: CLAUSE,
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee((req, res) => {
        if (undefinedKind(req) === undefined) return false;
        req.resume();
        json(res, 400, {
          error: {
            code: 'INVALID_REQUEST',
            message: `${req.method} ${req.url} is not a request of this api`,
          },
        });
        return true;
      }),
    ),
};

/** No test clock, and POST {harness}/clock (then no endpoint) answered 400 INVALID_REQUEST. */
export const noClockInvalidRequest: PermittedVariant = {
  id: 'payee-variant-no-clock-400',
  target: 'payee',
  choice:
    'the harness has no test clock and answers POST {harness}/clock, a path that is then no endpoint, with 400 INVALID_REQUEST (not 404)',
  clause: `profile 2: the test clock is optional; ${CLAUSE}`,
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      { testClock: false },
      routingPayee((req, res) => {
        if (new URL(String(req.url), 'https://payee.invalid').pathname !== '/harness/clock') return false;
        req.resume();
        json(res, 400, { error: { code: 'INVALID_REQUEST', message: 'this harness has no clock' } });
        return true;
      }),
    ),
};
