import QRCode from 'qrcode';
import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken: the QR image is rendered with qrcode's automatic segmentation (byte and
 * alphanumeric segments) instead of one byte-mode segment. The payload is still the URI.
 */
const MixedModeQrPayee = harnessRewritingPayee('requests', async (a) => {
  const answer = a.json as Record<string, unknown> | undefined;
  if (answer === undefined || typeof answer.uri !== 'string' || typeof answer.qr_png_base64 !== 'string')
    return a;
  const png = await QRCode.toBuffer(answer.uri, {
    type: 'png',
    errorCorrectionLevel: 'M',
    scale: 4,
    margin: 4,
  });
  return { ...a, json: { ...answer, qr_png_base64: png.toString('base64') } };
});

/** QR codes with alphanumeric segments. */
export const qrMixedModes: BrokenImplementation = {
  id: 'payee-qr-mixed-modes',
  target: 'payee',
  fault: 'QR images mix alphanumeric and byte segments instead of one byte-mode segment',
  expected: ['PRF-2-QR-ENCODING'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, MixedModeQrPayee),
};
