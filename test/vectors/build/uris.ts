/**
 * The uris group: `cpr://` URIs of spec 4.2 in every form profile 2 allows (reference and inline,
 * percent-encoded endpoints with ports and paths, an endpoint already ending in /cpr/{token}),
 * the forms a reader may take either way, and malformed ones, each with what it decodes to or
 * the requirement that refuses it.
 */
import { ON_CHAIN, PIX, SEPA_CT } from './bases.js';
import type { Intent } from './documents.js';

export interface UriSpec {
  id: string;
  comment: string;
  req: string[];
  flags?: string[];
  uri: string;
  intent: Intent;
}

const TOKEN32 = 'mfrggzdfmztwq2lknnwg23tpobyxe43u'; // 32 base32 characters: 160 bits
const TOKEN26 = 'mfrggzdfmztwq2lknnwg23tpob'; // 26 base32 characters: 130 bits
const HEX32 = '0f1e2d3c4b5a69788796a5b4c3d2e1f0'; // 32 hex digits: 128 bits
const ENC = (s: string): string => encodeURIComponent(s);
const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64url');

const V: Intent = { valid: true };
const err = (...ids: string[]): Intent => ({ errors: ids });

const REF = 'CPR-4.2-REFERENCE-URI';
const INL = 'CPR-4.2-INLINE-URI';
const FMT = 'CPR-4.2-URI-FORMAT';

