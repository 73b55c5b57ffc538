/**
 * Profile 1 broken at the payee for requests the profile does not define (a method an endpoint
 * does not take, a path that is no endpoint): each must be answered with a 4xx and the error body,
 * whatever its status and code, and never with CPR data. Each fault sits in the payee's routing
 * (`handleHttps`), before the reference's own.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { PeekableTokenStore } from './_peek.js';
import { type PayeeClass, startBrokenPayee } from './_start.js';

/** What makes a request one the profile does not define, for the reference payee's endpoints. */
export function undefinedKind(
  req: IncomingMessage,
): { kind: 'method'; takes: 'GET' | 'POST' } | { kind: 'path' } | undefined {
  const path = new URL(String(req.url), 'https://payee.invalid').pathname;
  const takes = /^\/cpr\/[^/]+$/.test(path)
    ? 'GET'
    : ['/harness/requests', '/harness/fulfillments', '/harness/clock'].includes(path)
      ? 'POST'
      : undefined;
  if (takes === undefined) return { kind: 'path' };
  return req.method === takes ? undefined : { kind: 'method', takes };
}

/** Writes a JSON answer. */
export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

/** A payee whose routing answers the requests `answer` takes (returns true), the reference the rest. */
export function routingPayee(
  answer: (req: IncomingMessage, res: ServerResponse, payee: ReferencePayee) => boolean | Promise<boolean>,
): PayeeClass {
  return class extends ReferencePayee {
    protected override async handleHttps(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (await answer(req, res, this)) return;
      return super.handleHttps(req, res);
    }
  };
}

/** The retrieval route ignores the method: POST, PUT, PATCH or DELETE to /cpr/{token} serves the CPR. */
export const undefinedMethodServesCpr: BrokenImplementation = {
  id: 'payee-undefined-method-serves-cpr',
  target: 'payee',
  fault:
    'the retrieval route ignores the method: POST, PUT, PATCH or DELETE to /cpr/{token} serves the CPR (200) like GET',
  // serving spends the token: the exact GET that follows gets 410 (only-get-exact-retrieval-path-spends-token)
  expected: ['CPR-8-TOKEN-USES', 'PRF-1-UNDEFINED-REQUEST-ERROR', 'PRF-2-RETRIEVAL-200'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee(async (req, res, payee) => {
        const u = undefinedKind(req);
        const path = new URL(String(req.url), 'https://payee.invalid').pathname;
        if (u?.kind !== 'method' || u.takes !== 'GET') return false;
        req.resume();
        // the fault: served as the GET it is not
        await (payee as unknown as { retrieve(t: string, r: ServerResponse): Promise<void> }).retrieve(
          path.slice('/cpr/'.length),
          res,
        );
        return true;
      }),
    ),
};

/** A path that is no endpoint ends in a 500 (the framework's unhandled route). */
export const unknownPath500: BrokenImplementation = {
  id: 'payee-unknown-path-500',
  target: 'payee',
  fault: 'a path that is no endpoint is answered 500 INTERNAL_ERROR (with the error body) instead of a 4xx',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee((req, res) => {
        if (undefinedKind(req)?.kind !== 'path') return false;
        req.resume();
        json(res, 500, { error: { code: 'INTERNAL_ERROR', message: 'no route' } });
        return true;
      }),
    ),
};

/** A method /cpr/{token} does not take is refused, with the CPR behind the token in the error body. */
export const undefinedMethodLeaksCpr: BrokenImplementation = {
  id: 'payee-undefined-method-leaks-cpr',
  target: 'payee',
  fault:
    'a method /cpr/{token} does not take is answered 405 METHOD_NOT_ALLOWED with the error body, and the CPR behind the token beside it ("allowed": GET, "resource": the CPR)',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      { tokenStore: new PeekableTokenStore() },
      routingPayee((req, res, payee) => {
        const u = undefinedKind(req);
        if (u?.kind !== 'method' || u.takes !== 'GET') return false;
        req.resume();
        const token = new URL(String(req.url), 'https://payee.invalid').pathname.slice('/cpr/'.length);
        const record = (payee as unknown as { tokens: PeekableTokenStore }).tokens.peek(token);
        json(
          res,
          405,
          {
            error: { code: 'METHOD_NOT_ALLOWED', message: 'use GET' },
            allowed: 'GET',
            resource: record === undefined ? null : JSON.parse(record.body),
          },
          { allow: 'GET' },
        );
        return true;
      }),
    ),
};

/** A request the profile does not define gets the web framework's default 404 page. */
export const undefinedFrameworkPage: BrokenImplementation = {
  id: 'payee-undefined-framework-page',
  target: 'payee',
  fault:
    'a method an endpoint does not take and a path that is no endpoint get the web framework\'s default 404 page (text/html "Cannot PUT /cpr/..."), not the error body',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      routingPayee((req, res) => {
        if (undefinedKind(req) === undefined) return false;
        req.resume();
        const page = `<!DOCTYPE html><html><body><pre>Cannot ${req.method} ${req.url}</pre></body></html>`;
        res.writeHead(404, {
          'content-type': 'text/html; charset=utf-8',
          'content-length': Buffer.byteLength(page),
        });
        res.end(page);
        return true;
      }),
    ),
};
