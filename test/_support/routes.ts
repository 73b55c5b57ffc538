/**
 * Traffic maps (route + status -> schema id) for {@link validateTraffic}, shared by the tests
 * of the reference payee and anyone driving it.
 */
import type { TrafficRoute } from './https.js';

/** Every response of a payee (profile 2) and of its harness, with the schema its body must match. */
export const PAYEE_ROUTES: readonly TrafficRoute[] = [
  { method: 'GET', path: '/cpr/:token', status: 200, schema: 'cpr/cpr-payee' },
  { method: 'POST', path: '/harness/requests', status: 201, schema: 'harness/create-request-response' },
  { method: 'POST', path: '/harness/clock', status: 200, schema: 'harness/clock-response' },
  {
    method: 'POST',
    path: '/harness/fulfillments',
    status: 200,
    schema: null,
    reason: 'profile 2 gives the 200 body of a fulfillment no shape',
  },
  // Profile 1: every error of every endpoint (and of the plain-HTTP listener) is the error body.
  { method: 'GET', path: '/*', status: '4xx', schema: 'cashpack/error-body' },
  { method: 'POST', path: '/*', status: '4xx', schema: 'cashpack/error-body' },
  { method: 'PUT', path: '/*', status: '4xx', schema: 'cashpack/error-body' },
  { method: 'DELETE', path: '/*', status: '4xx', schema: 'cashpack/error-body' },
];
