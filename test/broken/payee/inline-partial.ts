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
  expected: ['CPR-4.2-INLINE-URI', 'CPR-4.2-SAME-SCHEME', 'CPR-4.3-QR-CODE', 'PRF-2-HARNESS-REQUESTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, BaseOnlyInlinePayee),
};
