import { randomUUID } from 'node:crypto';
import { burstThrough, raceFromBurst } from './burst.js';
import {
  assertReadable,
  errorFromResponse,
  type HttpClient,
  type HttpRequest,
  type HttpResponse,
  joinUrl,
  sendUndefinedRequest,
} from './http.js';
import {
  DriverTransportError,
  type OperatorCall,
  type OperatorDriver,
  type OperatorEndpoint,
  type OperatorHarness,
  type OperatorRawEndpoint,
  type OperatorResult,
} from './types.js';

/** Where the default Operator driver finds the Operator (profile section 4 and 5). */
export interface HttpOperatorOptions {
  base_url: string;
  harness_url?: string;
}

/**
 * The default Operator driver: the four endpoints of Cash-Pack API section 4, the two
 * well-known resources, a raw POST for malformed-body checks, and the optional harness.
 * Every HTTP answer is returned as data (`ok` = 2xx); only a broken exchange throws.
 * @example
 * ```ts
 * const op = createHttpOperator({ base_url: 'https://127.0.0.1:7443' }, http);
 * const policy = await op.policy();
 * ```
 */
export function createHttpOperator(opts: HttpOperatorOptions, http: HttpClient): OperatorDriver {
  const call = async (req: HttpRequest, optionalEndpoint = false): Promise<OperatorResult> =>
    read(await http.exchange(req), optionalEndpoint);
  const read = (res: HttpResponse, optionalEndpoint = false): OperatorResult => {
    // a redirect, a server error, a body that is not JSON or not application/json, a 4xx without
    // the error object: never a success nor a rejection (a ProtocolError, the check errors); an
    // optional endpoint may be absent in any form (404, 405, 501)
    if (!(optionalEndpoint && [404, 405, 501].includes(res.status))) assertReadable(res);
    const body = res.json !== undefined ? res.json : res.text;
    const ok = res.status >= 200 && res.status < 300;
    const out: OperatorResult = { ok, status: res.status, body, headers: res.headers };
    if (!ok) out.error = errorFromResponse(res);
    else if (res.json === undefined)
      out.error = { status: res.status, message: res.jsonError ?? 'the body is not JSON' };
    return out;
  };
  const api = (path: string): string => joinUrl(opts.base_url, path);
  const endpointUrl: Record<OperatorEndpoint, string> = {
    issue: api('v1/cashpack/issue'),
    renew: api('v1/cashpack/renew'),
    redeem: api('v1/cashpack/redeem'),
  };
  const driver: OperatorDriver = {
    issue: (lockRequest) => call({ method: 'POST', url: endpointUrl.issue, json: lockRequest }),
    renew: (cashpack, entry) =>
      call({ method: 'POST', url: endpointUrl.renew, json: { cashpack, renewal_entry: entry } }),
    redeem: (cashpack, request) =>
      call({ method: 'POST', url: endpointUrl.redeem, json: { cashpack, redemption_request: request } }),
    status: (packId, credential) =>
      call({
        method: 'GET',
        url: api(`v1/cashpack/${encodeURIComponent(packId)}/status`),
        ...(credential === undefined ? {} : { headers: { authorization: `Bearer ${credential}` } }),
      }),
    policy: () => call({ method: 'GET', url: api('.well-known/cashpack-policy.json') }),
    publicKey: () => call({ method: 'GET', url: api('.well-known/cashpack-pubkey.json') }),
    race: async (calls: OperatorCall[]) => {
      const requests = calls.map(
        (c): HttpRequest =>
          c.op === 'issue'
            ? { method: 'POST', url: endpointUrl.issue, json: c.lockRequest }
            : c.op === 'renew'
              ? {
                  method: 'POST',
                  url: endpointUrl.renew,
                  json: { cashpack: c.cashpack, renewal_entry: c.entry },
                }
              : {
                  method: 'POST',
                  url: endpointUrl.redeem,
                  json: { cashpack: c.cashpack, redemption_request: c.request },
                },
      );
      return raceFromBurst(await burstThrough(http, requests), (res) => read(res));
    },
    rawPost: (endpoint, body) =>
      call({
        method: 'POST',
        url: endpointUrl[endpoint],
        body,
        headers: { 'content-type': 'application/json' },
      }),
    undefinedRequest: (req) => {
      const base = req.base === 'api' ? opts.base_url : opts.harness_url;
      if (base === undefined)
        throw new DriverTransportError(
          'CPRC_DRIVER',
          'no operator harness: operator.harness_url is not configured',
        );
      return sendUndefinedRequest(http, base, req);
    },
    rawRequest: (method, endpoint, body) => {
      const url = rawUrl(endpoint);
      if (url === undefined)
        throw new Error(`no ${endpoint} endpoint: operator.harness_url is not configured`);
      return call(
        body === undefined
          ? { method, url }
          : { method, url, body, headers: { 'content-type': 'application/json' } },
      );
    },
  };
  const rawUrl = (endpoint: OperatorRawEndpoint): string | undefined => {
    if (endpoint === 'expire' || endpoint === 'cancel')
      return opts.harness_url === undefined ? undefined : joinUrl(opts.harness_url, endpoint);
    if (endpoint === 'status') return api(`v1/cashpack/${randomUUID()}/status`);
    if (endpoint === 'policy') return api('.well-known/cashpack-policy.json');
    if (endpoint === 'pubkey') return api('.well-known/cashpack-pubkey.json');
    return endpointUrl[endpoint];
  };
  if (opts.harness_url) {
    const h = opts.harness_url;
    const harness: OperatorHarness = {
      expire: (packId) => call({ method: 'POST', url: joinUrl(h, 'expire'), json: { pack_id: packId } }),
      cancel: (packId) => call({ method: 'POST', url: joinUrl(h, 'cancel'), json: { pack_id: packId } }),
      advanceClock: async (seconds) => {
        const r = await call(
          {
            method: 'POST',
            url: joinUrl(h, 'clock'),
            json: { advance_seconds: seconds },
          },
          true,
        );
        // Profile 4: the clock is optional; a harness without it has no such endpoint.
        const absent = r.status === 404 || r.status === 405 || r.status === 501;
        return absent ? { ...r, absent } : r;
      },
      setBalance: async (principalId, availableBalance) => {
        const r = await call(
          {
            method: 'POST',
            url: joinUrl(h, 'balance'),
            json: { principal_id: principalId, available_balance: availableBalance },
          },
          true,
        );
        // Profile 4: the balance capability is optional; 404, 405 or 501 means it is absent.
        const absent = r.status === 404 || r.status === 405 || r.status === 501;
        return absent ? { ...r, absent } : r;
      },
    };
    driver.harness = harness;
  }
  return driver;
}
