/**
 * The requirement IDs the codec (`cpr://` URIs and QR images) reports findings under, declared
 * as data: `src/catalog/coverage.ts` credits them to the codec. Add an ID here when a codec
 * function starts reporting it.
 * @packageDocumentation
 */

/** Every requirement ID a codec finding can carry. */
export const CODEC_REQUIREMENTS: readonly string[] = [
  'CPR-4.2-INLINE-URI',
  'CPR-4.2-REFERENCE-URI',
  'CPR-4.2-URI-FORMAT',
  'CPR-4.3-QR-CODE',
  'CPR-5-TLS-ONLY',
  'PRF-2-INLINE-URI',
  'PRF-2-QR-CAPACITY',
  'PRF-2-QR-ENCODING',
  'PRF-2-REFERENCE-FULL-ENDPOINT',
  'PRF-2-REFERENCE-URI',
  'PRF-2-TOKEN-ENTROPY',
  'PRF-2-TOKEN-FORMAT',
];
