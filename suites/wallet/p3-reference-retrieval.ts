/**
 * Profile section 3, "Retrieval of a reference URI" (spec 4.1, 4.2, 5 rule 4; profile 2's
 * reference-URI forms), through a mock payee the suite runs on loopback:
 * - every token form (lowercase base32 and hex, short and long) and every endpoint form (bare
 *   origin, a path of one or several segments, a trailing slash, percent-escapes in the path,
 *   `+`, `~` and sub-delimiters in the path, raw or percent-encoded in the URI (RFC 3986 decoding:
 *   a `+` is a `+`), the endpoint percent-encoded in lower-case hex, `localhost`, `127.0.0.1` and
 *   `[::1]`, another port,
 *   an endpoint already ending in `/cpr/{token}`) is resolved, and retrieved at exactly
 *   `{endpoint}/cpr/{token}`: nothing carrying the token reaches another path or port;
 * - an endpoint with a query: every reading the suite allows (AMB-39);
 * - the token never reaches a server the wallet cannot authenticate (a certificate of another CA,
 *   of another host, expired, not yet valid) nor travels in clear, also after a redirect; a
 *   redirect loop ends; each such retrieval is refused with 422 TOKEN_REJECTED;
 * - a redirect to an https location the wallet can authenticate may be followed or refused ("if at
 *   all"): a Payment of the CPR served there, or a refusal.
 */
import { randomUUID } from 'node:crypto';
import {
  assertThat,
  check,
  type DeriveResult,
  forEachWalletChannel,
  type MockCertificate,
  type MockHost,
  type MockListener,
  type MockPayee,
  mockPayee,
  mockToken,
  note,
  type Offer,
  type OfferOptions,
  type RedirectStatus,
  type WalletDriver,
} from '../_lib/index.js';
import {
  allCases,
  baseCpr,
  deriveContext,
  describeResult,
  expectRejectionCode,
  fail,
  type JsonObject,
} from './_support/index.js';

/** The redirects of RFC 9110 section 15.4 a server may answer a GET with. */
const REDIRECTS: readonly RedirectStatus[] = [301, 302, 303, 307, 308];

/**
 * The most redirects of one retrieval the suite lets a wallet follow before it must give up (AMB-39:
 * the profile names no bound; the Fetch standard stops at 20, curl at 50).
 */
const MAX_REDIRECTS = 50;
/** Redirects the mock answers in a loop before it stops with 404 (so an unbounded wallet still ends). */
const LOOP_CAP = MAX_REDIRECTS + 10;

/** A CPR the wallet pays whose payee display_name carries a fresh marker, to recognise the Payment made from it. */
async function markedCpr(wallet: WalletDriver): Promise<{ cpr: JsonObject; marker: string }> {
  const cpr = await baseCpr(wallet);
  const marker = `Retrieval Shop ${randomUUID()}`;
  (cpr.payee as JsonObject).display_name = marker;
  return { cpr, marker };
}

/** Whether `r` is a Payment made from the CPR whose marker is `marker`. */
function paidFrom(r: DeriveResult, marker: string): boolean {
  return r.ok && JSON.stringify(r.payment).includes(marker);
}

/** A request target with its percent-escapes in upper case (RFC 3986 6.2.2.1). */
function normal(target: string): string {
  return target.replace(/%[0-9a-fA-F]{2}/g, (m) => m.toUpperCase());
}

/**
 * The requests carrying the offer's token that went anywhere but `{endpoint}/cpr/{token}` (one of
 * `offer.targets` on the endpoint's listener), described for a message.
 */
function strayRequests(mock: MockPayee, offer: Offer): string[] {
  const allowed = new Set(offer.targets.map(normal));
  return mock
    .reached(offer.token)
    .filter((r) => r.listener !== offer.listener.name || !allowed.has(normal(r.target)))
    .map(
      (r) =>
        `${r.method} ${r.scheme}://${r.address.includes(':') ? `[${r.address}]` : r.address}:${r.port}${r.target}`,
    );
}

