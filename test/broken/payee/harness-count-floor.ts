import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject, sendJson } from './_json.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: validity_seconds and token_ttl_seconds of 1 are refused (a floor of 2 s). */
class CountFloorPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && (body.validity_seconds === 1 || body.token_ttl_seconds === 1)) {
      // the fault
      sendJson(res, 400, {
        error: {
          code: 'INVALID_REQUEST',
          message: 'validity_seconds and token_ttl_seconds must be at least 2',
        },
      });
      return Promise.resolve();
    }
    return super.createRequest(body, res);
  }
}

/** One-second windows and token lifetimes are refused. */
export const harnessCountFloor: BrokenImplementation = {
  id: 'payee-harness-count-floor',
  target: 'payee',
  fault:
    'the harness refuses validity_seconds 1 and token_ttl_seconds 1 (a floor profile 2 does not allow: it caps both at a maximum only)',
  expected: ['PRF-2-HARNESS-VALIDITY', 'PRF-2-HARNESS-TOKEN-TTL'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, CountFloorPayee),
};
