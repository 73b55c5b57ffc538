/**
 * Permitted variants of the retrieval of a reference URI (profile 3: "It follows a redirect, if
 * at all, only to an https URL it validates the same way"; AMB-39: the readings of
 * `{endpoint}/cpr/{token}` for an endpoint with a trailing slash or a query). Each retrieves with
 * its own HTTPS client (validating like the reference: the suite CA, the host name, the dates),
 * then derives the CPR it got like the reference.
 */
import { Agent, request } from 'undici';
import { derivePayment } from '../../../src/reference/wallet/derive.js';
import type { WalletCore } from '../../../src/reference/wallet/index.js';
import { createWalletCore } from '../../../src/reference/wallet/index.js';
import { bodyOf, type CoreOptions, refusal } from '../../broken/wallet/harness.js';
import { walletVariant } from './harness.js';

/** A reference URI as this variant reads it: the token and the decoded endpoint. */
const REFERENCE = /^cpr:\/\/([a-z2-7]+|[0-9a-f]+)\?endpoint=([^&#]+)$/;

/** How a variant retrieves. */
interface Retrieval {
  /** The retrieval URL of `token` at `endpoint` (an https URL), `raw` as the URI decoded it. */
  url: (endpoint: URL, raw: string, token: string) => string;
  /** Redirects followed to https locations (validated by the same client), at most this many (0: none). */
  maxRedirects: number;
}

/** The reference derivation, with reference URIs retrieved as `retrieval` says. */
function ownRetrieval(retrieval: Retrieval): (options: CoreOptions) => WalletCore {
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

/** The endpoint's path, trailing slashes dropped, then `/cpr/{token}`. */
function joined(endpoint: URL, token: string): string {
  return `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/cpr/${token}`;
}

export const followsHttpsRedirects = walletVariant({
  id: 'wallet-variant-follows-https-redirects',
  choice:
    'follows up to 10 redirects to https locations it validates like the first (its CA, host name, dates), and keeps an endpoint query after /cpr/{token}',
  clause:
    'profile 3: "It follows a redirect, if at all, only to an https URL it validates the same way"; AMB-39',
  core: ownRetrieval({
    url: (endpoint, _raw, token) => `${joined(endpoint, token)}${endpoint.search}`,
    maxRedirects: 10,
  }),
});

export const literalEndpointTemplate = walletVariant({
  id: 'wallet-variant-literal-endpoint-template',
  choice:
    'pastes the endpoint as written before /cpr/{token} (a trailing slash gives //cpr/, a query ends up before /cpr/{token}); follows no redirect',
  clause: 'profile 2-3: the retrieval URL is exactly {endpoint}/cpr/{token}; AMB-39',
  core: ownRetrieval({ url: (_endpoint, raw, token) => `${raw}/cpr/${token}`, maxRedirects: 0 }),
});

export const endpointQueryDropped = walletVariant({
  id: 'wallet-variant-endpoint-query-dropped',
  choice:
    "leaves an endpoint's query out of the retrieval URL (the path and port kept); follows one redirect to an https location it validates",
  clause: 'profile 3: "the endpoint\'s path and port kept" (the query is not named); AMB-39',
  core: ownRetrieval({ url: (endpoint, _raw, token) => joined(endpoint, token), maxRedirects: 1 }),
});

/** The permitted variants of the retrieval. */
export const retrievalVariants = [followsHttpsRedirects, literalEndpointTemplate, endpointQueryDropped];
