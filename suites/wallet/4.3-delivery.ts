/**
 * CPR-1.0 sections 4.2-4.3 (delivery) as the paying application sees them: it resolves a
 * `cpr://` URI and retrieves the payload (rule 1) from a mock payee the suite runs on 127.0.0.1
 * with a certificate signed by the suite CA (profile 3); a consumed or unknown token yields no
 * payment (TOKEN_REJECTED in the profile, AMB-36); a retrieved CPR is validated like a direct one.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeInlineUri } from '../../src/codec/uri.js';
import {
  assertThat,
  check,
  forEachWalletChannel,
  type MockPayee,
  mockPayee,
  onCheckEnd,
  type WalletDriver,
} from '../_lib/index.js';
import {
  allCases,
  baseCpr,
  deriveContext,
  expectPayment,
  expectRejection,
  expectRejectionCode,
  HOUR,
  isoFromNow,
  type JsonObject,
  short,
} from './_support/index.js';

const RESOLVES = ['CPR-4.3-WALLET-RESOLVES-URI'];

/** A valid CPR of a rail the wallet pays whose payee display_name is `name` (to recognise the payment made from it). */
async function withDisplayName(wallet: WalletDriver, name: string): Promise<JsonObject> {
  const cpr = await baseCpr(wallet);
  (cpr.payee as JsonObject).display_name = name;
  return cpr;
}

/** One way the CPR behind a reference URI cannot be obtained, and the codes a refusal may carry. */
interface Unobtainable {
  what: string;
  codes: string[];
  uri: (wallet: WalletDriver, mock: MockPayee) => Promise<string>;
}

/** A reference URI whose payee answers `status` with `body` instead of the CPR. */
function answering(status: number, body: unknown): Unobtainable['uri'] {
  return async (wallet, mock) => mock.offer(await baseCpr(wallet), { answer: { status, body } }).uri;
}

/**
 * Ways the CPR behind a reference URI cannot be obtained (AMB-36: TOKEN_REJECTED), and payloads
 * that are no CPR (retrieved, then validated like a direct one: INVALID_STRUCTURE; TOKEN_REJECTED
 * is accepted too, since no CPR was obtained).
 */
const UNOBTAINABLE: readonly Unobtainable[] = [
  {
    what: 'the payee answers 500 with an error body',
    codes: ['TOKEN_REJECTED'],
    uri: answering(500, { error: { code: 'INTERNAL', message: 'the payee failed' } }),
  },
  {
    what: 'the payee answers 503 with a body that is no error body',
    codes: ['TOKEN_REJECTED'],
    uri: answering(503, 'down for maintenance'),
  },
  {
    what: 'the payee cannot be reached (nothing listens on its port)',
    codes: ['TOKEN_REJECTED'],
    uri: async () => {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      const token = randomBytes(16).toString('hex');
      return `cpr://${token}?endpoint=${encodeURIComponent(`https://127.0.0.1:${port}`)}`;
    },
  },
  {
    what: 'the payee answers 200 with a JSON array holding the CPR',
    codes: ['INVALID_STRUCTURE', 'TOKEN_REJECTED'],
    uri: async (wallet, mock) => mock.offer([await baseCpr(wallet)]).uri,
  },
  {
    what: 'the payee answers 200 with a JSON string',
    codes: ['INVALID_STRUCTURE', 'TOKEN_REJECTED'],
    uri: async (_wallet, mock) => mock.offer('CPR-1.0').uri,
  },
];

/**
 * A plain-HTTP payee on 127.0.0.1 serving `cpr` to any GET (stopped when the check ends): the
 * number of requests it received, and the reference URI naming it as the endpoint.
 */
