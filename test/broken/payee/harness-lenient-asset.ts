import type { ServerResponse } from 'node:http';
import { parseAsset, ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject } from './_json.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 1 broken: the harness takes any `asset`. One it cannot read (not an object, a member
 * missing or of another type, a fiat code outside ISO 4217, an empty chain_id) is ignored and the
 * CPR carries the rail's usual asset, instead of a 400 INVALID_REQUEST.
 */
class LenientAssetPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && body.asset !== undefined && !parseAsset(body.asset).ok) {
      const { asset: _ignored, ...rest } = body; // the fault
      return super.createRequest(rest, res);
    }
    return super.createRequest(body, res);
  }
}

/** An asset of any shape is accepted (and ignored) instead of refused. */
export const harnessLenientAsset: BrokenImplementation = {
  id: 'payee-harness-lenient-asset',
  target: 'payee',
  fault:
    'the harness accepts an asset of any shape (a string, a number, {}, a type or code missing or of another type, a fiat code outside ISO 4217, an empty chain_id) and answers 201 with the rail’s usual asset instead of 400 INVALID_REQUEST',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-1-ERROR-BODY'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, LenientAssetPayee),
};