/** Requests carrying the offer's token that arrived at the allowed place. */
function retrievalsAt(mock: MockPayee, offer: Offer): number {
  const allowed = new Set(offer.targets.map(normal));
  return mock
    .reached(offer.token)
    .filter((r) => r.listener === offer.listener.name && allowed.has(normal(r.target))).length;
}

/** One form of a reference URI the profile allows, and how the mock offers it. */
interface Form {
  what: string;
  options: (mock: MockPayee, second: MockListener) => OfferOptions | undefined;
}

/** Token forms of profile 2: lowercase base32 (RFC 4648, no padding) or lowercase hex, at least 128 bits. */
const TOKEN_FORMS: readonly Form[] = [
  { what: 'a base32 token of 26 characters (130 bits)', options: () => ({ token: mockToken('base32', 26) }) },
  { what: 'a base32 token of 32 characters', options: () => ({ token: mockToken('base32', 32) }) },
  { what: 'a base32 token of 56 characters', options: () => ({ token: mockToken('base32', 56) }) },
  // the trailing digits are outside the base32 alphabet: the token can only be read as hex
  { what: 'a hex token of 32 digits (128 bits)', options: () => ({ token: `${mockToken('hex', 30)}08` }) },
  { what: 'a hex token of 64 digits', options: () => ({ token: `${mockToken('hex', 62)}19` }) },
  // a host of digits alone is an IPv4 number to a URL parser of a special scheme
  { what: 'a hex token of decimal digits only', options: () => ({ token: mockToken('digits', 32) }) },
];

/** Endpoint forms: where the payee's base URL may sit (profile 2: the path and port kept). */
const ENDPOINT_FORMS: readonly Form[] = [
  { what: 'a bare origin', options: () => ({}) },
  { what: 'a bare origin with a trailing slash', options: () => ({ path: '/' }) },
  { what: 'a path of one segment', options: () => ({ path: '/payee' }) },
  { what: 'a path of several segments', options: () => ({ path: '/api/v1/payee' }) },
  { what: 'a path of several segments with a trailing slash', options: () => ({ path: '/api/v1/payee/' }) },
  {
    what: 'a path with percent-escapes (%2F, %3F, %25, UTF-8)',
    options: () => ({ path: '/shop%2Fmain/caf%C3%A9%3Fsale%25' }),
  },
  {
    what: 'a path with +, ~ and sub-delimiters (encoded as encodeURIComponent does: %2B, %24...)',
    options: () => ({ path: "/pay+v1/~shop/a!$'()*,;b" }),
  },
  {
    // RFC 3986 percent-decoding: a "+" is a "+" (form decoding would make it a space)
    what: 'a path with + $ , ; written unencoded in the URI (RFC 3986 query characters)',
    options: () => ({ path: '/pay+v1/~shop/a+b$c,d;e', rawSubDelims: true }),
  },
  {
    // decoded once: %2B and %2F stay escapes in the path (decoding twice changes the path)
    what: 'a path with the escapes %2B, %2F and %7E',
    options: () => ({ path: '/pay%2Bv1/a%2Fb/%7Eshop' }),
  },
  {
    what: 'an endpoint percent-encoded in lower-case hex',
    options: () => ({ path: '/api/v1', percentCase: 'lower' }),
  },
  { what: 'the host name localhost', options: () => ({ host: 'localhost', path: '/api' }) },
  {
    what: 'the IPv6 literal [::1]',
    options: (mock) => (mock.main.ipv6 ? { host: '::1' as MockHost, path: '/api' } : undefined),
  },
  {
    what: 'another port (a second listener)',
    options: (_mock, second) => ({ listener: second, path: '/api' }),
  },
  { what: 'a bare origin again, on the first port', options: () => ({ path: '/again' }) },
];

