/**
 * The `cpr://` URI forms of spec 4.2, with the wire details of profile section 2:
 * - reference: `cpr://{token}?endpoint={percent-encoded https base_url}`, retrieved at
 *   `{endpoint}/cpr/{token}` (a reader also accepts an endpoint already ending in `/cpr/{token}`);
 * - inline: `cpr://inline/{base64url of the UTF-8 JSON, no padding}`.
 *
 * Encoding throws {@link CprcError} on bad input (a programming error of the producer);
 * decoding never throws, whatever the input: it returns the value or findings.
 *
 * @packageDocumentation
 */
import { CprcError } from '../errors.js';
import { type CodecFinding, type CodecResult, codecFinding } from './findings.js';

/** Requirement IDs the codec reports. */
export const CODEC_REQUIREMENTS = {
  /** Spec 4.2: a cpr URI has one of the two shapes. */
  uriFormat: 'CPR-4.2-URI-FORMAT',
  /** Spec 4.2: the reference shape `cpr://<token>?endpoint=<url>`. */
  referenceShape: 'CPR-4.2-REFERENCE-URI',
  /** Spec 4.2: the inline shape `cpr://inline/<base64url-encoded-json>`. */
  inlineShape: 'CPR-4.2-INLINE-URI',
  /** Spec 5 rules 4-5: the token and the CPR travel over TLS only. */
  tlsOnly: 'CPR-5-TLS-ONLY',
  /** Profile 2: reference URI details (percent-encoded endpoint, retrieval URL). */
  referenceUri: 'PRF-2-REFERENCE-URI',
  /** Profile 2: inline URI details (UTF-8, base64url without padding). */
  inlineUri: 'PRF-2-INLINE-URI',
  /** Profile 2: a reader accepts an endpoint already ending in `/cpr/{token}`. */
  fullEndpoint: 'PRF-2-REFERENCE-FULL-ENDPOINT',
  /** Profile 2: tokens are written in lowercase base32 or lowercase hex. */
  tokenFormat: 'PRF-2-TOKEN-FORMAT',
  /** Profile 2: tokens carry at least 128 bits of randomness. */
  tokenEntropy: 'PRF-2-TOKEN-ENTROPY',
} as const;

/** A decoded reference URI. */
export interface ReferenceCprUri {
  /** Discriminator. */
  kind: 'reference';
  /** The ephemeral token, exactly as written. */
  token: string;
  /** The decoded `endpoint` query parameter, as given. */
  endpoint: string;
  /** Where to `GET` the CPR: `{endpoint}/cpr/{token}`, or `endpoint` when it already ends so. */
  retrievalUrl: string;
}

/** A decoded inline URI. */
export interface InlineCprUri {
  /** Discriminator. */
  kind: 'inline';
  /** The parsed JSON object. */
  document: Record<string, unknown>;
  /** The decoded JSON text, exactly as carried (for byte-exact checks). */
  json: string;
}

/** What {@link decodeCprUri} yields. */
export type DecodedCprUri = ReferenceCprUri | InlineCprUri;

/** Lowercase RFC 4648 base32 alphabet, no padding (profile 2). */
const BASE32_LOWER = /^[a-z2-7]+$/;
/** Lowercase hex (profile 2). */
const HEX_LOWER = /^[0-9a-f]+$/;
/** Characters allowed in a URI reg-name host without percent-encoding (RFC 3986 unreserved). */
const HOST_SAFE = /^[A-Za-z0-9._~-]+$/;
/** base64url alphabet (RFC 4648 section 5). */
const BASE64URL = /^[A-Za-z0-9_-]*$/;
/** RFC 3986 generic syntax split: scheme, authority, path, query, fragment. */
const URI_PARTS = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
/** Minimum token entropy (profile 2). */
const MIN_TOKEN_BITS = 128;

/**
 * Checks a token against profile section 2 (lowercase base32 or hex, >= 128 bits) and returns
 * findings (empty when it conforms). Length is the only entropy evidence a single token gives.
 *
 * @example
 * ```ts
 * tokenFormatFindings('mfrggzdfmztwq2lknnwg23tpobyxe43u'); // []
 * ```
 */
