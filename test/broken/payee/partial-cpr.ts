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
  // the retrieved (and QR-reference) CPRs lack each rail's sub-interface fields: the document
  // checks grade the missing fields per sub-interface; the QR rendering itself is sound
  expected: [
    'CPR-2.4-SUB-INTERFACE-TOP-LEVEL',
    'CPR-2.5-ONCHAIN-FIELDS',
    'CPR-2.6-IBAN-FIELDS',
    'CPR-2.7-ACCOUNT-FIELDS',
    'CPR-2.8-INSTANT-KEY-FIELDS',
    'CPR-4.1-FULL-CPR',
    'CPR-4.1-RETRIEVAL-PATH',
    'PRF-2-EXACTLY-ONE-SUB-INTERFACE',
  ],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new BaseOnlyTokenStore() }),
};
