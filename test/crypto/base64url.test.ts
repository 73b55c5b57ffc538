import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64urlDecode, base64urlEncode, isBase64url } from '../../src/crypto/base64url.js';

describe('strict base64url (RFC 4648 section 5, no padding)', () => {
  it('encodes with the url-safe alphabet and no padding', () => {
    expect(base64urlEncode(new Uint8Array([0xfb, 0xff]))).toBe('-_8');
    expect(base64urlEncode(new Uint8Array([]))).toBe('');
  });

  it('round-trips any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 100 }), (bytes) => {
        expect(base64urlDecode(base64urlEncode(bytes))).toEqual(bytes);
      }),
    );
  });

  it.each([
    ['padding', '-_8=', /padding/],
    ['standard alphabet +', '+/8', /alphabet/],
    ['whitespace', 'AA AA', /alphabet/],
    ['impossible length', 'AAAAA', /4n\+1/],
    ['non-zero trailing bits', '-_9', /trailing bits/],
  ])('rejects %s', (_name, text, message) => {
    expect(() => base64urlDecode(text)).toThrow(message);
  });

  it('isBase64url checks the decoded length', () => {
    expect(isBase64url('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo', 32)).toBe(true);
    expect(isBase64url('11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHUR', 32)).toBe(false);
    expect(isBase64url(42)).toBe(false);
  });
});