export function tokenFormatFindings(token: string): CodecFinding[] {
  const bits = BASE32_LOWER.test(token) ? token.length * 5 : HEX_LOWER.test(token) ? token.length * 4 : -1;
  if (bits < 0) {
    const hint = /[A-Z]/.test(token)
      ? ' (upper-case letters: a URI parser may fold a host to lower case)'
      : '';
    return [
      codecFinding(
        CODEC_REQUIREMENTS.tokenFormat,
        'PROFILE',
        'error',
        `token "${token}" is neither lowercase base32 (a-z, 2-7) nor lowercase hex${hint}`,
      ),
    ];
  }
  if (bits < MIN_TOKEN_BITS) {
    return [
      codecFinding(
        CODEC_REQUIREMENTS.tokenEntropy,
        'PROFILE',
        'error',
        `token "${token}" carries at most ${bits} bits; at least ${MIN_TOKEN_BITS} random bits are required`,
      ),
    ];
  }
  return [];
}

/**
 * Builds a reference URI: `cpr://{token}?endpoint={percent-encoded endpoint}` (spec 4.2, profile 2).
 *
 * @param token - the ephemeral token (must be host-safe; profile format is not enforced here so
 *   that broken variants can be built, use {@link tokenFormatFindings} to check it).
 * @param endpointBaseUrl - the https base URL the CPR is retrieved from.
 * @throws CprcError `CPRC_INPUT_INVALID` for an empty or host-unsafe token or a non-URL endpoint.
 * @example
 * ```ts
 * encodeReferenceUri('mfrggzdfmztwq2lknnwg23tpobyxe43u', 'https://127.0.0.1:8443');
 * // 'cpr://mfrggzdfmztwq2lknnwg23tpobyxe43u?endpoint=https%3A%2F%2F127.0.0.1%3A8443'
 * ```
 */
export function encodeReferenceUri(token: string, endpointBaseUrl: string): string {
  if (typeof token !== 'string' || !HOST_SAFE.test(token)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `token must be a non-empty string of URI-host-safe characters (a-z, 0-9, ".", "_", "~", "-"), got ${JSON.stringify(token)}`,
    );
  }
  if (typeof endpointBaseUrl !== 'string' || !URL.canParse(endpointBaseUrl)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `endpoint must be an absolute URL, got ${JSON.stringify(endpointBaseUrl)}`,
    );
  }
  return `cpr://${token}?endpoint=${encodeURIComponent(endpointBaseUrl)}`;
}

/**
 * Builds an inline URI: `cpr://inline/{base64url(UTF-8 JSON)}` without padding (spec 4.2, profile 2).
 *
 * @throws CprcError `CPRC_INPUT_INVALID` when `cpr` is not a plain JSON object.
 * @example
 * ```ts
 * encodeInlineUri({ cpr_version: 'CPR-1.0', memo: 'café' }); // 'cpr://inline/eyJjcHJfdmVyc2lvbi...'
 * ```
 */
export function encodeInlineUri(cpr: object): string {
  if (cpr === null || typeof cpr !== 'object' || Array.isArray(cpr)) {
    throw new CprcError('CPRC_INPUT_INVALID', 'an inline CPR must be a JSON object');
  }
  let json: string;
  try {
    json = JSON.stringify(cpr);
  } catch (cause) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      `the CPR cannot be written as JSON: ${(cause as Error).message}`,
      {
        cause,
      },
    );
  }
  return `cpr://inline/${Buffer.from(json, 'utf8').toString('base64url')}`;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes a `cpr://` URI (spec 4.2, profile 2). Never throws.
 *
 * `ok: true` means the URI could be decoded; its `findings` list deviations that did not prevent
 * it (for example a token outside the profile's format, or an endpoint that is not
 * percent-encoded). `ok: false` lists what makes the URI unusable.
 *
 * @example
 * ```ts
 * const r = decodeCprUri(uri);
 * if (r.ok && r.value.kind === 'reference') await fetch(r.value.retrievalUrl);
 * ```
 */
