/**
 * Broken wallets of the retrieval of a reference URI (profile 3, spec 4.1, 5 rule 4; profile 2's
 * reference-URI forms): each is the reference derivation with its own HTTPS retrieval, carrying
 * one fault real clients are known for: TLS verification switched off or half done, redirects
 * followed by a library default, a retrieval URL built by URL resolution or string pasting.
 */
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate, type TLSSocket, connect as tlsConnect } from 'node:tls';
import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { decodeCprUri } from '../../../src/codec/uri.js';
import { derivePayment } from '../../../src/reference/wallet/derive.js';
import { DerivationFailure } from '../../../src/reference/wallet/errors.js';
import { createWalletCore, type WalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, brokenWallet, type CoreOptions, refusal } from './harness.js';

/** How a broken retrieval connects, follows redirects and builds its URL. */
export interface RetrievalSpec {
  /** The dispatcher (TLS options) made from the trusted CAs (default: the reference's, validating). */
  dispatcher?: (ca: string[]) => Dispatcher;
  /**
   * Redirects: `none` (default: a 3xx is a refusal), or follow those `follow` accepts, at most
   * `max` hops (default 10), each through `hopDispatcher` (default the same dispatcher).
   */
  redirects?: {
    follow: (location: URL) => boolean;
    max?: number;
    hopDispatcher?: (ca: string[]) => Dispatcher;
  };
  /** The retrieval URL from the URI (default the codec's `{endpoint}/cpr/{token}`). */
  url?: (uri: string, retrievalUrl: string) => string;
  /** A status other than 200 taken for the CPR too. */
  acceptsStatus?: (status: number) => boolean;
}

/** The validating dispatcher of the reference fetcher: the given CAs, Node's checks. */
export function validating(ca: string[]): Dispatcher {
  return new Agent({ connect: { ca, timeout: 10_000 } });
}

/** GETs `url` and parses the JSON body, following redirects as `spec` says. */
async function retrieve(
  url: string,
  dispatcher: Dispatcher,
  hop: Dispatcher,
  spec: RetrievalSpec,
): Promise<unknown> {
  let current = new URL(url);
  if (current.protocol !== 'https:')
    throw new DerivationFailure('TOKEN_REJECTED', 'the endpoint is not https');
  for (let hops = 0; ; hops++) {
    const response = await request(current, {
      method: 'GET',
      dispatcher: hops === 0 ? dispatcher : hop,
      headers: { accept: 'application/json' },
      headersTimeout: 10_000,
      bodyTimeout: 10_000,
    });
    const text = await response.body.text();
    const location = response.headers.location;
    if (
      spec.redirects &&
      response.statusCode >= 300 &&
      response.statusCode < 400 &&
      typeof location === 'string'
    ) {
      const next = new URL(location, current);
      if (!spec.redirects.follow(next) || hops >= (spec.redirects.max ?? 10)) {
        throw new DerivationFailure('TOKEN_REJECTED', `the payee redirected to ${next.origin}; not followed`);
      }
      current = next;
      continue;
    }
    if (response.statusCode !== 200 && !spec.acceptsStatus?.(response.statusCode)) {
      throw new DerivationFailure('TOKEN_REJECTED', `the payee answered ${response.statusCode}`);
    }
    return JSON.parse(text) as unknown;
  }
}

/** The reference derivation with the broken retrieval of `spec`. */
export function retrievalCore(spec: RetrievalSpec): (options: CoreOptions) => WalletCore {
  return (options) => {
    const dispatcher = (spec.dispatcher ?? validating)(options.trustedCaPems);
    const hop = spec.redirects?.hopDispatcher
      ? spec.redirects.hopDispatcher(options.trustedCaPems)
      : dispatcher;
    return {
      derive(body) {
        const uri = bodyOf(body)?.uri;
        return derivePayment(body as Parameters<typeof derivePayment>[0], {
          now: new Date(),
          supportedRails: options.supportedRails,
          fetchCpr: (retrievalUrl) =>
            retrieve(
              spec.url && typeof uri === 'string' ? spec.url(uri, retrievalUrl) : retrievalUrl,
              dispatcher,
              hop,
              spec,
            ),
        });
      },
      async close() {
        await dispatcher.close();
        if (hop !== dispatcher) await hop.close();
      },
    };
  };
}

