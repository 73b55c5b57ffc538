import type { ServerResponse } from 'node:http';
import { parseCreateRequest, ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject } from './_json.js';
import { startBrokenPayee } from './_start.js';

/** The members this harness drops, rather than refuses, when it cannot read them. */
const DROPPED = ['asset', 'rail_hint', 'amount', 'extensions'] as const;

/**
 * Profile 1 broken: the harness ignores a member it cannot read instead of refusing the request:
 * an asset of any wrong shape (not an object, a member missing or of another type, a fiat code
 * outside ISO 4217, an empty chain_id), a rail outside spec 2.4, an amount outside profile 1,
 * extensions that are no object. The CPR is built without it (the rail's usual asset, SEPA_CT, an
 * open amount, no extensions).
 */
class IgnoresMalformedPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (!isObject(body)) return super.createRequest(body, res);
    const kept = { ...body };
    for (const k of DROPPED) {
      if (kept[k] !== undefined && !parseCreateRequest({ delivery: 'inline', [k]: kept[k] }).ok)
        delete kept[k]; // the fault
    }
    return super.createRequest(kept, res);
  }
}

/** Malformed asset, rail, amount or extensions are ignored, not refused. */
export const harnessIgnoresMalformedMembers: BrokenImplementation = {
  id: 'payee-harness-ignores-malformed-members',
  target: 'payee',
  fault:
    'the harness ignores an asset of any wrong shape, a rail outside spec 2.4, an amount outside profile 1 and extensions that are no object, and answers 201 without them instead of 400 INVALID_REQUEST',
  expected: ['PRF-1-INVALID-REQUEST'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, IgnoresMalformedPayee),
};
