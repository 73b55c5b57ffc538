/**
 * The `cpr://` URI codec and QR rendering/reading (spec 4.2-4.3, profile 2).
 * @packageDocumentation
 */
export { type CodecFinding, type CodecResult, codecFinding } from './findings.js';
export {
  MAX_QR_IMAGE_PIXELS,
  QR_BYTE_CAPACITY,
  QR_REQUIREMENTS,
  type QrErrorCorrection,
  type QrReading,
  type RenderQrOptions,
  readQrPng,
  renderQrPng,
} from './qr.js';
export {
  CODEC_REQUIREMENTS,
  type DecodedCprUri,
  decodeCprUri,
  encodeInlineUri,
  encodeReferenceUri,
  type InlineCprUri,
  type ReferenceCprUri,
  tokenFormatFindings,
} from './uri.js';