export function decodeCprUri(uri: unknown): CodecResult<DecodedCprUri> {
  const fail = (
    requirement: string,
    level: CodecFinding['level'],
    message: string,
  ): CodecResult<DecodedCprUri> => ({
    ok: false,
    findings: [codecFinding(requirement, level, 'error', message)],
  });
  const R = CODEC_REQUIREMENTS;

  if (typeof uri !== 'string') return fail(R.uriFormat, 'SPEC', `uri must be a string, got ${describe(uri)}`);
  const m = URI_PARTS.exec(uri);
  if (m === null) {
    return fail(
      R.uriFormat,
      'SPEC',
      `uri ${quote(uri)} is not of the form cpr://<token>?endpoint=<url> or cpr://inline/<data>`,
    );
  }
  const [, scheme = '', authority = '', path = '', query, fragment] = m;
  // Spec 4.2: "The URI scheme prefix is the same for QR codes and mobile deep links": cpr.
  // RFC 3986 section 3.1: schemes are case-insensitive.
  if (scheme.toLowerCase() !== 'cpr') {
    return fail(R.uriFormat, 'SPEC', `uri scheme is "${scheme}"; a cpr uri starts with "cpr://"`);
  }
  if (fragment !== undefined) {
    return fail(R.uriFormat, 'SPEC', 'uri has a fragment ("#..."); neither cpr uri form has one');
  }
  if (authority.length === 0) {
    return fail(R.uriFormat, 'SPEC', 'uri has no token or "inline" after "cpr://"');
  }
  if (authority.toLowerCase() === 'inline') return decodeInline(path, query);
  return decodeReference(authority, path, query);
}

/** A failed decoding: the findings gathered so far plus the error that ends it. */
function rejected(
  findings: readonly CodecFinding[],
  requirement: string,
  level: CodecFinding['level'],
  message: string,
): CodecResult<DecodedCprUri> {
  return { ok: false, findings: [...findings, codecFinding(requirement, level, 'error', message)] };
}

/** Spec 4.2 inline form; profile 2: base64url of the UTF-8 JSON, no padding. */
function decodeInline(path: string, query: string | undefined): CodecResult<DecodedCprUri> {
  const R = CODEC_REQUIREMENTS;
  const findings: CodecFinding[] = [];
  const err = (requirement: string, level: CodecFinding['level'], message: string) =>
    rejected(findings, requirement, level, message);
  if (query !== undefined)
    return err(R.inlineShape, 'SPEC', 'inline uri has a query ("?..."); the data must be the whole path');
  if (!path.startsWith('/') || path.length === 1) {
    return err(
      R.inlineShape,
      'SPEC',
      'inline uri has no data: expected cpr://inline/<base64url-encoded-json>',
    );
  }
  let data = path.slice(1);
  if (data.includes('/'))
    return err(R.inlineShape, 'SPEC', 'inline data contains "/", which is not in the base64url alphabet');
  const padded = /=+$/.exec(data);
  if (padded !== null) {
    findings.push(
      codecFinding(
        R.inlineUri,
        'PROFILE',
        'warning',
        `inline data ends in ${padded[0].length} "=" padding character(s); the profile writes base64url without padding`,
      ),
    );
    data = data.slice(0, padded.index);
  }
  const bad = /[^A-Za-z0-9_-]/.exec(data);
  if (bad !== null || !BASE64URL.test(data)) {
    const ch = bad?.[0] ?? '?';
    const extra = ch === '+' || ch === '/' ? ' (standard base64, not base64url: use "-" and "_")' : '';
    return err(
      R.inlineShape,
      'SPEC',
      `inline data is not base64url: character ${quote(ch)} at offset ${bad?.index ?? 0}${extra}`,
    );
  }
  if (data.length % 4 === 1) {
    return err(
      R.inlineShape,
      'SPEC',
      `inline data is not base64url: a length of ${data.length} characters cannot encode whole bytes`,
    );
  }
  const bytes = Buffer.from(data, 'base64url');
  // Canonical encoding: the unused low bits of the last character must be zero (RFC 4648 section 3.5).
  if (bytes.toString('base64url') !== data) {
    return err(
      R.inlineShape,
      'SPEC',
      'inline data is not canonical base64url: the last character has non-zero unused bits',
    );
  }
  let json: string;
  try {
    json = fatalUtf8.decode(bytes);
  } catch {
    return err(
      R.inlineUri,
      'PROFILE',
      'inline data does not decode to utf-8 text; the json must be encoded as utf-8',
    );
  }
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch (e) {
    const why = e instanceof Error ? e.message.replace(/^./, (c) => c.toLowerCase()) : 'parse error';
    return err(R.inlineShape, 'SPEC', `inline data is not json: ${why}`);
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    return err(R.inlineShape, 'SPEC', `inline data holds json ${describe(doc)}, not a json object (a cpr)`);
  }
  return { ok: true, value: { kind: 'inline', document: doc as Record<string, unknown>, json }, findings };
}