/** Every URI spec. */
export function uriSpecs(): UriSpec[] {
  const sepaJson = JSON.stringify(SEPA_CT);
  const pixMemo = JSON.stringify({ ...PIX, memo: 'Pão de queijo \u{1F9C0}' });
  return [
    // ------------------------------------------------------------------ reference, accepted
    {
      id: 'ref-base32',
      comment: 'base32 token, percent-encoded https endpoint with a port',
      req: [REF, 'PRF-2-REFERENCE-URI', 'PRF-2-TOKEN-FORMAT', 'CPR-5-TLS-ONLY'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://pay.example.com:8443')}`,
      intent: V,
    },
    {
      id: 'ref-hex',
      comment: 'lowercase hex token of 128 bits',
      req: [REF, 'PRF-2-TOKEN-FORMAT', 'PRF-2-TOKEN-ENTROPY'],
      uri: `cpr://${HEX32}?endpoint=${ENC('https://pay.example.com')}`,
      intent: V,
    },
    {
      id: 'ref-base32-130-bits',
      comment: 'base32 token of 26 characters (130 bits): the shortest base32 token of at least 128 bits',
      req: ['PRF-2-TOKEN-ENTROPY'],
      uri: `cpr://${TOKEN26}?endpoint=${ENC('https://pay.example.com')}`,
      intent: V,
    },
    {
      id: 'ref-endpoint-path',
      comment: 'an endpoint with a path: retrieval at {endpoint}/cpr/{token}',
      req: ['PRF-2-REFERENCE-URI'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://pay.example.com/api/v2')}`,
      intent: V,
    },
    {
      id: 'ref-endpoint-trailing-slash',
      comment: 'an endpoint ending in "/": no double slash in the retrieval URL',
      req: ['PRF-2-REFERENCE-URI'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://pay.example.com/api/')}`,
      intent: V,
    },
    {
      id: 'ref-endpoint-full',
      comment: 'an endpoint that already ends in /cpr/{token}: retrieved there as it is',
      req: ['PRF-2-REFERENCE-FULL-ENDPOINT'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC(`https://pay.example.com/cpr/${TOKEN32}`)}`,
      intent: V,
    },
    {
      id: 'ref-endpoint-ip',
      comment: 'an endpoint at an IPv4 address and port',
      req: ['PRF-2-REFERENCE-URI'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://127.0.0.1:8443')}`,
      intent: V,
    },
    {
      id: 'ref-endpoint-ipv6',
      comment: 'an endpoint at an IPv6 address and port',
      req: ['PRF-2-REFERENCE-URI'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://[::1]:8443')}`,
      intent: V,
    },
    {
      id: 'ref-scheme-upper-case',
      comment: 'scheme written CPR: URI schemes are case-insensitive (RFC 3986 3.1)',
      req: [FMT],
      uri: `CPR://${TOKEN32}?endpoint=${ENC('https://pay.example.com')}`,
      intent: V,
    },
    {
      id: 'ref-other-parameter',
      comment: 'another query parameter beside endpoint',
      req: [REF],
      uri: `cpr://${TOKEN32}?v=1&endpoint=${ENC('https://pay.example.com')}`,
      intent: V,
    },
    // ------------------------------------------------------------------ reference, either way
    {
      id: 'ref-endpoint-not-encoded',
      comment:
        'the endpoint written without percent-encoding: the profile encodes it; a reader may still read it',
      req: ['PRF-2-REFERENCE-URI'],
      flags: ['ReaderChoice'],
      uri: `cpr://${TOKEN32}?endpoint=https://pay.example.com`,
      intent: {
        acceptable:
          'profile 2 says how a payee writes the endpoint (percent-encoded); it does not say a reader must refuse another spelling',
      },
    },
    {
      id: 'ref-slash-after-token',
      comment: 'a "/" between the token and the query',
      req: [REF],
      flags: ['ReaderChoice'],
      uri: `cpr://${TOKEN32}/?endpoint=${ENC('https://pay.example.com')}`,
      intent: { acceptable: 'an empty path "/" changes nothing a reader needs; the profile form has none' },
    },
    // ------------------------------------------------------------------ reference, token format (decodable, a payee error)
    {
      id: 'ref-token-upper-case',
      comment: 'an upper-case base32 token: a URI parser may fold a host to lower case',
      req: ['PRF-2-TOKEN-FORMAT'],
      uri: `cpr://${TOKEN32.toUpperCase()}?endpoint=${ENC('https://pay.example.com')}`,
      intent: err('PRF-2-TOKEN-FORMAT'),
    },
    {
      id: 'ref-token-short',
      comment: 'a base32 token of 25 characters (125 bits)',
      req: ['PRF-2-TOKEN-ENTROPY'],
      uri: `cpr://${TOKEN26.slice(0, 25)}?endpoint=${ENC('https://pay.example.com')}`,
      intent: err('PRF-2-TOKEN-ENTROPY'),
    },
    {
      id: 'ref-token-hex-31',
      comment: 'a hex token of 31 digits (124 bits)',
      req: ['PRF-2-TOKEN-ENTROPY'],
      uri: `cpr://${HEX32.slice(0, 31)}?endpoint=${ENC('https://pay.example.com')}`,
      intent: err('PRF-2-TOKEN-ENTROPY'),
    },
    {
      id: 'ref-token-dash',
      comment: 'a token with "-" (host-safe, but neither base32 nor hex)',
      req: ['PRF-2-TOKEN-FORMAT'],
      uri: `cpr://${TOKEN32.slice(0, 16)}-${TOKEN32.slice(16)}?endpoint=${ENC('https://pay.example.com')}`,
      intent: err('PRF-2-TOKEN-FORMAT'),
    },
    // ------------------------------------------------------------------ reference, refused
    {
      id: 'ref-http-endpoint',
      comment: 'an http endpoint: the token travels over TLS only',
      req: ['CPR-5-TLS-ONLY'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('http://pay.example.com')}`,
      intent: err('CPR-5-TLS-ONLY'),
    },
    {
      id: 'ref-no-endpoint',
      comment: 'no query at all',
      req: [REF],
      uri: `cpr://${TOKEN32}`,
      intent: err(REF),
    },
    {
      id: 'ref-empty-endpoint',
      comment: 'endpoint= with nothing after it',
      req: [REF],
      uri: `cpr://${TOKEN32}?endpoint=`,
      intent: err(REF),
    },
    {
      id: 'ref-two-endpoints',
      comment: 'two endpoint parameters',
      req: [REF],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://a.example')}&endpoint=${ENC('https://b.example')}`,
      intent: err(REF),
    },
    {
      id: 'ref-endpoint-relative',
      comment: 'an endpoint that is no absolute URL',
      req: [REF],
      uri: `cpr://${TOKEN32}?endpoint=pay.example.com`,
      intent: err(REF),
    },
    {
      id: 'ref-endpoint-bad-percent',
      comment: 'a "%" not followed by two hex digits',
      req: [REF],
      uri: `cpr://${TOKEN32}?endpoint=https%3A%2F%2Fpay.example.com%2`,
      intent: err(REF),
    },
    {
      id: 'ref-endpoint-credentials',
      comment: 'an endpoint with user credentials',
      req: ['PRF-2-REFERENCE-URI'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://user:pw@pay.example.com')}`,
      intent: err('PRF-2-REFERENCE-URI'),
    },
    {
      id: 'ref-endpoint-query',
      comment: 'an endpoint with its own query: {endpoint}/cpr/{token} cannot be formed',
      req: ['PRF-2-REFERENCE-URI'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://pay.example.com/?x=1')}`,
      intent: err('PRF-2-REFERENCE-URI'),
    },
    {
      id: 'ref-endpoint-other-token',
      comment: 'an endpoint ending in /cpr/ and another token',
      req: ['PRF-2-REFERENCE-FULL-ENDPOINT'],
      uri: `cpr://${TOKEN32}?endpoint=${ENC(`https://pay.example.com/cpr/${HEX32}`)}`,
      intent: err('PRF-2-REFERENCE-FULL-ENDPOINT'),
    },
    {
      id: 'ref-path-after-token',
      comment: 'a path after the token',
      req: [REF],
      uri: `cpr://${TOKEN32}/cpr?endpoint=${ENC('https://pay.example.com')}`,
      intent: err(REF),
    },
    {
      id: 'ref-token-unsafe',
      comment: 'a token with a character that cannot stand in a host',
      req: [REF],
      uri: `cpr://${TOKEN32.slice(0, 10)}%20${TOKEN32.slice(10)}?endpoint=${ENC('https://pay.example.com')}`,
      intent: err(REF),
    },
    // ------------------------------------------------------------------ inline, accepted
    {
      id: 'inline-sepa',
      comment: 'an inline SEPA_CT request',
      req: [INL, 'PRF-2-INLINE-URI'],
      uri: `cpr://inline/${b64(sepaJson)}`,
      intent: V,
    },
    {
      id: 'inline-on-chain',
      comment: 'an inline ON_CHAIN request with a 78-digit amount kept as a string',
      req: [INL, 'PRF-2-INLINE-URI'],
      uri: `cpr://inline/${b64(JSON.stringify({ ...ON_CHAIN, value: { ...(ON_CHAIN.value as object), amount: (2n ** 256n - 1n).toString() } }))}`,
      intent: V,
    },
    {
      id: 'inline-utf8',
      comment: 'an inline request whose memo has two-, three- and four-byte UTF-8 sequences',
      req: ['PRF-2-INLINE-URI'],
      uri: `cpr://inline/${b64(pixMemo)}`,
      intent: V,
    },
    {
      id: 'inline-authority-upper-case',
      comment: 'cpr://INLINE/: the authority compared case-insensitively',
      req: [INL],
      uri: `cpr://INLINE/${b64(sepaJson)}`,
      intent: V,
    },
    {
      id: 'inline-base64url-chars',
      comment: 'inline data using "-" and "_" (base64url, not base64)',
      req: ['PRF-2-INLINE-URI'],
      uri: `cpr://inline/${b64('{"memo":"??>>"}')}`,
      intent: V,
    },
    // ------------------------------------------------------------------ inline, either way
    {
      id: 'inline-padded',
      comment: 'inline data with "=" padding: the profile writes none',
      req: ['PRF-2-INLINE-URI'],
      flags: ['ReaderChoice'],
      uri: `cpr://inline/${Buffer.from(sepaJson, 'utf8')
        .toString('base64')
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .padEnd(Math.ceil(b64(sepaJson).length / 4) * 4, '=')}`,
      intent: {
        acceptable:
          'profile 2 says a payee writes base64url without padding; a reader may strip padding or refuse it',
      },
    },
    // ------------------------------------------------------------------ inline, refused
    {
      id: 'inline-standard-base64',
      comment: 'inline data in standard base64 ("+" and "/")',
      req: [INL],
      uri: `cpr://inline/${Buffer.from('{"memo":"??>>"}', 'utf8').toString('base64').replace(/=+$/, '')}`,
      intent: err(INL),
    },
    {
      id: 'inline-not-json',
      comment: 'inline data that decodes to text that is not JSON',
      req: [INL],
      uri: `cpr://inline/${b64('cpr_version=CPR-1.0')}`,
      intent: err(INL),
    },
    {
      id: 'inline-json-array',
      comment: 'inline data that decodes to a JSON array',
      req: [INL],
      uri: `cpr://inline/${b64('[1,2]')}`,
      intent: err(INL),
    },
    {
      id: 'inline-not-utf8',
      comment: 'inline data whose bytes are not UTF-8',
      req: ['PRF-2-INLINE-URI'],
      uri: `cpr://inline/${Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]).toString('base64url')}`,
      intent: err('PRF-2-INLINE-URI'),
    },
    {
      id: 'inline-empty',
      comment: 'cpr://inline/ with no data',
      req: [INL],
      uri: 'cpr://inline/',
      intent: err(INL),
    },
    {
      id: 'inline-query',
      comment: 'inline data followed by a query',
      req: [INL],
      uri: `cpr://inline/${b64(sepaJson)}?x=1`,
      intent: err(INL),
    },
    {
      id: 'inline-bad-length',
      comment: 'inline data of 4n+1 characters',
      req: [INL],
      uri: `cpr://inline/${b64('{"a":1}')}A`,
      intent: err(INL),
    },
    {
      id: 'inline-non-canonical',
      comment: 'inline data whose last character has non-zero unused bits',
      req: [INL],
      uri: `cpr://inline/${b64('{}').slice(0, -1)}1`,
      intent: err(INL),
    },
    // ------------------------------------------------------------------ neither form
    {
      id: 'other-scheme',
      comment: 'https:// instead of cpr://',
      req: [FMT],
      uri: `https://${TOKEN32}?endpoint=${ENC('https://pay.example.com')}`,
      intent: err(FMT),
    },
    { id: 'no-authority', comment: 'cpr:// and nothing else', req: [FMT], uri: 'cpr://', intent: err(FMT) },
    {
      id: 'no-slashes',
      comment: 'cpr:inline/... without "//"',
      req: [FMT],
      uri: `cpr:inline/${b64(sepaJson)}`,
      intent: err(FMT),
    },
    {
      id: 'fragment',
      comment: 'a reference URI with a fragment',
      req: [FMT],
      uri: `cpr://${TOKEN32}?endpoint=${ENC('https://pay.example.com')}#x`,
      intent: err(FMT),
    },
  ];
}
