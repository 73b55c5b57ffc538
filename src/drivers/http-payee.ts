import { errorFromResponse, type HttpClient, type HttpResponse, joinUrl } from './http.js';
import type {
  CreatedRequest,
  DriverError,
  HarnessResult,
  PayeeDriver,
  PayeeHarness,
  PayeeRequestParams,
  PlainHttpResult,
  RetrieveResult,
} from './types.js';
import { isTransportError } from './types.js';

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
    async retrieve(tokenOrUri: string): Promise<RetrieveResult> {
      const target = resolveRetrieval(tokenOrUri, opts.base_url);
      if ('invalid' in target) return { ok: false, error: { message: target.invalid } };
      if ('inline' in target) return { ok: true, cpr: target.inline };
      const res = await http.exchange({ method: 'GET', url: target.url });
      if (res.status >= 200 && res.status < 300) {
        if (res.json === undefined) return { ok: false, error: notJson(res), headers: res.headers };
        return { ok: true, cpr: res.json, status: res.status, headers: res.headers };
      }
      return { ok: false, error: errorFromResponse(res), headers: res.headers };
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
  return driver;
}

function createPayeeHarness(harnessUrl: string, http: HttpClient): PayeeHarness {
  return {
    async createRequest(params: PayeeRequestParams): Promise<HarnessResult<CreatedRequest>> {
      const res = await http.exchange({ method: 'POST', url: joinUrl(harnessUrl, 'requests'), json: params });
      if (res.status >= 200 && res.status < 300) {
        const v = res.json as Partial<CreatedRequest> | undefined;
        if (!v || typeof v.uri !== 'string' || typeof v.request_id !== 'string') {
          return {
            ok: false,
            error: {
              status: res.status,
              message: 'the harness answer lacks "uri" or "request_id"',
              body: res.json ?? res.text,
            },
          };
        }
        return { ok: true, value: v as CreatedRequest, status: res.status };
      }
      return { ok: false, error: errorFromResponse(res) };
    },
    async fulfill(requestId: string): Promise<HarnessResult<unknown>> {
      const res = await http.exchange({
        method: 'POST',
        url: joinUrl(harnessUrl, 'fulfillments'),
        json: { request_id: requestId },
      });
      if (res.status >= 200 && res.status < 300)
        return { ok: true, value: res.json ?? res.text, status: res.status };
      return { ok: false, error: errorFromResponse(res) };
    },
  };
}
