import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject, sendJson } from './_json.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken: the harness refuses every `asset` and every `extensions` (400
 * INVALID_REQUEST), even the asset it puts on its own CPRs and extensions any CPR can carry.
 */
class RefusingOptionsPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && (body.asset !== undefined || body.extensions !== undefined)) {
      // the fault
      sendJson(res, 400, {
        error: { code: 'INVALID_REQUEST', message: 'this payee takes neither "asset" nor "extensions"' },
      });
      return Promise.resolve();
    }
    return super.createRequest(body, res);
  }
}

/** Asset and extensions are always refused. */
export const harnessRefusesOptions: BrokenImplementation = {
  id: 'payee-harness-refuses-options',
  target: 'payee',
  fault:
    'the harness refuses every asset and every extensions member with 400 INVALID_REQUEST, even the asset of its own CPRs and well-formed extensions',
  expected: ['PRF-2-HARNESS-REQUESTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, RefusingOptionsPayee),
};
