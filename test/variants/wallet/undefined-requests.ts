/**
 * Permitted variants of profile 1 at the wallet's HTTP harness: a request the profile does not
 * define is answered with a 4xx and the error body; its status and code are the wallet's choice.
 */
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { jsonAnswer } from '../../broken/wallet/harness.js';
import { walletVariant } from './harness.js';

const CLAUSE =
  'profile 1: "A request this profile does not define ... is answered with a 4xx and the error body as well; its status and code are the implementation\'s choice"';

/** 405 METHOD_NOT_ALLOWED with an Allow header for a method; 404 NOT_FOUND for a path. */
export const undefinedMethodNotAllowed = walletVariant({
  id: 'wallet-variant-undefined-405-method-not-allowed',
  choice:
    'a method {harness}/derive does not take is answered 405 METHOD_NOT_ALLOWED with an Allow header, a path that is no endpoint 404 NOT_FOUND',
  clause: CLAUSE,
  core: (options) => createWalletCore(options),
  undefinedAnswer: (method, path) => {
    if (path !== '/harness/derive')
      return jsonAnswer(404, { error: { code: 'NOT_FOUND', message: `no endpoint at ${path}` } });
    const a = jsonAnswer(405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${method}: use POST` } });
    return { ...a, headers: { ...a.headers, allow: 'POST' } };
  },
});

/** 400 INVALID_REQUEST for both kinds. */
export const undefinedInvalidRequest = walletVariant({
  id: 'wallet-variant-undefined-400-invalid-request',
  choice:
    'a method {harness}/derive does not take and a path that is no endpoint are both answered 400 INVALID_REQUEST',
  clause: CLAUSE,
  core: (options) => createWalletCore(options),
  undefinedAnswer: (method, path) =>
    jsonAnswer(400, {
      error: { code: 'INVALID_REQUEST', message: `${method} ${path} is not a request of this harness` },
    }),
});