/** Endpoints already ending in `/cpr/{token}` (profile 2: a reader also accepts them). */
const FULL_ENDPOINT_FORMS: readonly Form[] = [
  { what: 'a bare origin then /cpr/{token}', options: () => ({ fullEndpoint: true }) },
  { what: 'a path then /cpr/{token}', options: () => ({ path: '/api/v1', fullEndpoint: true }) },
  {
    what: 'a path then /cpr/{token}, percent-encoded in lower-case hex, on localhost',
    options: () => ({ path: '/api/v1', fullEndpoint: true, percentCase: 'lower', host: 'localhost' }),
  },
  {
    what: 'a base32 token, on another port',
    options: (_mock, second) => ({ listener: second, token: mockToken('base32', 32), fullEndpoint: true }),
  },
];

/** Endpoints with a query (AMB-39: kept, left out, or the literal template; a refusal allowed too). */
const QUERY_FORMS: readonly Form[] = [
  { what: 'a bare origin with a query', options: () => ({ query: 'shop=42' }) },
  {
    what: 'a path with a query of two parameters',
    options: () => ({ path: '/api/v1', query: 'shop=42&lang=en' }),
  },
];

/** The forms each check runs, with a second valid listener (another port) opened once per check. */
async function formsOf(
  wallet: WalletDriver,
  forms: readonly Form[],
): Promise<{
  mock: MockPayee;
  cases: { what: string; offer: () => Promise<{ offer: Offer; marker: string }> }[];
}> {
  const mock = await mockPayee();
  const second = await mock.listen();
  const cases = [];
  for (const f of forms) {
    const options = f.options(mock, second);
    if (options === undefined) {
      note(`${f.what}: not tried (the machine has no IPv6 loopback)`);
      continue;
    }
    cases.push({
      what: f.what,
      offer: async () => {
        const { cpr, marker } = await markedCpr(wallet);
        return { offer: mock.offer(cpr, options), marker };
      },
    });
  }
  return { mock, cases };
}

/** Every form yields a Payment of the CPR served behind it. */
async function everyFormPaid(wallet: WalletDriver, forms: readonly Form[]): Promise<void> {
  const { cases } = await formsOf(wallet, forms);
  await allCases(
    cases,
    (c) => c.what,
    async (c) => {
      const { offer, marker } = await c.offer();
      const r = await wallet.derive({ uri: offer.uri, context: deriveContext() });
      if (!r.ok) fail(`${offer.uri}: expected a payment, got ${describeResult(r)}`);
      assertThat(
        paidFrom(r, marker),
        `${offer.uri}: the payment does not come from the CPR served at ${offer.url} (its display_name ${marker} is nowhere in it)`,
      );
    },
  );
}

/** Every form is retrieved at exactly `{endpoint}/cpr/{token}` and nowhere else. */
async function everyFormRetrievedThere(wallet: WalletDriver, forms: readonly Form[]): Promise<void> {
  const { mock, cases } = await formsOf(wallet, forms);
  await allCases(
    cases,
    (c) => c.what,
    async (c) => {
      const { offer } = await c.offer();
      await wallet.derive({ uri: offer.uri, context: deriveContext() });
      const stray = strayRequests(mock, offer);
      assertThat(
        stray.length === 0,
        `${offer.uri}: the token went to ${stray.join(', ')}; it is retrieved at ${offer.url} only (the endpoint's path and port kept)`,
      );
      assertThat(
        retrievalsAt(mock, offer) > 0,
        `${offer.uri}: nothing reached ${offer.url}; the wallet retrieved somewhere else (another port or host?) or not at all`,
      );
    },
  );
}

/** One retrieval the wallet must not make: where the token would go, and what must not reach it. */
interface Trap {
  what: string;
  /** Sets the trap up: the URI to derive and the listeners nothing carrying the token may reach. */
  arm: (
    wallet: WalletDriver,
    mock: MockPayee,
  ) => Promise<{ uri: string; token: string; traps: MockListener[] }>;
  /** Redirects the wallet may follow before it must give up (loops only). */
  maxHops?: number;
}

/** A listener presenting `certificate`, and a reference URI whose endpoint names it as `host`. */
function certificateTrap(what: string, certificate: MockCertificate, host: MockHost = '127.0.0.1'): Trap {
  return {
    what,
    arm: async (wallet, mock) => {
      const trap = await mock.listen({ certificate });
      const offer = mock.offer((await markedCpr(wallet)).cpr, { listener: trap, host, path: '/pay' });
      return { uri: offer.uri, token: offer.token, traps: [trap] };
    },
  };
}

