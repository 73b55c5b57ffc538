// Byte and text encodings used by the foreign stack: base64url, base32, hex,
// percent-encoding and Unicode code point counting. Node built-ins only.

const B64URL_RE = /^[A-Za-z0-9_-]*$/;

/** Encode bytes as base64url without padding (RFC 4648 section 5). */
export function b64urlEncode(bytes) {
  return Buffer.from(bytes).toString('base64url');
}

/**
 * Decode strict base64url. Returns a Buffer, or null when the text is not
 * canonical unpadded base64url (wrong alphabet, padding, impossible length,
 * non-zero trailing bits).
 */
export function b64urlDecodeStrict(text) {
  if (typeof text !== 'string' || !B64URL_RE.test(text) || text.length % 4 === 1) return null;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : null;
}

/**
 * Decode base64url leniently as a reader: optional `=` padding is accepted,
 * the alphabet is not. Returns null on failure.
 */
export function b64urlDecodeReader(text) {
  if (typeof text !== 'string') return null;
  const body = text.replace(/={1,2}$/, '');
  if (text.length !== body.length && text.length % 4 !== 0) return null;
  return b64urlDecodeStrict(body);
}

const B32_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** RFC 4648 base32, lower-case, without padding. */
export function base32Lower(bytes) {
  let out = '';
  let acc = 0;
  let bits = 0;
  for (const byte of bytes) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += B32_ALPHABET[(acc >>> (bits - 5)) & 31];
      bits -= 5;
    }
    acc &= 0xff;
  }
  if (bits > 0) out += B32_ALPHABET[(acc << (5 - bits)) & 31];
  return out;
}

/** Count Unicode code points (a lone surrogate counts as one). */
export function codePointLength(text) {
  let n = 0;
  for (const _ of text) n += 1;
  return n;
}

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encode every byte outside RFC 3986 "unreserved". */
export function percentEncode(text) {
  let out = '';
  for (const ch of text) {
    if (UNRESERVED.test(ch)) {
      out += ch;
      continue;
    }
    for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * Decode RFC 3986 percent-encoding as UTF-8. `+` stays a plus sign (this is a
 * URI, not an HTML form). Returns null for a malformed escape or bad UTF-8.
 */
export function percentDecode(text) {
  const bytes = [];
  for (let i = 0; i < text.length; i += 1) {
    const ch = text[i];
    if (ch === '%') {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return null;
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else {
      for (const byte of Buffer.from(ch, 'utf8')) bytes.push(byte);
    }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/** Decode UTF-8 strictly; null when the bytes are not UTF-8. */
export function utf8DecodeStrict(bytes) {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return null;
  }
}