async function plainHttpPayee(
  cpr: JsonObject,
): Promise<{ uri: string; lookalikes: [string, string][]; requests: () => number }> {
  let requests = 0;
  const text = JSON.stringify(cpr);
  const server = createServer((req, res) => {
    requests += 1;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCheckEnd(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  const token = randomBytes(16).toString('hex');
  const uri = (endpoint: string): string => `cpr://${token}?endpoint=${encodeURIComponent(endpoint)}`;
  const base = `http://127.0.0.1:${port}`;
  return {
    uri: uri(base),
    // plain-http endpoints a test that is not anchored to the scheme would take for https
    lookalikes: [
      ['whose path holds "https://"', uri(`${base}/https://payee.example`)],
      ['whose query holds "https://"', uri(`${base}/?via=https://payee.example`)],
      ['written in capitals', uri(`HTTP://127.0.0.1:${port}`)],
      ['already ending in /cpr/{token}', uri(`${base}/cpr/${token}`)],
    ],
    requests: () => requests,
  };
}

describe('CPR-1.0 section 4.3: delivery rules (paying application)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'paying-application-resolves-reference-uri-retrieves-payload',
      RESOLVES,
      'the paying application resolves a reference URI and retrieves the payload (once)',
      async () => {
        const mock = await mockPayee();
        const marker = `Conformance Shop ${randomUUID()}`;
        const offer = mock.offer(await withDisplayName(wallet, marker));
        const payment = expectPayment(
          await wallet.derive({ uri: offer.uri, context: deriveContext() }),
          'the derivation from a reference URI',
        );
        assertThat(
          mock.retrievals(offer.token) === 1,
          `the wallet retrieved the CPR ${mock.retrievals(offer.token)} times, not once`,
        );
        assertThat(
          JSON.stringify(payment).includes(marker),
          `the payment does not come from the retrieved CPR (its payee display_name ${marker} is nowhere in it): ${short(payment)}`,
        );
      },
    );

    check(
      'reader-also-accepts-endpoint-already-ends-cpr',
      ['PRF-2-REFERENCE-FULL-ENDPOINT'],
      'a reader also accepts an endpoint that already ends in /cpr/{token}',
      async () => {
        const mock = await mockPayee();
        const offer = mock.offer(await baseCpr(wallet));
        const uri = `cpr://${offer.token}?endpoint=${encodeURIComponent(offer.url)}`;
        expectPayment(await wallet.derive({ uri, context: deriveContext() }), `the derivation from ${uri}`);
        assertThat(
          mock.retrievals(offer.token) === 1,
          `the wallet retrieved the CPR ${mock.retrievals(offer.token)} times, not once`,
        );
      },
    );

    check(
      'paying-application-resolves-inline-uri-payee-involved',
      [...RESOLVES, 'CPR-4.4-NO-PAYEE-AT-AUTHORIZATION'],
      'the paying application resolves an inline URI (no payee involved)',
      async () => {
        const marker = `Conformance Shop ${randomUUID()}`;
        const payment = expectPayment(
          await wallet.derive({
            uri: encodeInlineUri(await withDisplayName(wallet, marker)),
            context: deriveContext(),
          }),
          'the derivation from an inline URI',
        );
        assertThat(
          JSON.stringify(payment).includes(marker),
          `the payment does not come from the inline CPR (its payee display_name ${marker} is nowhere in it): ${short(payment)}`,
        );
      },
    );

    check(
      'token-already-consumed-yields-payment-payee-refuses',
      RESOLVES,
      'a token already consumed yields no payment (the payee refuses it) and is not retried',
      async () => {
        const mock = await mockPayee();
        const offer = mock.offer(await baseCpr(wallet));
        expectPayment(
          await wallet.derive({ uri: offer.uri, context: deriveContext() }),
          'the first derivation from the reference URI',
        );
        expectRejection(
          await wallet.derive({ uri: offer.uri, context: deriveContext() }),
          'the second derivation from the same (consumed) token',
        );
        assertThat(
          mock.retrievals(offer.token) === 2,
          `the token was requested ${mock.retrievals(offer.token)} times over two derivations; a refused token is not retried`,
        );
      },
    );

    check(
      'token-payee-issued-yields-payment',
      RESOLVES,
      'a token the payee never issued yields no payment',
      async () => {
        const mock = await mockPayee();
        const uri = `cpr://${'0'.repeat(32)}?endpoint=${encodeURIComponent(mock.baseUrl)}`;
        expectRejection(
          await wallet.derive({ uri, context: deriveContext() }),
          'the derivation from an unknown token',
        );
      },
    );

    check(
      'consumed-token-refused-422-token-rejected',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a consumed token is refused with 422 TOKEN_REJECTED',
      async () => {
        const mock = await mockPayee();
        const offer = mock.offer(await baseCpr(wallet), {
          answer: {
            status: 410,
            body: { error: { code: 'TOKEN_CONSUMED', message: 'the token was already used' } },
          },
        });
        expectRejectionCode(
          await wallet.derive({ uri: offer.uri, context: deriveContext() }),
          ['TOKEN_REJECTED'],
          'the derivation from a consumed token',
        );
      },
    );

    check(
      'unknown-token-refused-422-token-rejected',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'an unknown token is refused with 422 TOKEN_REJECTED',
      async () => {
        const mock = await mockPayee();
        const uri = `cpr://${'0'.repeat(32)}?endpoint=${encodeURIComponent(mock.baseUrl)}`;
        expectRejectionCode(
          await wallet.derive({ uri, context: deriveContext() }),
          ['TOKEN_REJECTED'],
          'the derivation from an unknown token',
        );
      },
    );

    check(
      'cpr-cannot-be-obtained-yields-no-payment',
      RESOLVES,
      'a reference URI whose CPR cannot be obtained (the payee fails or cannot be reached, or serves no CPR object) yields no payment',
      async () => {
        const mock = await mockPayee();
        await allCases(
          UNOBTAINABLE,
          (u) => u.what,
          async (u) => {
            expectRejection(
              await wallet.derive({ uri: await u.uri(wallet, mock), context: deriveContext() }),
              `the derivation from a reference URI when ${u.what}`,
            );
          },
        );
      },
    );

    check(
      'cpr-cannot-be-obtained-refused-422-token-rejected',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a reference URI whose CPR cannot be obtained is refused with 422 TOKEN_REJECTED (a payload that is no CPR object: INVALID_STRUCTURE or TOKEN_REJECTED)',
      async () => {
        const mock = await mockPayee();
        await allCases(
          UNOBTAINABLE,
          (u) => u.what,
          async (u) => {
            expectRejectionCode(
              await wallet.derive({ uri: await u.uri(wallet, mock), context: deriveContext() }),
              u.codes,
              `the derivation from a reference URI when ${u.what}`,
            );
          },
        );
      },
    );

    check(
      'token-never-sent-over-plain-http',
      ['CPR-5-TLS-ONLY'],
      'a reference URI whose endpoint is plain http (also when https:// appears later in it, or its scheme is in capitals) is refused without sending the token there (a token travels only over TLS)',
      async () => {
        const payee = await plainHttpPayee(await baseCpr(wallet));
        const cases: [string, string][] = [['', payee.uri], ...payee.lookalikes];
        for (const [what, uri] of cases) {
          const r = await wallet.derive({ uri, context: deriveContext() });
          assertThat(
            payee.requests() === 0,
            `the wallet sent the token to a plain-http endpoint ${what} (${payee.requests()} request(s)); a cpr token travels only over TLS (spec 5 rule 4)`,
          );
          expectRejection(r, `the derivation from a reference URI whose endpoint is plain http ${what}`);
        }
      },
    );

    check(
      'plain-http-endpoint-refused-422-token-rejected',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a reference URI whose endpoint is plain http is refused with 422 TOKEN_REJECTED',
      async () => {
        const payee = await plainHttpPayee(await baseCpr(wallet));
        await allCases(
          [['', payee.uri], ...payee.lookalikes] as [string, string][],
          ([what]) => what || 'as such',
          async ([what, uri]) => {
            expectRejectionCode(
              await wallet.derive({ uri, context: deriveContext() }),
              ['TOKEN_REJECTED'],
              `the derivation from a reference URI whose endpoint is plain http ${what}`,
            );
          },
        );
      },
    );

    check(
      'uri-that-is-no-cpr-uri-refused-422',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a uri string that is no usable cpr:// uri (neither a reference with an endpoint nor an inline base64url JSON object) is refused with 422 INVALID_STRUCTURE or TOKEN_REJECTED, never paid and never a harness error',
      async () => {
        const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');
        // the document itself is about the cpr, not the harness request: one of the 422 codes
        // (profile 3: INVALID_REQUEST only for a uri that is not a string); which of the two
        // codes a uri that cannot be decoded gets, the profile leaves free (AMB-36)
        const cases: [string, string][] = [
          ['an inline uri whose payload is not base64url', 'cpr://inline/%%%not-base64%%%'],
          ['an inline uri whose payload is not JSON', `cpr://inline/${b64('cpr_version=CPR-1.0')}`],
          ['an inline uri whose payload is JSON but no object', `cpr://inline/${b64('["CPR-1.0"]')}`],
          ['an inline uri with no payload', 'cpr://inline/'],
          ['an https url instead of a cpr uri', 'https://payee.example/cpr/abcdefghijklmnop'],
          ['a cpr uri without its //', 'cpr:inline/e30'],
          ['a reference uri without endpoint', 'cpr://abcdefghijklmnopqrstuvwxyz234567'],
          ['a reference uri with an empty endpoint', 'cpr://abcdefghijklmnopqrstuvwxyz234567?endpoint='],
          ['a text that is no uri', 'pay me 10 EUR'],
        ];
        await allCases(
          cases,
          ([what]) => what,
          async ([what, uri]) => {
            expectRejectionCode(
              await wallet.derive({ uri, context: deriveContext() }),
              ['INVALID_STRUCTURE', 'TOKEN_REJECTED'],
              `the derivation from ${what} (${uri})`,
            );
          },
        );
      },
    );

    check(
      'cpr-retrieved-through-reference-uri-validated-like',
      ['CPR-7-EXPIRED-REJECTED', 'CPR-INV-2-EXPIRY-ENFORCEMENT'],
      'a CPR retrieved through a reference URI is validated like a direct one: an expired one is rejected',
      async () => {
        const mock = await mockPayee();
        const offer = mock.offer(
          await baseCpr(wallet, { created_at: isoFromNow(-3 * HOUR), expires_at: isoFromNow(-HOUR) }),
        );
        expectRejection(
          await wallet.derive({ uri: offer.uri, context: deriveContext() }),
          'the derivation of an expired CPR from a reference URI',
        );
      },
    );

    check(
      'cpr-retrieved-through-reference-uri-validated-like-2',
      ['CPR-9-VERSION-VALIDATED', 'CPR-4.3-VALIDATE-BEFORE-PROCESSING'],
      'a CPR retrieved through a reference URI is validated like a direct one: a wrong cpr_version is rejected',
      async () => {
        const mock = await mockPayee();
        const offer = mock.offer(await baseCpr(wallet, { cpr_version: 'CPR-2.0' }));
        expectRejection(
          await wallet.derive({ uri: offer.uri, context: deriveContext() }),
          'the derivation of a CPR-2.0 document from a reference URI',
        );
      },
    );
  });
});