/** A valid retrieval answered with a redirect to the token's URL on a trap listener (serving the CPR there). */
function redirectTrap(
  what: string,
  status: RedirectStatus,
  listen: { plain?: boolean; certificate?: MockCertificate },
  host: MockHost = '127.0.0.1',
): Trap {
  return {
    what,
    arm: async (wallet, mock) => {
      const trap = await mock.listen(listen);
      const token = mockToken('hex');
      const { cpr } = await markedCpr(wallet);
      const offer = mock.offer(cpr, {
        token,
        path: '/pay',
        redirect: { status, location: `${trap.origin(host)}/moved/cpr/${token}`, body: cpr },
      });
      return { uri: offer.uri, token, traps: [trap] };
    },
  };
}

/** A retrieval answered with redirects for ever (the mock stops with 404 after {@link LOOP_CAP}). */
function loopTrap(
  what: string,
  location: (mock: MockPayee, second: MockListener, token: string) => (hop: number) => string,
): Trap {
  return {
    what,
    maxHops: MAX_REDIRECTS,
    arm: async (wallet, mock) => {
      const second = await mock.listen();
      const token = mockToken('base32', 32);
      const offer = mock.offer((await markedCpr(wallet)).cpr, {
        token,
        path: '/pay',
        redirect: { status: 302, location: location(mock, second, token), hops: LOOP_CAP },
        answer: {
          status: 404,
          body: { error: { code: 'TOKEN_UNKNOWN', message: 'the loop was stopped by the suite' } },
        },
      });
      return { uri: offer.uri, token, traps: [] };
    },
  };
}

const UNTRUSTED: readonly Trap[] = [
  certificateTrap('a certificate of a CA the wallet does not trust', 'untrusted-ca'),
];

const OTHER_HOST: readonly Trap[] = [
  certificateTrap('a certificate of another host (payee.invalid)', 'other-host'),
  certificateTrap('a certificate naming only the DNS name localhost, at 127.0.0.1', 'localhost-only'),
  certificateTrap('a certificate naming only the IP addresses, at localhost', 'ip-only', 'localhost'),
];

const OUT_OF_DATE: readonly Trap[] = [
  certificateTrap('an expired certificate', 'expired'),
  certificateTrap('a certificate not yet valid', 'not-yet-valid'),
];

const TO_HTTP: readonly Trap[] = REDIRECTS.map((status) =>
  redirectTrap(`a ${status} redirect to http`, status, { plain: true }),
);

const TO_UNAUTHENTICATED: readonly Trap[] = [
  redirectTrap('a 302 redirect to a server of an untrusted CA', 302, { certificate: 'untrusted-ca' }),
  redirectTrap('a 307 redirect to a server of another host', 307, { certificate: 'other-host' }),
  redirectTrap(
    'a 301 redirect to localhost whose certificate names only IP addresses',
    301,
    { certificate: 'ip-only' },
    'localhost',
  ),
  redirectTrap('a 308 redirect to a server whose certificate expired', 308, { certificate: 'expired' }),
  redirectTrap('a 303 redirect to a server whose certificate is not yet valid', 303, {
    certificate: 'not-yet-valid',
  }),
];

const LOOPS: readonly Trap[] = [
  loopTrap('a redirect to itself', (mock, _second, token) => () => `${mock.main.origin()}/pay/cpr/${token}`),
  loopTrap(
    'redirects back and forth between two ports',
    (mock, second, token) => (hop) => `${(hop % 2 === 1 ? second : mock.main).origin()}/pay/cpr/${token}`,
  ),
  loopTrap(
    'an endless chain of fresh locations',
    (mock, _second, token) => (hop) => `${mock.main.origin()}/pay/cpr/${token}?hop=${hop}`,
  ),
];

