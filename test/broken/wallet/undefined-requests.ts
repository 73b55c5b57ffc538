/**
 * Profile 1 broken at the wallet's HTTP harness for requests the profile does not define: each
 * must be answered with a 4xx and the error body, whatever its status and code.
 */
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, jsonAnswer } from './harness.js';

/** The router ignores the method: GET, PUT, PATCH or DELETE to /harness/derive derives like POST. */
export const undefinedMethodDerives = brokenWallet({
  id: 'wallet-undefined-method-derives',
  fault:
    'the harness router ignores the method: PUT or PATCH to {harness}/derive derives (200 and a Payment) like POST',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  core: (options) => createWalletCore(options),
  undefinedAnswer: (_method, path) => (path === '/harness/derive' ? 'derive' : undefined),
});

/** A path that is no endpoint ends in a 500 (the framework's unhandled route). */
export const unknownPath500 = brokenWallet({
  id: 'wallet-unknown-path-500',
  fault:
    'a path that is no endpoint of the harness is answered 500 INTERNAL_ERROR (with the error body) instead of a 4xx',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  core: (options) => createWalletCore(options),
  undefinedAnswer: (_method, path) =>
    path === '/harness/derive'
      ? undefined
      : jsonAnswer(500, { error: { code: 'INTERNAL_ERROR', message: `no route for ${path}` } }),
});

/** A request the profile does not define gets the web framework's default 404 page. */
export const undefinedFrameworkPage = brokenWallet({
  id: 'wallet-undefined-framework-page',
  fault:
    'a method {harness}/derive does not take and a path that is no endpoint get the web framework\'s default 404 page (text/html "Cannot GET /harness/derive"), not the error body',
  expected: ['PRF-1-UNDEFINED-REQUEST-ERROR'],
  core: (options) => createWalletCore(options),
  undefinedAnswer: (method, path) => {
    const page = `<!DOCTYPE html><html><body><pre>Cannot ${method} ${path}</pre></body></html>`;
    return {
      status: 404,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-length': String(Buffer.byteLength(page)),
      },
      body: page,
    };
  },
});
