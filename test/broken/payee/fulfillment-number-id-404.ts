import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject, sendJson } from './_json.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (a non-string request_id is 400): a number request_id answers 404 REQUEST_UNKNOWN. */
class NumberIdPayee extends ReferencePayee {
  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    const id = (body as { request_id?: unknown } | null)?.request_id;
    if (typeof id !== 'number') return super.fulfill(body, res);
    sendJson(res, 404, { error: { code: 'REQUEST_UNKNOWN', message: `no request ${id}` } });
    return Promise.resolve();
  }
}

/** A number request_id is looked up (404) instead of refused as malformed (400). */
export const fulfillmentNumberId404: BrokenImplementation = {
  id: 'payee-fulfillment-number-id-404',
  target: 'payee',
  fault:
    'a fulfillment whose request_id is a number answers 404 REQUEST_UNKNOWN instead of 400 INVALID_REQUEST',
  expected: ['PRF-2-FULFILLMENT-ID-INVALID'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, NumberIdPayee),
};

/**
 * Profile 2 broken (an unlisted member is refused, or ignored): a fulfillment body with a member
 * besides request_id is read as naming no request, so an open request answers 404 REQUEST_UNKNOWN.
 */
class ExtraMemberUnknownPayee extends ReferencePayee {
  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    if (!isObject(body) || Object.keys(body).every((k) => k === 'request_id'))
      return super.fulfill(body, res);
    sendJson(res, 404, {
      error: { code: 'REQUEST_UNKNOWN', message: 'this payee never issued a request with this request_id' },
    });
    return Promise.resolve();
  }
}

/** A fulfillment with an unlisted member neither refused nor honoured: 404 for an open request. */
export const fulfillmentExtraMemberUnknown: BrokenImplementation = {
  id: 'payee-fulfillment-extra-member-unknown',
  target: 'payee',
  fault:
    'a fulfillment body with a member besides request_id answers 404 REQUEST_UNKNOWN, even for an open request (neither refused with 400 nor honoured)',
  expected: ['PRF-1-INVALID-REQUEST'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, ExtraMemberUnknownPayee),
};
