/**
 * Broken wallets reproducing the survivor classes of the mutation run of the reference wallet
 * (issue 16, docs/mutation.md): each is the reference core with one step replaced.
 */
import { get as httpGet } from 'node:http';
import { createWalletCore, type WalletCore } from '../../../src/reference/wallet/index.js';
import {
  bodyOf,
  brokenWallet,
  editPayments,
  editRefusals,
  jsonAnswer,
  refusal,
  refuseFirst,
  type WalletFault,
} from './harness.js';

const UNREADABLE = { error: { code: 'INVALID_STRUCTURE', message: 'the cpr could not be read' } };

/**
 * `checkInput`'s object test removed: a harness request that is not JSON, or JSON that is not an
 * object, is answered as a defect of the CPR (422 INVALID_STRUCTURE).
 */
export const harnessBodyUnchecked = brokenWallet({
  id: 'wallet-harness-body-unchecked',
  fault:
    'a harness request that is not JSON, or JSON that is not an object, is answered 422 INVALID_STRUCTURE instead of 400 INVALID_REQUEST',
  expected: ['PRF-3-HARNESS-REQUEST-ERROR'],
  core: (options) =>
    refuseFirst(createWalletCore(options), (body) =>
      bodyOf(body) === undefined ? refusal('INVALID_STRUCTURE', UNREADABLE.error.message) : undefined,
    ),
  notJson: { http: jsonAnswer(422, UNREADABLE), stdioLine: JSON.stringify(UNREADABLE) },
});

/**
 * `isAmountString` made `true`: `context.payer_amount` is never checked, so an open-amount request
 * is paid with whatever the harness request carried ("-5", "0", "1.5", 1e21...).
 */
export const payerAmountUnchecked = brokenWallet({
  id: 'wallet-payer-amount-unchecked',
  fault:
    'context.payer_amount is taken as it is: an open-amount request is paid with "-5", "0", "1.5" or a JSON number',
  expected: ['PRF-1-AMOUNT-FORMAT'],
  core: (options) => {
    const core = createWalletCore(options);
    const given = (body: unknown): unknown => bodyOf(body)?.context?.payer_amount;
    const valid = (v: unknown): boolean => typeof v === 'string' && /^[1-9][0-9]{0,76}$/.test(v);
    const paying: WalletCore = {
      derive(body) {
        const amount = given(body);
        if (amount === undefined || valid(amount)) return core.derive(body);
        const b = bodyOf(body);
        // derive with a placeholder amount; the Payment then carries the one given
        return core.derive({ ...b, context: { ...b?.context, payer_amount: '1' } });
      },
      close: () => core.close(),
    };
    return editPayments(paying, (payment, body) => {
      const amount = given(body);
      if (amount !== undefined && !valid(amount) && payment.value.amount === '1') {
        payment.value.amount = String(amount);
      }
      return payment;
    });
  },
});

/**
 * The fetcher's catch of a failed connection removed: a payee that cannot be reached ends the
 * derivation on an unexpected error, answered 422 INVALID_STRUCTURE instead of TOKEN_REJECTED.
 */
export const unreachablePayeeAsStructure = brokenWallet({
  id: 'wallet-unreachable-payee-as-structure',
  fault:
    'a reference URI whose payee cannot be reached is refused with INVALID_STRUCTURE instead of TOKEN_REJECTED',
  // every failed retrieval (a certificate refused, a redirect not followed) is INVALID_STRUCTURE too
  expected: ['PRF-3-DERIVE-ERROR-CODES', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
  core: (options) =>
    editRefusals(createWalletCore(options), (error) =>
      /^retrieving the cpr failed/.test(error.message)
        ? refusal('INVALID_STRUCTURE', `the derivation stopped on an unexpected error: ${error.message}`)
        : { ok: false, error },
    ),
});

/** GETs `url` over plain HTTP and parses the body (the fault of {@link retrievesOverHttp}). */
function plainGet(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    httpGet(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        } catch (err) {
          reject(err);
        }
      });
    }).on('error', reject);
  });
}

/**
 * A wallet that retrieves over plain http the reference URIs whose endpoint `sendsInClear` picks
 * (the token sent in clear), and pays the CPR served there.
 */
function overPlainHttp(sendsInClear: (endpoint: string) => boolean): WalletFault['core'] {
  return (options) => {
    const core = createWalletCore(options);
    return {
      async derive(body) {
        const b = bodyOf(body);
        const m = typeof b?.uri === 'string' ? /^cpr:\/\/([a-z0-9]+)\?endpoint=([^&]*)$/i.exec(b.uri) : null;
        const endpoint = decodeURIComponent(m?.[2] ?? '');
        if (!m || !sendsInClear(endpoint)) return core.derive(body);
        const base = endpoint.replace(/\/cpr\/[a-z0-9]+$/i, '');
        let cpr: unknown;
        try {
          cpr = await plainGet(`http${base.slice(4)}/cpr/${m[1] ?? ''}`);
        } catch (err) {
          return refusal('TOKEN_REJECTED', `retrieving the cpr failed: ${String(err)}`);
        }
        return core.derive({ cpr, context: b?.context });
      },
      close: () => core.close(),
    };
  };
}

