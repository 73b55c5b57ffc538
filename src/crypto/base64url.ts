import { CprcError } from '../errors.js';

const ALPHABET = /^[A-Za-z0-9_-]*$/;

/**
 * Encodes bytes as base64url (RFC 4648 section 5) without padding.
 *
 * @example
 * ```ts
 * base64urlEncode(new Uint8Array([0xfb, 0xff])); // '-_8'
 * ```
 */
export function base64urlEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url');
}

/**
 * Decodes strict base64url (RFC 4648 section 5, no padding). Rejects `=` padding, characters
 * outside the URL-safe alphabet, an impossible length (4n+1) and non-canonical trailing bits,
 * so that every byte string has exactly one accepted encoding.
 *
 * @throws CprcError `CPRC_INPUT_INVALID` naming what is wrong.
 * @example
 * ```ts
 * base64urlDecode('-_8'); // Uint8Array [0xfb, 0xff]
 * base64urlDecode('-_8='); // throws: padding is not allowed
 * ```
 */
export function base64urlDecode(text: string): Uint8Array {
  if (typeof text !== 'string') {
    throw new CprcError('CPRC_INPUT_INVALID', `base64url input must be a string, got ${typeof text}`);
  }
  if (text.includes('=')) {
    throw new CprcError('CPRC_INPUT_INVALID', 'base64url input must not carry "=" padding; strip it');
  }
  if (!ALPHABET.test(text)) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'base64url input has a character outside the url-safe alphabet (A-Z a-z 0-9 - _)',
    );
  }
  if (text.length % 4 === 1) {
    throw new CprcError('CPRC_INPUT_INVALID', `base64url input length ${text.length} is impossible (4n+1)`);
  }
  const bytes = new Uint8Array(Buffer.from(text, 'base64url'));
  if (base64urlEncode(bytes) !== text) {
    throw new CprcError(
      'CPRC_INPUT_INVALID',
      'base64url input has non-zero unused trailing bits (not canonical)',
    );
  }
  return bytes;
}

/**
 * True when `text` is strict base64url that decodes to exactly `length` bytes (when given).
 *
 * @example
 * ```ts
 * isBase64url('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', 32); // true
 * ```
 */
export function isBase64url(text: unknown, length?: number): text is string {
  if (typeof text !== 'string') return false;
  try {
    const bytes = base64urlDecode(text);
    return length === undefined || bytes.length === length;
  } catch {
    return false;
  }
}
