import { renderQrPng } from '../../../src/codec/index.js';
import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 broken: the endpoint of the reference URI is not percent-encoded. The QR image, when
 * asked, is rendered from the same (broken) URI, so the two still agree.
 */
const RawEndpointPayee = harnessRewritingPayee('requests', async (a) => {
  const answer = a.json as { uri?: string; qr_png_base64?: string } | undefined;
  const m = answer?.uri === undefined ? null : /^(cpr:\/\/[^?]+\?endpoint=)(.*)$/.exec(answer.uri);
  if (m === null || answer === undefined) return a;
  const uri = `${m[1]}${decodeURIComponent(m[2] ?? '')}`;
  if (answer.qr_png_base64 === undefined) return { ...a, json: { ...answer, uri } };
  const qr = await renderQrPng(uri, { errorCorrection: 'M' });
  if (!qr.ok) return a;
  return { ...a, json: { ...answer, uri, qr_png_base64: qr.png.toString('base64') } };
});

/** cpr://{token}?endpoint=https://host:port */
export const endpointNotEncoded: BrokenImplementation = {
  id: 'payee-endpoint-not-encoded',
  target: 'payee',
  fault: 'reference URIs carry the endpoint without percent-encoding (endpoint=https://127.0.0.1:port)',
  expected: ['PRF-2-REFERENCE-URI'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, RawEndpointPayee),
};