/**
 * The https test of the endpoint removed: the token of a reference URI whose endpoint is plain
 * http is sent in clear, and the CPR served there is paid.
 */
export const retrievesOverHttp = brokenWallet({
  id: 'wallet-retrieves-over-http',
  fault:
    'a reference URI whose endpoint is plain http is retrieved over http (the token sent in clear) and paid',
  expected: ['CPR-5-TLS-ONLY', 'PRF-3-DERIVE-ERROR-CODES'],
  core: overPlainHttp((endpoint) => /^http:/i.test(endpoint)),
});

/**
 * The https test of the endpoint not anchored to its scheme (`/https:\/\//` without `^`): a
 * plain-http endpoint that holds "https://" further on (in its path or query) is taken for https,
 * and the token is sent there in clear.
 */
export const httpsTestUnanchored = brokenWallet({
  id: 'wallet-https-test-unanchored',
  fault:
    'an endpoint is taken for https when "https://" appears anywhere in it: http://host/https://x receives the token in clear',
  expected: ['CPR-5-TLS-ONLY', 'PRF-3-DERIVE-ERROR-CODES'],
  core: overPlainHttp((endpoint) => /^http:/i.test(endpoint) && /https:\/\//i.test(endpoint)),
});

/**
 * Step 1's `expires_at <= now` made `<` (a request expiring at exactly now is paid), seen through
 * a clock that reads whole seconds: the wallet's now is the start of the current second less 1 ms,
 * so a request whose expires_at is this very second is still paid, one a second old is not.
 */
export const paysAtExpiryInstant = brokenWallet({
  id: 'wallet-pays-at-expiry-instant',
  fault:
    'a request whose expires_at is exactly now (to the second) is paid: the expiry test is expires_at < now on a whole-second clock',
  expected: [
    'CPR-7-EXPIRED-REJECTED',
    'CPR-INV-2-EXPIRY-ENFORCEMENT',
    'CPR-INV-7-REJECTS-EXPIRED',
    'PRF-3-DERIVE-ERROR-CODES',
  ],
  core: (options) =>
    createWalletCore({ ...options, clock: () => new Date(Math.floor(Date.now() / 1000) * 1000 - 1) }),
});

/**
 * The message of every INVALID_REQUEST emptied (the mutants that blank `checkInput`'s message
 * templates): the harness refuses the right requests with the right code and status, but the error
 * body has no text for a person (profile 1: every error body carries one).
 */
export const invalidRequestWithoutMessage = brokenWallet({
  id: 'wallet-invalid-request-without-message',
  fault: 'an error in the harness request is answered INVALID_REQUEST with an empty message',
  // a malformed payer_amount is one such error (refused INVALID_REQUEST, message empty)
  expected: ['PRF-3-HARNESS-REQUEST-ERROR', 'PRF-1-AMOUNT-FORMAT'],
  core: (options) =>
    editRefusals(createWalletCore(options), (error) => ({
      ok: false,
      error: error.code === 'INVALID_REQUEST' ? { ...error, message: '' } : error,
    })),
  notJson: {
    http: jsonAnswer(400, { error: { code: 'INVALID_REQUEST', message: '' } }),
    stdioLine: JSON.stringify({ error: { code: 'INVALID_REQUEST', message: '' } }),
  },
});

/**
 * The decoding failure of a uri answered as a harness request error: a uri string that is no
 * usable cpr uri is refused 400 INVALID_REQUEST (profile 3 keeps INVALID_REQUEST for a uri that
 * is not a string; everything about the document is one of the 422 codes).
 */
export const undecodableUriInvalidRequest = brokenWallet({
  id: 'wallet-undecodable-uri-invalid-request',
  fault:
    'a uri string that cannot be decoded as a cpr uri is refused 400 INVALID_REQUEST instead of a 422 code',
  // the reference's codec cannot use an endpoint with a query either: the retrieval check of such
  // an endpoint gets INVALID_REQUEST, no profile answer (an error of the driver)
  expected: ['PRF-3-DERIVE-ERROR-CODES', 'PRF-3-RETRIEVAL-URL'],
  core: (options) =>
    editRefusals(createWalletCore(options), (error) =>
      /^the uri is not a usable cpr uri/.test(error.message)
        ? refusal('INVALID_REQUEST', `"uri" is not a cpr uri: ${error.message}`)
        : { ok: false, error },
    ),
});
