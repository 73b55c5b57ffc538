import { decodeCprUri, renderQrPng } from '../../../src/codec/index.js';
import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** Spec 4.3 rule 1 broken: the QR code carries the https retrieval URL, not the cpr:// URI. */
const HttpsQrPayee = harnessRewritingPayee('requests', async (a) => {
  const answer = a.json as { uri?: string; qr_png_base64?: string } | undefined;
  if (answer?.qr_png_base64 === undefined || answer.uri === undefined) return a;
  const d = decodeCprUri(answer.uri);
  if (!d.ok || d.value.kind !== 'reference') return a;
  const qr = await renderQrPng(d.value.retrievalUrl, { errorCorrection: 'M' });
  if (!qr.ok) return a;
  return { ...a, json: { ...answer, qr_png_base64: qr.png.toString('base64') } };
});

/** QR images of reference requests encode https://.../cpr/{token}. */
export const qrHttpsUrl: BrokenImplementation = {
  id: 'payee-qr-https-url',
  target: 'payee',
  fault: 'the QR image of a reference request encodes the https retrieval URL instead of the cpr:// URI',
  expected: ['CPR-4.2-SAME-SCHEME', 'CPR-4.3-QR-CODE', 'PRF-2-QR-CAPACITY'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, HttpsQrPayee),
};
