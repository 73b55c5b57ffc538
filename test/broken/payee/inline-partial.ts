import { decodeCprUri, encodeInlineUri } from '../../../src/codec/index.js';
import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee, withUri } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** The base fields of spec 2.1; the broken payee's inline URIs carry nothing else. */
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

/** Spec 4.2 broken: the inline URI carries the base fields only, not the full CPR. */
const BaseOnlyInlinePayee = harnessRewritingPayee('requests', async (a) => {
  const answer = a.json as Record<string, unknown> | undefined;
  if (answer === undefined || typeof answer.uri !== 'string') return a;
  const d = decodeCprUri(answer.uri);
  if (!d.ok || d.value.kind !== 'inline') return a;
  const base = Object.fromEntries(Object.entries(d.value.document).filter(([k]) => BASE_FIELDS.includes(k)));
  return { ...a, json: await withUri(answer, encodeInlineUri(base)) };
});

/** Inline CPRs lack their sub-interface fields. */
export const inlinePartial: BrokenImplementation = {
  id: 'payee-inline-partial',
  target: 'payee',
  fault: 'inline URIs (and their QR images) carry the base fields only, without the sub-interface fields',
  // the inline (and QR-inline) CPRs lack each rail's sub-interface fields: the document checks
  // grade the missing fields per sub-interface; the QR rendering itself is sound
  expected: [
    'CPR-2.4-SUB-INTERFACE-TOP-LEVEL',
    'CPR-2.5-ONCHAIN-FIELDS',
    'CPR-2.6-IBAN-FIELDS',
    'CPR-2.7-ACCOUNT-FIELDS',
    'CPR-2.8-INSTANT-KEY-FIELDS',
    'CPR-4.2-INLINE-URI',
    'PRF-2-EXACTLY-ONE-SUB-INTERFACE',
    'PRF-2-HARNESS-REQUESTS',
  ],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, BaseOnlyInlinePayee),
};
