import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (a non-string request_id is 400): a number request_id answers 404 REQUEST_UNKNOWN. */
class NumberIdPayee extends ReferencePayee {
  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    const id = (body as { request_id?: unknown } | null)?.request_id;
    if (typeof id !== 'number') return super.fulfill(body, res);
    const text = JSON.stringify({ error: { code: 'REQUEST_UNKNOWN', message: `no request ${id}` } });
    res.writeHead(404, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
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