/** Spec 4.2 reference form; profile 2: percent-encoded https endpoint, retrieval URL rule. */
function decodeReference(token: string, path: string, query: string | undefined): CodecResult<DecodedCprUri> {
  const R = CODEC_REQUIREMENTS;
  const findings: CodecFinding[] = [];
  const err = (requirement: string, level: CodecFinding['level'], message: string) =>
    rejected(findings, requirement, level, message);
  if (!HOST_SAFE.test(token)) {
    return err(
      R.referenceShape,
      'SPEC',
      `token ${quote(token)} contains characters that cannot stand where a uri host goes`,
    );
  }
  if (path === '/') {
    findings.push(
      codecFinding(
        R.referenceUri,
        'PROFILE',
        'warning',
        'reference uri has a "/" after the token; the profile form is cpr://<token>?endpoint=<url>',
      ),
    );
  } else if (path !== '') {
    return err(
      R.referenceShape,
      'SPEC',
      `reference uri has a path ${quote(path)} after the token; expected cpr://<token>?endpoint=<url>`,
    );
  }
  findings.push(...tokenFormatFindings(token));

  if (query === undefined || query.length === 0) {
    return err(R.referenceShape, 'SPEC', 'reference uri has no "endpoint" query parameter');
  }
  const raws = query
    .split('&')
    .filter((p) => p === 'endpoint' || p.startsWith('endpoint='))
    .map((p) => p.slice('endpoint='.length));
  if (raws.length === 0)
    return err(R.referenceShape, 'SPEC', 'reference uri has no "endpoint" query parameter');
  if (raws.length > 1)
    return err(
      R.referenceShape,
      'SPEC',
      `reference uri has ${raws.length} "endpoint" query parameters; exactly one is allowed`,
    );
  const raw = raws[0] ?? '';
  if (raw.length === 0)
    return err(R.referenceShape, 'SPEC', 'reference uri has an empty "endpoint" query parameter');
  // Profile 2: the endpoint is percent-encoded. Percent-decoding only ("+" stays "+"): this is a
  // URI query, not an HTML form.
  let endpoint: string;
  try {
    endpoint = decodeURIComponent(raw);
  } catch {
    return err(
      R.referenceShape,
      'SPEC',
      `"endpoint" ${quote(raw)} has a malformed percent-encoding (a "%" not followed by two hex digits, or not UTF-8)`,
    );
  }
  if (/[:/?#@]/.test(raw)) {
    findings.push(
      codecFinding(
        R.referenceUri,
        'PROFILE',
        'warning',
        `"endpoint" is not percent-encoded (${quote(raw)}); the profile percent-encodes it, e.g. https%3A%2F%2Fhost`,
      ),
    );
  }
  if (!URL.canParse(endpoint))
    return err(R.referenceShape, 'SPEC', `"endpoint" ${quote(endpoint)} is not an absolute url`);
  const url = new URL(endpoint);
  // Spec 5 rules 4-5: the token travels and the CPR is served over TLS only.
  if (url.protocol !== 'https:') {
    return err(
      R.tlsOnly,
      'SPEC',
      `"endpoint" uses ${url.protocol.replace(/:$/, '')}; the token and the cpr travel over tls only, so it must be https`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    return err(R.referenceUri, 'PROFILE', '"endpoint" carries user credentials; a base url has none');
  }
  if (url.search !== '' || url.hash !== '') {
    return err(
      R.referenceUri,
      'PROFILE',
      `"endpoint" ${quote(endpoint)} has a query or fragment; {endpoint}/cpr/{token} cannot be formed from it`,
    );
  }
  // Profile 2: retrieval URL is {endpoint}/cpr/{token}; a reader also accepts an endpoint that
  // already ends in /cpr/{token}. Trailing slashes of the base are dropped before joining.
  const base = endpoint.replace(/\/+$/, '');
  const tail = /\/cpr\/([^/]+)$/.exec(new URL(base).pathname);
  let retrievalUrl: string;
  if (tail !== null) {
    if (tail[1] !== token) {
      return err(
        R.fullEndpoint,
        'PROFILE',
        `"endpoint" ends in /cpr/${tail[1]}, which is not this uri's token "${token}"`,
      );
    }
    retrievalUrl = base;
  } else {
    retrievalUrl = `${base}/cpr/${token}`;
  }
  return { ok: true, value: { kind: 'reference', token, endpoint, retrievalUrl }, findings };
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Quotes untrusted text for a message, cut to a readable length. */
function quote(s: string): string {
  return JSON.stringify(s.length > 120 ? `${s.slice(0, 117)}...` : s);
}
