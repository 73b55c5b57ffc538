import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee, withUri } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: inline data keeps its base64 "=" padding. */
const PaddedInlinePayee = harnessRewritingPayee('requests', async (a) => {
  const answer = a.json as Record<string, unknown> | undefined;
  const uri = answer?.uri;
  if (answer === undefined || typeof uri !== 'string' || !uri.startsWith('cpr://inline/')) return a;
  const data = uri.slice('cpr://inline/'.length);
  const padded = `cpr://inline/${data}${'='.repeat((4 - (data.length % 4)) % 4)}`;
  return padded === uri ? a : { ...a, json: await withUri(answer, padded) };
});

/** cpr://inline/{base64url with padding}. */
export const inlinePadded: BrokenImplementation = {
  id: 'payee-inline-padded',
  target: 'payee',
  fault: 'inline URIs keep the base64 "=" padding the profile leaves out',
  expected: ['PRF-2-INLINE-URI'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, PaddedInlinePayee),
};
