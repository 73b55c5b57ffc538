import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** Spec 4.3 rule 4 broken: the payee offers no QR image. */
const NoQrPayee = harnessRewritingPayee('requests', (a) => {
  const answer = a.json as Record<string, unknown> | undefined;
  if (answer === undefined || !('qr_png_base64' in answer)) return a;
  const { qr_png_base64: _dropped, ...rest } = answer;
  return { ...a, json: rest };
});

/** qr: true is ignored. */
export const noQr: BrokenImplementation = {
  id: 'payee-no-qr',
  target: 'payee',
  fault: 'the harness ignores qr: true and never answers a QR image',
  expected: ['CPR-4.3-QR-AND-TOKEN-DELIVERY'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, NoQrPayee),
};
