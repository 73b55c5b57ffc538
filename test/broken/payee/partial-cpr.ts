import { type TokenRecord, TokenStore } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** The base fields of spec 2.1; everything else is dropped by the broken store. */
const BASE_FIELDS = [
  'cpr_version',
  'request_id',
  'created_at',
  'expires_at',
  'payee',
  'value',
  'memo',
  'rail_hint',
];

/** Spec 4.1 broken: the retrieved CPR is the base structure only (sub-interface fields dropped). */
class BaseOnlyTokenStore extends TokenStore {
  override issue(input: { requestId: string; body: string; ttlSeconds: number; now: Date }): TokenRecord {
    const doc = JSON.parse(input.body) as Record<string, unknown>;
    const base = Object.fromEntries(Object.entries(doc).filter(([k]) => BASE_FIELDS.includes(k)));
    return super.issue({ ...input, body: JSON.stringify(base) });
  }
}

/** Retrieval serves a CPR without its sub-interface fields. */
export const partialCpr: BrokenImplementation = {
  id: 'payee-partial-cpr',
  target: 'payee',
  fault:
    'GET /cpr/{token} serves the base fields only, without the sub-interface fields (inline CPRs stay whole)',
  expected: ['CPR-4.1-FULL-CPR', 'CPR-4.1-RETRIEVAL-PATH', 'CPR-4.2-SAME-SCHEME', 'CPR-4.3-QR-CODE'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new BaseOnlyTokenStore() }),
};