/** Runs each trap: the token reaches none of its listeners, and a loop ends in time. */
async function trapsHold(wallet: WalletDriver, traps: readonly Trap[], risk = ''): Promise<void> {
  const mock = await mockPayee();
  await allCases(
    traps,
    (t) => t.what,
    async (t) => {
      const armed = await t.arm(wallet, mock);
      // the answer is graded by refused-retrieval-422-token-rejected; here: where the token went
      await wallet.derive({ uri: armed.uri, context: deriveContext() });
      const names = new Set(armed.traps.map((l) => l.name));
      const caught = mock.reached(armed.token).filter((q) => names.has(q.listener));
      assertThat(
        caught.length === 0,
        `${t.what}: the token reached ${caught.map((q) => `${q.scheme}://${q.address}:${q.port}${q.target}`).join(', ')}: ${risk}`,
      );
      if (t.maxHops !== undefined) {
        const hops = mock.reached(armed.token).length - 1;
        assertThat(
          hops <= t.maxHops,
          `${t.what}: the wallet followed ${hops} redirects without giving up (the suite allows ${t.maxHops}; a loop must end, RFC 9110 15.4)`,
        );
      }
    },
  );
}

/** Every trap of every class, for the refusal code. */
const ALL_TRAPS: readonly Trap[] = [
  ...UNTRUSTED,
  ...OTHER_HOST,
  ...OUT_OF_DATE,
  ...TO_HTTP,
  ...TO_UNAUTHENTICATED,
  ...LOOPS,
];

/** Valid redirects: the same CPR served at an https location the wallet can authenticate. */
const VALID_REDIRECTS: readonly {
  what: string;
  status: RedirectStatus;
  location: (mock: MockPayee, second: MockListener, token: string) => string;
}[] = [
  ...REDIRECTS.map((status) => ({
    what: `a ${status} redirect to another port`,
    status,
    location: (_mock: MockPayee, second: MockListener, token: string) =>
      `${second.origin()}/moved/cpr/${token}`,
  })),
  {
    what: 'a 302 redirect to a relative location',
    status: 302,
    location: (_mock, _second, token) => `/moved/cpr/${token}`,
  },
  {
    what: 'a 307 redirect to localhost',
    status: 307,
    location: (_mock, second, token) => `${second.origin('localhost')}/moved/cpr/${token}`,
  },
];