/** A reference URI as {@link ownRetrieval} reads it: the token and the decoded endpoint. */
const REFERENCE = /^cpr:\/\/([a-z2-7]+|[0-9a-f]+)\?endpoint=([^&#]+)$/;

/** How a wallet of {@link ownRetrieval} retrieves. */
export interface Retrieval {
  /** The retrieval URL of `token` at `endpoint` (an https URL), `raw` as the URI decoded it. */
  url: (endpoint: URL, raw: string, token: string) => string;
  /** Redirects followed to https locations (validated by the same client), at most this many (0: none). */
  maxRedirects: number;
}

/**
 * The reference derivation, with reference URIs read and retrieved by the wallet's own code (not
 * the codec's, which refuses an endpoint with a query): `retrieval` builds the URL and bounds the
 * redirects; anything else is the reference's. Used by the permitted variants of the retrieval too.
 */
export function ownRetrieval(retrieval: Retrieval): (options: CoreOptions) => WalletCore {
  return (options) => {
    const reference = createWalletCore(options);
    const agent = new Agent({ connect: { ca: options.trustedCaPems, timeout: 10_000 } });

    async function fetchJson(first: string): Promise<unknown> {
      let url = new URL(first);
      for (let hops = 0; ; hops++) {
        const response = await request(url, {
          method: 'GET',
          dispatcher: agent,
          headers: { accept: 'application/json' },
          headersTimeout: 10_000,
          bodyTimeout: 10_000,
        });
        const text = await response.body.text();
        const location = response.headers.location;
        if (response.statusCode >= 300 && response.statusCode < 400 && typeof location === 'string') {
          const next = new URL(location, url);
          if (next.protocol !== 'https:' || hops >= retrieval.maxRedirects) {
            throw new Error(`the payee redirected to ${next.origin}; not followed`);
          }
          url = next;
          continue;
        }
        if (response.statusCode !== 200) throw new Error(`the payee answered ${response.statusCode}`);
        try {
          return JSON.parse(text) as unknown;
        } catch {
          throw new SyntaxError('the payee answered a body that is not json');
        }
      }
    }

    return {
      async derive(body) {
        const b = bodyOf(body);
        const m = typeof b?.uri === 'string' ? REFERENCE.exec(b.uri) : null;
        let raw: string;
        try {
          raw = decodeURIComponent(m?.[2] ?? '');
        } catch {
          return reference.derive(body);
        }
        const token = m?.[1] ?? '';
        if (!m || !URL.canParse(raw) || new URL(raw).protocol !== 'https:') return reference.derive(body);
        const endpoint = new URL(raw);
        const tail = /\/cpr\/([^/]+)\/?$/.exec(endpoint.pathname);
        if (tail && tail[1] !== token) return reference.derive(body);
        const url = tail ? raw : retrieval.url(endpoint, raw, token);
        let cpr: unknown;
        try {
          cpr = await fetchJson(url);
        } catch (err) {
          if (err instanceof SyntaxError) return refusal('INVALID_STRUCTURE', err.message);
          return refusal('TOKEN_REJECTED', `retrieving the cpr failed: ${(err as Error).message}`);
        }
        if (typeof cpr !== 'object' || cpr === null || Array.isArray(cpr)) {
          return refusal('INVALID_STRUCTURE', 'the payee served json that is no cpr object');
        }
        return derivePayment({ cpr, context: b?.context } as Parameters<typeof derivePayment>[0], {
          now: new Date(),
          supportedRails: options.supportedRails,
        });
      },
      async close() {
        await agent.close();
        await reference.close();
      },
    };
  };
}

/** The endpoint and token of a reference URI as the codec reads them. */
function parts(uri: string): { endpoint: string; token: string } {
  const decoded = decodeCprUri(uri);
  if (!decoded.ok || decoded.value.kind !== 'reference') throw new Error('not a reference uri');
  return { endpoint: decoded.value.endpoint, token: decoded.value.token };
}

/** A dispatcher whose TLS connector accepts certificates outside their validity period (the rest checked). */
function ignoringExpiry(ca: string[]): Dispatcher {
  return new Agent({
    connect: (opts, callback) => {
      const host = opts.hostname.replace(/^\[|\]$/g, '');
      const socket: TLSSocket = tlsConnect({
        host,
        port: Number(opts.port || 443),
        ...(isIP(host) === 0 ? { servername: host } : {}),
        ca,
        rejectUnauthorized: false,
        ALPNProtocols: ['http/1.1'],
      });
      socket.once('secureConnect', () => {
        if (!socket.authorized) {
          const code = String(socket.authorizationError);
          // the fault: a certificate past (or before) its dates is taken once its name matches
          const dates = code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID';
          const wrong = dates
            ? checkServerIdentity(host, socket.getPeerCertificate() as PeerCertificate)
            : new Error(code);
          if (wrong) {
            socket.destroy();
            callback(wrong, null);
            return;
          }
        }
        callback(null, socket);
      });
      socket.once('error', (err) => callback(err, null));
      return socket;
    },
  });
}

/** Base32 tokens re-encoded in RFC 4648's upper-case alphabet (a base32 library's output). */
function upperCaseBase32(uri: string, url: string): string {
  const { token } = parts(uri);
  return /^[a-z2-7]+$/.test(token) && /[a-z]/.test(token)
    ? url.replace(`/cpr/${token}`, `/cpr/${token.toUpperCase()}`)
    : url;
}

/**
 * What a wallet that resolves no reference URI at all trips: its own retrieval IDs, and the
 * delivery-path checks (every path, rail and amount kind), each failing through every reference
 * URI cell.
 */
export const NO_REFERENCE_URI_PAID: string[] = [
  'CPR-4.3-WALLET-RESOLVES-URI',
  'CPR-4.4-ASSEMBLE-PAYMENT',
  'CPR-4.5-OPEN-AMOUNT',
  'CPR-INV-7-DERIVATION',
  'PRF-2-REFERENCE-FULL-ENDPOINT',
  'PRF-3-DERIVE-ERROR-CODES',
  'PRF-3-PAYER-DATA-REFUSED-OR-IGNORED',
  'PRF-3-RETRIEVAL-URL',
];

export const acceptsAnyCertificate = brokenWallet({
  id: 'wallet-retrieval-accepts-any-certificate',
  fault:
    'the retrieval runs with rejectUnauthorized: false: any certificate (another CA, another host, expired) is taken',
  expected: [
    'PRF-3-RETRIEVAL-CERT-CHAIN',
    'PRF-3-RETRIEVAL-CERT-HOST',
    'PRF-3-RETRIEVAL-CERT-VALIDITY',
    'PRF-3-RETRIEVAL-TOKEN-REJECTED',
  ],
  core: retrievalCore({ dispatcher: (ca) => new Agent({ connect: { ca, rejectUnauthorized: false } }) }),
});

export const ignoresHostName = brokenWallet({
  id: 'wallet-retrieval-ignores-host-name',
  fault: 'the retrieval checks the chain and the dates but not the host name (checkServerIdentity a no-op)',
  expected: ['PRF-3-RETRIEVAL-CERT-HOST', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
  core: retrievalCore({
    dispatcher: (ca) => new Agent({ connect: { ca, checkServerIdentity: () => undefined } }),
  }),
});

export const ignoresExpiry = brokenWallet({
  id: 'wallet-retrieval-ignores-expiry',
  fault:
    'the retrieval takes a certificate outside its validity period (expired, not yet valid) once chain and name match',
  expected: ['PRF-3-RETRIEVAL-CERT-VALIDITY', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
  core: retrievalCore({ dispatcher: ignoringExpiry }),
});

export const followsRedirectToHttp = brokenWallet({
  id: 'wallet-retrieval-follows-redirect-to-http',
  fault:
    "the retrieval follows redirects by the HTTP library's default (undici's redirect interceptor), http locations included",
  expected: ['CPR-5-TLS-ONLY', 'PRF-3-RETRIEVAL-REDIRECT', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
  core: retrievalCore({
    dispatcher: (ca) =>
      new Agent({ connect: { ca, timeout: 10_000 } }).compose(interceptors.redirect({ maxRedirections: 5 })),
  }),
});

export const followsRedirectUnauthenticated = brokenWallet({
  id: 'wallet-retrieval-follows-redirect-unauthenticated',
  fault: 'the retrieval follows https redirects through a second client that does not verify certificates',
  expected: ['PRF-3-RETRIEVAL-REDIRECT', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
  core: retrievalCore({
    redirects: {
      follow: (location) => location.protocol === 'https:',
      hopDispatcher: () => new Agent({ connect: { rejectUnauthorized: false } }),
    },
  }),
});

export const redirectsWithoutBound = brokenWallet({
  id: 'wallet-retrieval-redirects-without-bound',
  fault:
    'the retrieval follows https redirects it validates, with no limit on their number (a loop runs until the payee stops it)',
  expected: ['PRF-3-RETRIEVAL-REDIRECT'],
  core: retrievalCore({
    redirects: { follow: (location) => location.protocol === 'https:', max: Number.POSITIVE_INFINITY },
  }),
});

export const redirectBodyTaken = brokenWallet({
  id: 'wallet-retrieval-redirect-body-taken',
  fault: 'the retrieval takes any 2xx or 3xx answer for the CPR: the body of a redirect is paid',
  expected: ['PRF-3-RETRIEVAL-REDIRECT', 'PRF-3-RETRIEVAL-TOKEN-REJECTED'],
  core: retrievalCore({ acceptsStatus: (status) => status >= 200 && status < 400 }),
});

export const dropsEndpointPath = brokenWallet({
  id: 'wallet-retrieval-drops-endpoint-path',
  fault: "the retrieval URL is new URL('/cpr/' + token, endpoint): the endpoint's path is dropped",
  expected: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-2-REFERENCE-FULL-ENDPOINT', 'PRF-3-RETRIEVAL-URL'],
  core: retrievalCore({
    url: (uri) => {
      const { endpoint, token } = parts(uri);
      return new URL(`/cpr/${token}`, endpoint).href;
    },
  }),
});

export const dropsLastSegment = brokenWallet({
  id: 'wallet-retrieval-drops-last-segment',
  fault:
    "the retrieval URL is new URL('cpr/' + token, endpoint): the last segment of a path without a trailing slash is dropped",
  expected: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-2-REFERENCE-FULL-ENDPOINT', 'PRF-3-RETRIEVAL-URL'],
  core: retrievalCore({
    url: (uri) => {
      const { endpoint, token } = parts(uri);
      return new URL(`cpr/${token}`, endpoint).href;
    },
  }),
});

export const dropsPort = brokenWallet({
  id: 'wallet-retrieval-drops-port',
  fault:
    "the retrieval URL is built from the endpoint's host name and path: its port is dropped (443 is asked)",
  expected: NO_REFERENCE_URI_PAID,
  core: retrievalCore({
    url: (_uri, url) => {
      const u = new URL(url);
      return `https://${u.hostname}${u.pathname}${u.search}`;
    },
  }),
});

/**
 * Connections pooled by host name alone: the port a host was first reached on serves every later
 * retrieval from that host while it still accepts connections (a refused connection re-pins the
 * host to the port asked).
 */
function pooledByHost(options: CoreOptions): WalletCore {
  const agent = validating(options.trustedCaPems);
  const pins = new Map<string, string>();
  const get = (url: string) => retrieve(url, agent, agent, {});
  return {
    derive: (body) =>
      derivePayment(body as Parameters<typeof derivePayment>[0], {
        now: new Date(),
        supportedRails: options.supportedRails,
        async fetchCpr(retrievalUrl) {
          const url = new URL(retrievalUrl);
          const pinned = pins.get(url.hostname);
          if (pinned !== undefined && pinned !== url.port) {
            const moved = new URL(url);
            moved.port = pinned;
            try {
              return await get(moved.href);
            } catch (err) {
              if ((err as { code?: string }).code !== 'ECONNREFUSED') throw err;
            }
          }
          pins.set(url.hostname, url.port);
          return get(url.href);
        },
      }),
    close: () => agent.close(),
  };
}

export const pooledByHostName = brokenWallet({
  id: 'wallet-retrieval-pools-by-host-name',
  fault:
    'connections are pooled by host name alone: a retrieval from a second port of the same host goes to the first port',
  expected: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-2-REFERENCE-FULL-ENDPOINT', 'PRF-3-RETRIEVAL-URL'],
  // with --jobs, one process's retrieval reaches another's mock payee
  overlapSensitive: true,
  core: pooledByHost,
});

export const doubleSlash = brokenWallet({
  id: 'wallet-retrieval-double-slash',
  fault:
    "the retrieval URL is new URL(endpoint).href + '/cpr/' + token: a bare origin's href ends in '/', so the path starts '//cpr/'",
  expected: NO_REFERENCE_URI_PAID.filter((id) => id !== 'PRF-2-REFERENCE-FULL-ENDPOINT'),
  core: retrievalCore({
    url: (uri, url) => {
      const { endpoint, token } = parts(uri);
      return /\/cpr\/[a-z0-9]+\/?$/.test(endpoint) ? url : `${new URL(endpoint).href}/cpr/${token}`;
    },
  }),
});

export const tokenUpperCased = brokenWallet({
  id: 'wallet-retrieval-token-upper-cased',
  fault: "a base32 token is re-encoded in RFC 4648's upper-case alphabet before the retrieval",
  expected: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-2-REFERENCE-FULL-ENDPOINT', 'PRF-3-RETRIEVAL-URL'],
  core: retrievalCore({ url: upperCaseBase32 }),
});

export const refusesHexTokens = brokenWallet({
  id: 'wallet-retrieval-refuses-hex-tokens',
  fault: 'a token that is not base32 (a hex token with 0, 1, 8 or 9) is refused',
  expected: NO_REFERENCE_URI_PAID,
  core: (options) => {
    const inner = retrievalCore({})(options);
    return {
      derive(body) {
        const uri = bodyOf(body)?.uri;
        const decoded = typeof uri === 'string' ? decodeCprUri(uri) : undefined;
        if (decoded?.ok && decoded.value.kind === 'reference' && !/^[a-z2-7]+$/.test(decoded.value.token)) {
          return Promise.resolve({
            ok: false,
            error: { code: 'TOKEN_REJECTED', message: 'the token is not base32' },
          });
        }
        return inner.derive(body);
      },
      close: () => inner.close(),
    };
  },
});

export const fullEndpointAppended = brokenWallet({
  id: 'wallet-retrieval-full-endpoint-appended',
  fault: 'an endpoint already ending in /cpr/{token} gets /cpr/{token} once more',
  expected: ['PRF-2-REFERENCE-FULL-ENDPOINT'],
  core: retrievalCore({
    url: (uri) => {
      const { endpoint, token } = parts(uri);
      return `${endpoint.replace(/\/+$/, '')}/cpr/${token}`;
    },
  }),
});

export const endpointDecodedTwice = brokenWallet({
  id: 'wallet-retrieval-endpoint-decoded-twice',
  fault:
    'the endpoint is percent-decoded twice: escapes in its path (%2F, %3F, %25) are decoded into the URL',
  expected: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-3-RETRIEVAL-URL'],
  core: retrievalCore({
    url: (uri, url) => {
      const { endpoint, token } = parts(uri);
      let twice: string;
      try {
        twice = decodeURIComponent(endpoint);
      } catch {
        return url;
      }
      return /\/cpr\/[a-z0-9]+$/.test(twice) ? twice : `${twice.replace(/\/+$/, '')}/cpr/${token}`;
    },
  }),
});

export const queryIntoPath = brokenWallet({
  id: 'wallet-retrieval-query-into-path',
  fault:
    "the retrieval URL's pathname is set to the endpoint after its origin plus /cpr/{token}: an endpoint's query is percent-encoded into the path (%3F)",
  expected: ['PRF-3-RETRIEVAL-URL'],
  core: ownRetrieval({
    url: (endpoint, raw, token) => {
      const url = new URL(endpoint.origin);
      url.pathname = `${raw.slice(endpoint.origin.length)}/cpr/${token}`;
      return url.href;
    },
    maxRedirects: 0,
  }),
});

/** The broken wallets of the retrieval of reference URIs. */
export const endpointFormDecoded = brokenWallet({
  id: 'wallet-retrieval-endpoint-form-decoded',
  fault:
    "the endpoint parameter is read with URLSearchParams (HTML form decoding): a '+' written in the URI becomes a space",
  expected: ['CPR-4.3-WALLET-RESOLVES-URI', 'PRF-3-RETRIEVAL-URL'],
  core: retrievalCore({
    url: (uri, url) => {
      const { token } = parts(uri);
      const endpoint = new URLSearchParams(uri.slice(uri.indexOf('?') + 1)).get('endpoint');
      if (endpoint === null) return url;
      return /\/cpr\/[a-z0-9]+$/.test(endpoint) ? endpoint : `${endpoint.replace(/\/+$/, '')}/cpr/${token}`;
    },
  }),
});

export const retrievalFaults = [
  acceptsAnyCertificate,
  ignoresHostName,
  ignoresExpiry,
  followsRedirectToHttp,
  followsRedirectUnauthenticated,
  redirectsWithoutBound,
  redirectBodyTaken,
  dropsEndpointPath,
  dropsLastSegment,
  dropsPort,
  pooledByHostName,
  doubleSlash,
  tokenUpperCased,
  refusesHexTokens,
  fullEndpointAppended,
  endpointDecodedTwice,
  endpointFormDecoded,
  queryIntoPath,
];
