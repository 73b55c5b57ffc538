/**
 * Payee suite, spec 4.3 rule 1 with profile 2: a QR symbol carries the whole URI, and a harness
 * request the payee cannot honour as asked is refused. An inline URI can outgrow the largest QR
 * symbol (version 40, byte mode, error correction M: 2,331 bytes); asked for a QR of one, the
 * payee cannot honour the request as asked.
 */
import { readQrPng } from '../../src/codec/index.js';
import { assertThat, check } from '../_lib/index.js';
import { harness } from './_support/index.js';

/** Extension text that makes the inline URI longer than one QR symbol at error correction M. */
const PADDING = 'Conformance padding beyond one QR symbol. '.repeat(80);

describe('CPR-1.0 section 4.3 and profile 2: a QR of a URI too long for one symbol', () => {
  check(
    'qr-of-uri-beyond-one-symbol-refused-or-whole',
    ['PRF-2-QR-CAPACITY', 'PRF-2-HARNESS-UNSERVICEABLE'],
    'asked for a QR of an inline URI longer than one QR symbol holds at error correction M (2,331 bytes), the harness answers 400 INVALID_REQUEST, or 201 with a QR image whose payload is that whole URI: never without the QR, never a partial URI, never a 5xx',
    async () => {
      const r = await harness().createRequest({
        delivery: 'inline',
        qr: true,
        extensions: { 'com.example.conformance:padding': PADDING },
      });
      if (!r.ok) {
        // the status of an INVALID_REQUEST is graded by PRF-1-ERROR-STATUS
        assertThat(
          r.error.code === 'INVALID_REQUEST',
          `the request is refused with 400 INVALID_REQUEST (got ${[r.error.status && `HTTP ${r.error.status}`, r.error.code, r.error.message].filter(Boolean).join(', ')})`,
        );
        return;
      }
      const { uri, qr_png_base64: png } = r.value;
      assertThat(
        png !== undefined,
        `honoured (201, a uri of ${uri.length} characters), the answer carries the QR asked for (qr_png_base64 is absent)`,
      );
      const read = readQrPng(Buffer.from(png, 'base64'));
      assertThat(
        read.ok,
        `the QR image can be read: ${read.ok ? '' : read.findings.map((f) => f.message).join('; ')}`,
      );
      assertThat(
        read.text === uri,
        `the QR payload is the whole uri (${uri.length} characters; the payload has ${read.text.length})`,
      );
    },
  );
});