describe('Profile section 3: retrieval of a reference URI (paying application)', () => {
  forEachWalletChannel((wallet) => {
    check(
      'reference-uri-every-token-form-yields-payment',
      ['CPR-4.3-WALLET-RESOLVES-URI'],
      'a reference URI of every token form profile 2 allows (lowercase base32 or hex, 128 bits and more) yields a Payment of the CPR behind it',
      () => everyFormPaid(wallet, TOKEN_FORMS),
    );

    check(
      'reference-uri-every-token-form-retrieved-exactly',
      ['PRF-3-RETRIEVAL-URL'],
      'a reference URI of every token form is retrieved at exactly {endpoint}/cpr/{token}, the token as written (not upper-cased, decoded or re-encoded)',
      () => everyFormRetrievedThere(wallet, TOKEN_FORMS),
    );

    check(
      'reference-uri-every-endpoint-form-yields-payment',
      ['CPR-4.3-WALLET-RESOLVES-URI'],
      'a reference URI of every endpoint form (bare origin, a path of one or several segments, a trailing slash, percent-escapes, + and sub-delimiters raw or encoded (a + is a +), lower-case percent-encoding, localhost, 127.0.0.1, [::1], another port) yields a Payment of the CPR behind it',
      () => everyFormPaid(wallet, ENDPOINT_FORMS),
    );

    check(
      'reference-uri-every-endpoint-form-retrieved-exactly',
      ['PRF-3-RETRIEVAL-URL'],
      'a reference URI of every endpoint form is retrieved at exactly {endpoint}/cpr/{token}: the path and port kept, no double slash, no other place reached',
      () => everyFormRetrievedThere(wallet, ENDPOINT_FORMS),
    );

    check(
      'full-endpoint-every-form-yields-payment',
      ['PRF-2-REFERENCE-FULL-ENDPOINT'],
      'an endpoint already ending in /cpr/{token} (behind a bare origin or a path, on another port, encoded in lower-case hex) yields a Payment of the CPR behind it',
      () => everyFormPaid(wallet, FULL_ENDPOINT_FORMS),
    );

    check(
      'full-endpoint-every-form-retrieved-at-endpoint',
      ['PRF-2-REFERENCE-FULL-ENDPOINT'],
      'an endpoint already ending in /cpr/{token} is retrieved at the endpoint itself (no second /cpr/{token})',
      () => everyFormRetrievedThere(wallet, FULL_ENDPOINT_FORMS),
    );

    check(
      'endpoint-with-query-retrieved-there-or-refused',
      ['PRF-3-RETRIEVAL-URL'],
      'an endpoint with a query is retrieved at {endpoint path}/cpr/{token} (its query kept or left out, or the literal template) and paid, or refused; the token goes nowhere else (AMB-39)',
      async () => {
        const { mock, cases } = await formsOf(wallet, QUERY_FORMS);
        const readings: string[] = [];
        await allCases(
          cases,
          (c) => c.what,
          async (c) => {
            const { offer, marker } = await c.offer();
            const r = await wallet.derive({ uri: offer.uri, context: deriveContext() });
            const stray = strayRequests(mock, offer);
            assertThat(
              stray.length === 0,
              `${offer.uri}: the token went to ${stray.join(', ')}; allowed: ${offer.targets.join(', ')} on port ${offer.listener.port}`,
            );
            if (r.ok) {
              assertThat(
                paidFrom(r, marker),
                `${offer.uri}: the payment does not come from the CPR served at the endpoint (display_name ${marker} absent)`,
              );
              const at = mock.reached(offer.token).map((q) => q.target);
              readings.push(`${c.what}: retrieved at ${at.join(', ')}`);
            } else {
              readings.push(`${c.what}: refused (${r.error.code ?? 'no code'})`);
            }
          },
        );
        note(readings.join('; '));
      },
    );

    check(
      'endpoint-with-query-refusal-422',
      ['PRF-3-DERIVE-ERROR-CODES'],
      'a wallet that refuses an endpoint with a query answers 422 TOKEN_REJECTED or INVALID_STRUCTURE (a uri it cannot use, AMB-36, AMB-39)',
      async () => {
        const { cases } = await formsOf(wallet, QUERY_FORMS);
        await allCases(
          cases,
          (c) => c.what,
          async (c) => {
            const { offer } = await c.offer();
            const r = await wallet.derive({ uri: offer.uri, context: deriveContext() });
            if (!r.ok)
              expectRejectionCode(r, ['TOKEN_REJECTED', 'INVALID_STRUCTURE'], `${offer.uri}: the refusal`);
          },
        );
      },
    );

    check(
      'token-never-sent-to-server-of-untrusted-ca',
      ['PRF-3-RETRIEVAL-CERT-CHAIN'],
      'the token is never sent to a server whose certificate does not chain to a CA the wallet trusts',
      () => trapsHold(wallet, UNTRUSTED, 'its certificate chains to no CA the wallet trusts'),
    );

    check(
      'token-never-sent-to-server-of-another-host',
      ['PRF-3-RETRIEVAL-CERT-HOST'],
      "the token is never sent to a server whose certificate does not name the endpoint's host name or IP address",
      () => trapsHold(wallet, OTHER_HOST, "its certificate does not name the endpoint's host"),
    );

    check(
      'token-never-sent-to-server-of-expired-certificate',
      ['PRF-3-RETRIEVAL-CERT-VALIDITY'],
      'the token is never sent to a server whose certificate is expired or not yet valid',
      () => trapsHold(wallet, OUT_OF_DATE, 'its certificate is outside its validity period'),
    );

    check(
      'redirect-to-http-never-followed',
      ['CPR-5-TLS-ONLY', 'PRF-3-RETRIEVAL-REDIRECT'],
      'a redirect (301, 302, 303, 307, 308) to an http location is never followed: the token never travels in clear',
      () => trapsHold(wallet, TO_HTTP, 'the token travelled in clear (spec 5 rule 4)'),
    );

    check(
      'redirect-to-unauthenticated-server-never-followed',
      ['PRF-3-RETRIEVAL-REDIRECT'],
      'a redirect to an https server the wallet cannot authenticate (untrusted CA, another host, expired or not yet valid) is never followed: the token never reaches it',
      () =>
        trapsHold(
          wallet,
          TO_UNAUTHENTICATED,
          'a redirect is followed only to a server validated like the first',
        ),
    );

    check(
      'redirect-loop-ends-within-bound',
      ['PRF-3-RETRIEVAL-REDIRECT'],
      `a redirect loop (to itself, between two ports, an endless chain of fresh locations) ends within ${MAX_REDIRECTS} redirects`,
      () => trapsHold(wallet, LOOPS),
    );

    check(
      'refused-retrieval-422-token-rejected',
      ['PRF-3-RETRIEVAL-TOKEN-REJECTED'],
      'a retrieval the wallet refuses or that fails (an untrusted, foreign or out-of-date certificate, a redirect to http or to such a server, a redirect loop) is answered 422 TOKEN_REJECTED',
      async () => {
        const mock = await mockPayee();
        await allCases(
          ALL_TRAPS,
          (t) => t.what,
          async (t) => {
            const armed = await t.arm(wallet, mock);
            expectRejectionCode(
              await wallet.derive({ uri: armed.uri, context: deriveContext() }),
              ['TOKEN_REJECTED'],
              `${t.what}: the refusal`,
            );
          },
        );
      },
    );

    check(
      'redirect-to-authenticated-https-followed-or-refused',
      ['PRF-3-RETRIEVAL-REDIRECT'],
      'a redirect (301, 302, 303, 307, 308, relative, to localhost) to an https location the wallet can authenticate is followed to a Payment of the CPR served there, or refused; the redirect answer itself is never taken for the CPR',
      async () => {
        const mock = await mockPayee();
        const second = await mock.listen();
        const seen: string[] = [];
        await allCases(
          VALID_REDIRECTS,
          (v) => v.what,
          async (v) => {
            const { cpr, marker } = await markedCpr(wallet);
            const decoy = await baseCpr(wallet);
            const decoyMarker = `Decoy Shop ${randomUUID()}`;
            (decoy.payee as JsonObject).display_name = decoyMarker;
            const token = mockToken('hex');
            const offer = mock.offer(cpr, {
              token,
              path: '/pay',
              redirect: { status: v.status, location: v.location(mock, second, token), body: decoy },
            });
            const r = await wallet.derive({ uri: offer.uri, context: deriveContext() });
            if (r.ok) {
              assertThat(
                !JSON.stringify(r.payment).includes(decoyMarker),
                `${v.what}: the payment was made from the body of the ${v.status} answer, which is no CPR`,
              );
              assertThat(
                paidFrom(r, marker),
                `${v.what}: the payment does not come from the CPR served at the redirect's location (display_name ${marker} absent)`,
              );
              seen.push(`${v.what}: followed`);
            } else {
              seen.push(`${v.what}: refused (${r.error.code ?? 'no code'})`);
            }
          },
        );
        note(seen.join('; '));
      },
    );

    check(
      'authenticated-redirect-refusal-422-token-rejected',
      ['PRF-3-RETRIEVAL-TOKEN-REJECTED'],
      'a wallet that does not follow a redirect to an https location it can authenticate answers 422 TOKEN_REJECTED',
      async () => {
        const mock = await mockPayee();
        const second = await mock.listen();
        await allCases(
          VALID_REDIRECTS,
          (v) => v.what,
          async (v) => {
            const token = mockToken('hex');
            const offer = mock.offer((await markedCpr(wallet)).cpr, {
              token,
              path: '/pay',
              redirect: { status: v.status, location: v.location(mock, second, token) },
            });
            const r = await wallet.derive({ uri: offer.uri, context: deriveContext() });
            if (!r.ok) expectRejectionCode(r, ['TOKEN_REJECTED'], `${v.what}: the refusal`);
          },
        );
      },
    );
  });
});
