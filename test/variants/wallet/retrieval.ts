/**
 * Permitted variants of the retrieval of a reference URI (profile 3: "It follows a redirect, if
 * at all, only to an https URL it validates the same way"; AMB-39: the readings of
 * `{endpoint}/cpr/{token}` for an endpoint with a trailing slash or a query). Each retrieves with
 * its own HTTPS client (validating like the reference: the suite CA, the host name, the dates),
 * then derives the CPR it got like the reference.
 */
import { ownRetrieval } from '../../broken/wallet/retrieval-faults.js';
import { walletVariant } from './harness.js';

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
