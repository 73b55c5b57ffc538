/**
 * Payee suite, profile 2: "QR: the URI as the QR payload, byte mode, error correction M or
 * better". The error-correction level is read from each symbol's format information (the codec's
 * reader, ZXing), on every QR image the harness answers: the corpus (reference and inline URIs of
 * every rail served) and a long inline URI (a symbol of a high version, where an encoder choosing
 * the smallest symbol is most tempted to drop to L). Level L, or a level that cannot be read, fails;
 * M, Q and H pass. The long URI's symbol is also held to byte mode for its whole payload.
 */
import { readQrPng } from '../../src/codec/index.js';
import { assertThat, check, sharedState, skip } from '../_lib/index.js';
import { corpus, harness, label } from './_support/index.js';

/** Extension text that makes an inline URI of about 1,100 bytes: a large symbol at any level M+ holds it. */
const LONG_TEXT = 'Conformance text for a long QR payload. '.repeat(18);

sharedState('payee:corpus', ['qr-code-error-correction-m-or-better']);

describe('profile 2: QR error correction M or better', () => {
  check(
    'qr-code-error-correction-m-or-better',
    ['PRF-2-QR-ENCODING'],
    'every QR image the harness answers (reference and inline URIs, short and long) is at error correction M, Q or H (read from the symbol), and a long URI is one byte-mode segment',
    async () => {
      const problems: string[] = [];
      let read = 0;
      for (const e of await corpus()) {
        if (e.form !== 'qr-reference' && e.form !== 'qr-inline') continue;
        if (e.qrText === undefined) continue; // no readable image: graded by the QR delivery checks
        read++;
        if (e.qrErrorCorrection === undefined)
          problems.push(`${label(e)}: the error-correction level cannot be read from the symbol`);
        else if (e.qrErrorCorrection === 'L')
          problems.push(`${label(e)}: error correction L (M, Q or H asked)`);
      }
      const long = await harness().createRequest({
        delivery: 'inline',
        qr: true,
        memo: 'Long QR payload',
        extensions: { 'com.example.conformance:text': LONG_TEXT },
      });
      if (long.ok && long.value.qr_png_base64 !== undefined) {
        const r = readQrPng(Buffer.from(long.value.qr_png_base64, 'base64'));
        const what = `the QR of a long inline uri (${Buffer.byteLength(long.value.uri)} bytes)`;
        if (!r.ok) problems.push(`${what} cannot be read: ${r.findings.map((f) => f.message).join('; ')}`);
        else {
          read++;
          if (r.errorCorrection === undefined)
            problems.push(`${what}: the error-correction level cannot be read from the symbol`);
          else if (r.errorCorrection === 'L') problems.push(`${what}: error correction L (M, Q or H asked)`);
          const other = r.modes.filter((m) => m !== 'byte' && m !== 'eci');
          if (other.length > 0)
            problems.push(
              `${what}: ${other.join(', ')} segment(s) beside byte mode (one byte-mode payload asked)`,
            );
        }
      }
      if (read === 0)
        skip('the payee harness answered no readable QR image (graded by the QR delivery checks)');
      assertThat(
        problems.length === 0,
        `each of ${read} QR image(s) is at error correction M or better; ${problems.length} problem(s): ${problems.slice(0, 4).join(' | ')}`,
      );
    },
  );
});
