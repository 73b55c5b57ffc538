/**
 * Broken wallets of the wire: the derivation is the reference's, but the answer to an EXPIRED
 * refusal is not a profile answer (garbage, a redirect, a server error, another media type, a
 * wrong shape, a status that does not go with its code). The suite must end every check that
 * meets such an answer as an error or a failure, never read it as the rejection it stands for.
 */
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { brokenWallet, jsonAnswer, type RawHttpAnswer, refusedWith } from './harness.js';

/** What the suite reports for a wallet whose EXPIRED refusals are unreadable on one channel. */
const EXPIRED_PATH = [
  'CPR-4.4-PARSE-VALIDATE',
  'CPR-7-EXPIRED-REJECTED',
  'CPR-INV-2-EXPIRY-ENFORCEMENT',
  'CPR-INV-7-REJECTS-EXPIRED',
  'CPR-INV-7-VALIDATES-BASE',
  'PRF-1-TIMESTAMP-ANY-OFFSET',
  'PRF-3-DERIVE-ERROR-CODES',
  'CPR-2.9-CONTEXT-FROM-APPLICATION',
  'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
  'CPR-4.4-PAYER-FROM-APPLICATION',
  'CPR-4.5-OPEN-AMOUNT',
  'CPR-8-REQUEST-VALIDITY',
  'CPR-9-IGNORE-UNKNOWN-EXTENSIONS',
  'CPR-9-VERSION-VALIDATED',
  'PRF-3-EXTENSIONS-NEVER-FIELDS',
  'PRF-3-PAYER-DATA-REFUSED-OR-IGNORED',
];

/** A wallet whose HTTP answer to an EXPIRED refusal is `answer` (stdio answers as the profile says). */
function httpGarbage(id: string, fault: string, answer: () => RawHttpAnswer) {
  return brokenWallet({
    id,
    fault,
    expected: EXPIRED_PATH,
    core: (options) => createWalletCore(options),
    httpAnswer: (result) => (refusedWith(result, 'EXPIRED') ? answer() : undefined),
  });
}

/** A wallet whose stdio answer to an EXPIRED refusal is `line` (HTTP answers as the profile says). */
function stdioGarbage(id: string, fault: string, line: string | 'exit') {
  return brokenWallet({
    id,
    fault,
    expected: EXPIRED_PATH,
    core: (options) => createWalletCore(options),
    stdioLine: (result) => (refusedWith(result, 'EXPIRED') ? line : undefined),
  });
}

const EXPIRED_ERROR = { error: { code: 'EXPIRED', message: 'the request has expired' } };

export const wireGarbage = [
  httpGarbage(
    'wallet-http-refusal-not-json',
    'an expired request is answered 422 with a body that is not JSON',
    () => ({
      status: 422,
      headers: { 'content-type': 'application/json' },
      body: 'EXPIRED: the request has expired',
    }),
  ),
  httpGarbage(
    'wallet-http-refusal-truncated',
    'an expired request is answered 422 with a truncated JSON body',
    () => {
      const text = JSON.stringify(EXPIRED_ERROR).slice(0, 20);
      return {
        status: 422,
        headers: { 'content-type': 'application/json', 'content-length': String(text.length) },
        body: text,
      };
    },
  ),
  httpGarbage('wallet-http-refusal-redirect', 'an expired request is answered with a 302 redirect', () => ({
    status: 302,
    headers: { location: 'https://127.0.0.1:1/expired', 'content-length': '0' },
    body: '',
  })),
  httpGarbage(
    'wallet-http-refusal-server-error',
    'an expired request is answered 500 (with a profile-looking error body)',
    () => jsonAnswer(500, EXPIRED_ERROR),
  ),
  httpGarbage(
    'wallet-http-refusal-html',
    'an expired request is answered 422 with the profile body served as text/html',
    () => ({
      ...jsonAnswer(422, EXPIRED_ERROR),
      headers: { 'content-type': 'text/html; charset=utf-8' },
    }),
  ),
  httpGarbage(
    'wallet-http-refusal-200-without-payment',
    'an expired request is answered 200 {"result": "expired"} (no payment)',
    () => jsonAnswer(200, { result: 'expired' }),
  ),
  httpGarbage(
    'wallet-http-refusal-no-profile-code',
    'an expired request is answered 422 with the code REQUEST_EXPIRED, no code of the derive harness',
    () => jsonAnswer(422, { error: { code: 'REQUEST_EXPIRED', message: 'the request has expired' } }),
  ),
  httpGarbage(
    'wallet-http-refusal-400-where-422-due',
    'an expired request is answered 400 INVALID_REQUEST (a harness-request error) instead of 422 EXPIRED',
    () => jsonAnswer(400, { error: { code: 'INVALID_REQUEST', message: 'the request has expired' } }),
  ),
  stdioGarbage(
    'wallet-stdio-refusal-not-json',
    'an expired request is answered on stdout with a line that is not JSON',
    'EXPIRED the request has expired',
  ),
  stdioGarbage(
    'wallet-stdio-refusal-wrong-shape',
    'an expired request is answered on stdout with {"expired": true} (neither payment nor error)',
    '{"expired":true}',
  ),
  stdioGarbage(
    'wallet-stdio-refusal-dies',
    'the wallet command dies (exit 1) instead of answering an expired request',
    'exit',
  ),
];
