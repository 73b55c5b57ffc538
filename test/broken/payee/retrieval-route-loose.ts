/**
 * Spec 5 and 8, profiles 1 and 2 broken at the payee's retrieval route: requests that are not a
 * GET of exactly /cpr/{token} reach the retrieval handler and spend the token. Each fault sits in
 * the payee's routing (`handleHttps`), before the reference's own.
 */
import type { ServerResponse } from 'node:http';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';
import { routingPayee } from './undefined-requests.js';

type Retrieving = { retrieve(token: string, res: ServerResponse): Promise<void> };

/** HEAD /cpr/{token} is routed to the GET handler (as web frameworks do): 200, and the token is spent. */
export const headConsumes: BrokenImplementation = {
  id: 'payee-head-consumes',
  target: 'payee',
  fault: 'HEAD /cpr/{token} is routed to the GET handler: answered 200 (no body) and the token is consumed',
  expected: ['CPR-8-TOKEN-USES', 'PRF-1-UNDEFINED-REQUEST-ERROR', 'PRF-2-RETRIEVAL-200'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee(async (req, res, payee) => {
        const m = /^\/cpr\/([^/]+)$/.exec(new URL(String(req.url), 'https://payee.invalid').pathname);
        if (req.method !== 'HEAD' || m === null) return false;
        req.resume();
        await (payee as unknown as Retrieving).retrieve(m[1] as string, res); // the fault
        return true;
      }),
    ),
};

/** The retrieval route matches by prefix: GET /cpr/{token}/anything serves (and spends) the token. */
export const cprPathPrefixMatch: BrokenImplementation = {
  id: 'payee-cpr-path-prefix-match',
  target: 'payee',
  fault:
    'the retrieval route matches by prefix: GET /cpr/{token}/anything serves the CPR and consumes the token',
  expected: ['CPR-8-TOKEN-USES', 'PRF-1-UNDEFINED-REQUEST-ERROR', 'PRF-2-RETRIEVAL-200'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee(async (req, res, payee) => {
        const m = /^\/cpr\/([^/]+)\/.*$/.exec(new URL(String(req.url), 'https://payee.invalid').pathname);
        if (req.method !== 'GET' || m === null) return false;
        req.resume();
        await (payee as unknown as Retrieving).retrieve(m[1] as string, res); // the fault
        return true;
      }),
    ),
};

/** HEAD /cpr/{token} falls through to an unhandled branch: 500, the token unspent. */
export const headServerError: BrokenImplementation = {
  id: 'payee-head-500',
  target: 'payee',
  fault: 'HEAD /cpr/{token} is answered 500 (an unhandled method), though the token stays unspent',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee((req, res) => {
        const path = new URL(String(req.url), 'https://payee.invalid').pathname;
        if (req.method !== 'HEAD' || !/^\/cpr\/[^/]+$/.test(path)) return false;
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end();
        return true;
      }),
    ),
};
