import { burstThrough, raceFromBurst } from './burst.js';
import {
  assertReadable,
  errorFromResponse,
  type HttpClient,
  type HttpResponse,
  joinUrl,
  sendUndefinedRequest,
} from './http.js';
import type {
  ClockAnswer,
  ClockResult,
  CreatedRequest,
  DriverError,
  HarnessResult,
  PayeeDriver,
  PayeeHarness,
  PayeeHarnessEndpoint,
  PayeeRequestParams,
  PlainHttpResult,
  RaceOutcome,
  RetrieveOptions,
  RetrieveResult,
} from './types.js';
import { DriverTransportError, isTransportError } from './types.js';

/** Where the default payee driver finds the payee (profile section 2 and 5). */
export interface HttpPayeeOptions {
  base_url: string;
  harness_url?: string;
  plain_http_url?: string;
}

/**
 * Resolves what `retrieve` was given into the retrieval URL (profile section 2): a bare token
 * -> `{base_url}/cpr/{token}`; a reference URI `cpr://{token}?endpoint={url}` -> `{endpoint}/cpr/{token}`
 * (or the endpoint itself when it already ends in `/cpr/{token}`); an inline URI -> its JSON.
 */
export function resolveRetrieval(
  tokenOrUri: string,
  baseUrl: string,
): { url: string } | { inline: unknown } | { invalid: string } {
  if (!tokenOrUri.startsWith('cpr://'))
    return { url: joinUrl(baseUrl, `cpr/${encodeURIComponent(tokenOrUri)}`) };
  const inline = /^cpr:\/\/inline\/([A-Za-z0-9_-]*)$/.exec(tokenOrUri);
  if (inline) {
    try {
      return { inline: JSON.parse(Buffer.from(inline[1] ?? '', 'base64url').toString('utf8')) };
    } catch (err) {
      return { invalid: `inline URI does not carry base64url JSON (${(err as Error).message})` };
    }
  }
  // spec 4.2 reference form: cpr://<token>?endpoint=<url>
  const m = /^cpr:\/\/([^/?#]+)\/?\?(.*)$/.exec(tokenOrUri);
  if (!m) return { invalid: 'not a cpr:// reference URI (cpr://<token>?endpoint=<url>)' };
  const token = m[1] ?? '';
  const endpoint = new URLSearchParams(m[2] ?? '').get('endpoint');
  if (!endpoint) return { invalid: 'the reference URI has no "endpoint" query parameter' };
  const suffix = `/cpr/${token}`;
  return {
    url: endpoint.replace(/\/+$/, '').endsWith(suffix) ? endpoint : joinUrl(endpoint, `cpr/${token}`),
  };
}

function notJson(res: HttpResponse): DriverError {
  return { status: res.status, message: res.jsonError ?? 'the body is not JSON', body: res.text };
}

/**
 * The JSON of an answer. Profile 1: a reader may ignore a byte order mark, so a body that is JSON
 * once a leading BOM is dropped is read as that JSON (the suite grades the BOM itself from `text`).
 */
function jsonOf(res: HttpResponse): unknown {
  if (res.json !== undefined || !res.text.startsWith('\uFEFF')) return res.json;
  try {
    return JSON.parse(res.text.slice(1)) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * {@link assertReadable} on the answer as a reader that ignores a leading BOM sees it (profile 1);
 * returns the answer unchanged. The content type is not asserted here: the payee suite grades the
 * content type of every JSON answer itself (`PRF-1-JSON-UTF8`, `CPR-4.1-CONTENT-TYPE`) and fails
 * the check, so a wrong one is a failure, never a pass.
 */
function readable(res: HttpResponse): HttpResponse {
  const json = jsonOf(res);
  assertReadable(json === res.json ? res : { ...res, json }, { contentType: false });
  return res;
}

/** The answer's error, its JSON read as {@link jsonOf} does. */
function errorOf(res: HttpResponse): DriverError {
  const json = jsonOf(res);
  return json === res.json ? errorFromResponse(res) : errorFromResponse({ ...res, json });
}

/**
 * Reads a retrieval answer (profile 2). Not a profile answer (3xx, 5xx, not JSON, truncated, too
 * deep): never a CPR nor a refusal (a ProtocolError); the content type is graded by its own check
 * (CPR-4.1-CONTENT-TYPE).
 */
function readRetrieval(res: HttpResponse): RetrieveResult {
  readable(res);
  const raw = { headers: res.headers, text: res.text };
  if (res.status >= 200 && res.status < 300) {
    const json = jsonOf(res);
    if (json === undefined) return { ok: false, error: notJson(res), ...raw };
    return { ok: true, cpr: json, status: res.status, ...raw };
  }
  return { ok: false, error: errorOf(res), ...raw };
}

/** Reads a harness answer with no fixed success shape (a fulfillment, a refused raw body), as a harness result. */
function readHarnessAnswer(res: HttpResponse): HarnessResult<unknown> {
  readable(res);
  const raw = { headers: res.headers, text: res.text };
  if (res.status >= 200 && res.status < 300) {
    const json = jsonOf(res);
    if (json === undefined) return { ok: false, error: notJson(res), ...raw };
    return { ok: true, value: json, status: res.status, ...raw };
  }
  return { ok: false, error: errorOf(res), ...raw };
}

/**
 * The default payee driver: HTTPS retrieval (spec 4.1, profile section 2), the plain-HTTP probe
 * (spec 5 rule 5) and the optional harness.
 * @example
 * ```ts
 * const payee = createHttpPayee({ base_url: 'https://127.0.0.1:8443' }, http);
 * const r = await payee.retrieve(uri);
 * ```
 */
export function createHttpPayee(opts: HttpPayeeOptions, http: HttpClient): PayeeDriver {
  const driver: PayeeDriver = {
    async retrieve(tokenOrUri: string, options: RetrieveOptions = {}): Promise<RetrieveResult> {
      const target = resolveRetrieval(tokenOrUri, opts.base_url);
      if ('invalid' in target) return { ok: false, error: { message: target.invalid } };
      if ('inline' in target) return { ok: true, cpr: target.inline };
      const res = await http.exchange({
        method: 'GET',
        url: target.url,
        ...(options.headers === undefined ? {} : { headers: options.headers }),
      });
      return readRetrieval(res);
    },
    async raceRetrieve(tokenOrUri: string, n: number): Promise<RaceOutcome<RetrieveResult>> {
      const target = resolveRetrieval(tokenOrUri, opts.base_url);
      if (!('url' in target)) {
        throw new DriverTransportError(
          'CPRC_DRIVER',
          `a race needs a retrieval URL: ${'invalid' in target ? target.invalid : 'an inline URI has nothing to retrieve'}`,
        );
      }
      const requests = Array.from({ length: n }, () => ({ method: 'GET' as const, url: target.url }));
      return raceFromBurst(await burstThrough(http, requests), readRetrieval);
    },
  };
  if (opts.plain_http_url) {
    const plain = opts.plain_http_url;
    driver.retrievePlainHttp = async (token: string): Promise<PlainHttpResult> => {
      try {
        const res = await http.exchange({
          method: 'GET',
          url: joinUrl(plain, `cpr/${encodeURIComponent(token)}`),
        });
        return { answered: true, status: res.status, servedJson: res.json, body: res.text };
      } catch (err) {
        // spec 5 rule 5: nothing answering over plain HTTP means nothing served there.
        if (isTransportError(err)) return { answered: false, reason: err.message };
        throw err;
      }
    };
  }
  if (opts.harness_url) driver.harness = createPayeeHarness(opts.harness_url, http);
  driver.undefinedRequest = async (req) => {
    const base = req.base === 'api' ? opts.base_url : opts.harness_url;
    if (base === undefined)
      throw new DriverTransportError('CPRC_DRIVER', 'no payee harness: payee.harness_url is not configured');
    return sendUndefinedRequest(http, base, req);
  };
  return driver;
}

function createPayeeHarness(harnessUrl: string, http: HttpClient): PayeeHarness {
  const advanceClockRaw = clockPoster(harnessUrl, http);
  const fulfillRaw = async (body: unknown): Promise<HarnessResult<unknown>> =>
    readHarnessAnswer(
      await http.exchange({ method: 'POST', url: joinUrl(harnessUrl, 'fulfillments'), json: body }),
    );
  return {
    async createRequest(params: PayeeRequestParams): Promise<HarnessResult<CreatedRequest>> {
      const res = readable(
        await http.exchange({ method: 'POST', url: joinUrl(harnessUrl, 'requests'), json: params }),
      );
      const raw = { headers: res.headers, text: res.text };
      if (res.status >= 200 && res.status < 300) {
        const v = jsonOf(res) as Partial<CreatedRequest> | undefined;
        if (!v || typeof v.uri !== 'string' || typeof v.request_id !== 'string') {
          return {
            ok: false,
            error: {
              status: res.status,
              message: 'the harness answer lacks "uri" or "request_id"',
              body: res.json ?? res.text,
            },
            ...raw,
          };
        }
        return { ok: true, value: v as CreatedRequest, status: res.status, ...raw };
      }
      return { ok: false, error: errorOf(res), ...raw };
    },
    fulfill(requestId: string): Promise<HarnessResult<unknown>> {
      return fulfillRaw({ request_id: requestId });
    },
    fulfillRaw,
    async raceFulfill(requestId: string, n: number): Promise<RaceOutcome<HarnessResult<unknown>>> {
      const url = joinUrl(harnessUrl, 'fulfillments');
      const requests = Array.from({ length: n }, () => ({
        method: 'POST' as const,
        url,
        json: { request_id: requestId },
      }));
      return raceFromBurst(await burstThrough(http, requests), readHarnessAnswer);
    },
    advanceClock(seconds: number): Promise<ClockResult> {
      return advanceClockRaw({ advance_seconds: seconds });
    },
    advanceClockRaw,
    async postText(endpoint: PayeeHarnessEndpoint, text: string): Promise<HarnessResult<unknown>> {
      return readHarnessAnswer(
        await http.exchange({
          method: 'POST',
          url: joinUrl(harnessUrl, endpoint),
          headers: { 'content-type': 'application/json' },
          body: text,
        }),
      );
    },
  };
}

/** `POST {harness}/clock` with any body (profile 2, optional test clock). */
function clockPoster(harnessUrl: string, http: HttpClient): (body: unknown) => Promise<ClockResult> {
  return async (body: unknown): Promise<ClockResult> => {
    const res = await http.exchange({ method: 'POST', url: joinUrl(harnessUrl, 'clock'), json: body });
    const raw = { headers: res.headers, text: res.text };
    // Profile 2: the clock is optional; a harness without it has no such endpoint.
    if (res.status === 404 || res.status === 405 || res.status === 501)
      return { ok: false, absent: true, error: errorOf(res) };
    readable(res);
    if (res.status >= 200 && res.status < 300) {
      const v = jsonOf(res) as Partial<ClockAnswer> | undefined;
      if (!v || typeof v.now !== 'string') {
        return {
          ok: false,
          error: {
            status: res.status,
            message: 'the clock answer lacks "now"',
            body: res.json ?? res.text,
          },
          ...raw,
        };
      }
      return { ok: true, value: { now: v.now }, status: res.status, ...raw };
    }
    return { ok: false, error: errorOf(res), ...raw };
  };
}
