import QRCode from 'qrcode';
import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken: the QR image is rendered at error correction L (a QR encoder's default in
 * many libraries) instead of M or better. Still one byte-mode segment carrying the whole URI.
 */
const LowEcQrPayee = harnessRewritingPayee('requests', async (a) => {
  const answer = a.json as Record<string, unknown> | undefined;
  if (answer === undefined || typeof answer.uri !== 'string' || typeof answer.qr_png_base64 !== 'string')
    return a;
  const png = await QRCode.toBuffer([{ data: Buffer.from(answer.uri, 'utf8'), mode: 'byte' }], {
    type: 'png',
    errorCorrectionLevel: 'L',
    scale: 4,
    margin: 4,
  });
  return { ...a, json: { ...answer, qr_png_base64: png.toString('base64') } };
});

/** QR codes at error correction L. */
export const qrEcLow: BrokenImplementation = {
  id: 'payee-qr-ec-low',
  target: 'payee',
  fault: 'QR images are rendered at error correction L instead of M or better',
  expected: ['PRF-2-QR-ENCODING'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, LowEcQrPayee),
};
