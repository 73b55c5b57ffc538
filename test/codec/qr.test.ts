import fc from 'fast-check';
import { PNG } from 'pngjs';
import QRCode from 'qrcode';
import { describe, expect, it } from 'vitest';
import {
  decodeCprUri,
  encodeInlineUri,
  encodeReferenceUri,
  QR_BYTE_CAPACITY,
  readQrPng,
  renderQrPng,
} from '../../src/codec/index.js';

const TOKEN = 'mfrggzdfmztwq2lknnwg23tpobyxe43u';

async function png(uri: string, ec?: 'M' | 'Q' | 'H'): Promise<Buffer> {
  const r = await renderQrPng(uri, ec === undefined ? {} : { errorCorrection: ec });
  if (!r.ok) throw new Error(JSON.stringify(r.findings));
  return r.png;
}

describe('QR delivery (spec 4.3 rule 1, profile 2) [CPR-4.3-QR-CODE PRF-2-QR-ENCODING PRF-2-QR-CAPACITY]', () => {
  it('round-trips a reference URI through a PNG at every allowed error-correction level', async () => {
    const uri = encodeReferenceUri(TOKEN, 'https://127.0.0.1:8443');
    for (const ec of ['M', 'Q', 'H'] as const) {
      const r = readQrPng(await png(uri, ec));
      expect(r).toMatchObject({ ok: true, text: uri, modes: ['byte'], findings: [] });
    }
  });

  it('round-trips inline URIs of random non-ASCII memos, decodable afterwards', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }), async (memo) => {
        const uri = encodeInlineUri({ cpr_version: 'CPR-1.0', memo });
        const r = readQrPng(await png(uri));
        expect(r.ok && r.text).toBe(uri);
        const d = decodeCprUri(r.ok ? r.text : '');
        expect(d.ok && d.value.kind === 'inline' && d.value.document.memo).toBe(memo);
      }),
      { numRuns: 15 },
    );
  });

  it('encodes in byte mode even when the text is all digits or upper case', async () => {
    for (const text of ['12345678901234567890', 'CPR://ABCDEFGHIJKLMNOP']) {
      const r = readQrPng(await png(text));
      expect(r).toMatchObject({ ok: true, text, modes: ['byte'] });
    }
  });

  it('defaults to error correction M and fills up to the version-40 byte capacity', async () => {
    const atCap = `cpr://inline/${'A'.repeat(QR_BYTE_CAPACITY.M - 'cpr://inline/'.length)}`;
    expect(Buffer.byteLength(atCap)).toBe(2331);
    const r = await renderQrPng(atCap);
    expect(r.ok).toBe(true);
    // QRCode.create confirms what renderQrPng chose: version 40 at level M.
    const meta = QRCode.create([{ data: Buffer.from(atCap), mode: 'byte' }], { errorCorrectionLevel: 'M' });
    expect(meta.version).toBe(40);
  });

  it('reports a URI over capacity as a finding, never an exception', async () => {
    for (const ec of ['M', 'Q', 'H'] as const) {
      const uri = `cpr://inline/${'A'.repeat(QR_BYTE_CAPACITY[ec])}`;
      const r = await renderQrPng(uri, { errorCorrection: ec });
      expect(r.ok).toBe(false);
      expect(!r.ok && r.findings).toEqual([
        expect.objectContaining({
          requirement: 'PRF-2-QR-CAPACITY',
          level: 'PROFILE',
          severity: 'error',
          path: '',
        }),
      ]);
      expect(!r.ok && r.findings[0]?.message).toMatch(new RegExp(`at most ${QR_BYTE_CAPACITY[ec]} bytes`));
    }
    // Capacity counts UTF-8 bytes, not characters: 800 three-byte characters exceed Q.
    const wide = await renderQrPng(`cpr://inline/${'€'.repeat(800)}`, { errorCorrection: 'Q' });
    expect(!wide.ok && wide.findings[0]?.message).toMatch(/uri is 2413 bytes/);
  });

  it('refuses an error-correction level below M and an empty payload', async () => {
    const low = await renderQrPng('cpr://x', { errorCorrection: 'L' as 'M' });
    expect(!low.ok && low.findings[0]).toMatchObject({ requirement: 'PRF-2-QR-ENCODING' });
    const empty = await renderQrPng('');
    expect(!empty.ok && empty.findings[0]?.message).toMatch(/non-empty/);
  });

  it('reads the error-correction level from the symbol: M, Q and H accepted, L refused, short and long URIs', async () => {
    const short = encodeReferenceUri(TOKEN, 'https://127.0.0.1:8443');
    const long = encodeInlineUri({
      cpr_version: 'CPR-1.0',
      memo: 'Ü'.repeat(60),
      remittance_info: 'x'.repeat(140),
    });
    for (const uri of [short, long]) {
      for (const ec of ['L', 'M', 'Q', 'H'] as const) {
        // made with the qrcode package directly: renderQrPng refuses L
        const image = await QRCode.toBuffer([{ data: Buffer.from(uri), mode: 'byte' }], {
          type: 'png',
          errorCorrectionLevel: ec,
        });
        const r = readQrPng(image);
        expect(r).toMatchObject({ ok: true, text: uri, modes: ['byte'], errorCorrection: ec });
        if (ec === 'L') {
          expect(r.findings).toEqual([
            expect.objectContaining({
              requirement: 'PRF-2-QR-ENCODING',
              level: 'PROFILE',
              severity: 'error',
            }),
          ]);
          expect(r.findings[0]?.message).toMatch(/error correction L/);
        } else expect(r.findings).toEqual([]);
      }
    }
  });

  it('reads the level of a symbol drawn light on dark, and of one rendered with the encoder defaults (L)', async () => {
    const uri = encodeReferenceUri(TOKEN, 'https://127.0.0.1:8443');
    const inverted = await QRCode.toBuffer([{ data: Buffer.from(uri), mode: 'byte' }], {
      type: 'png',
      errorCorrectionLevel: 'Q',
      color: { dark: '#ffffffff', light: '#000000ff' },
    });
    expect(readQrPng(inverted)).toMatchObject({ ok: true, text: uri, errorCorrection: 'Q', findings: [] });
    // qrcode's own default for a short text is M; a renderer whose default is L is what the check catches
    const lowDefault = await QRCode.toBuffer(uri, { type: 'png', errorCorrectionLevel: 'low' });
    expect(readQrPng(lowDefault)).toMatchObject({ ok: true, errorCorrection: 'L' });
  });

  it('reads the same payload and level whether the image is drawn in whole blocks (read reduced) or not (read whole)', async () => {
    const uri = encodeInlineUri({ note: 'x'.repeat(900) });
    for (const scale of [3, 4]) {
      const blocks = await QRCode.toBuffer([{ data: Buffer.from(uri), mode: 'byte' }], {
        type: 'png',
        errorCorrectionLevel: 'H',
        scale,
      });
      // one pixel of the quiet zone a shade off: no longer whole blocks, so the image is read whole
      const image = PNG.sync.read(blocks);
      image.data[0] = 250;
      const speck = PNG.sync.write(image);
      const whole = readQrPng(speck);
      expect(whole).toMatchObject({
        ok: true,
        text: uri,
        modes: ['byte'],
        errorCorrection: 'H',
        findings: [],
      });
      expect(readQrPng(blocks)).toEqual(whole);
    }
    // a symbol drawn light on dark at 1 pixel per module is read as it is
    const tiny = await QRCode.toBuffer([{ data: Buffer.from(uri), mode: 'byte' }], {
      type: 'png',
      errorCorrectionLevel: 'Q',
      scale: 1,
      color: { dark: '#ffffffff', light: '#000000ff' },
    });
    expect(readQrPng(tiny)).toMatchObject({ ok: true, text: uri, errorCorrection: 'Q' });
  });

  it('reads a QR rendered in another mode and reports it as a PROFILE warning', async () => {
    const text = 'CPR://ABCDEF1234';
    const other = await QRCode.toBuffer([{ data: text, mode: 'alphanumeric' }], {
      errorCorrectionLevel: 'M',
    });
    const r = readQrPng(other);
    expect(r).toMatchObject({ ok: true, text, modes: ['alphanumeric'] });
    expect(r.findings).toEqual([
      expect.objectContaining({ requirement: 'PRF-2-QR-ENCODING', level: 'PROFILE', severity: 'warning' }),
    ]);
  });

  it.each([
    ['bytes that are not a PNG', Buffer.from('GIF89a not a png at all, nope'), /not a png file/],
    ['an empty buffer', Buffer.alloc(0), /not a png file/],
    [
      'a truncated PNG',
      Buffer.from('89504e470d0a1a0a0000000d4948445200000010000000100806', 'hex'),
      /not a readable png/,
    ],
    ['a non-buffer', 'hello' as unknown as Buffer, /must be the bytes of a png/],
  ])('fails on %s with a finding', (_name, input, message) => {
    const r = readQrPng(input);
    expect(r.ok).toBe(false);
    expect(r.findings[0]?.message).toMatch(message);
    expect(r.findings[0]?.severity).toBe('error');
  });

  it('fails on a PNG without a QR code', () => {
    const blank = new PNG({ width: 64, height: 64 });
    blank.data.fill(255);
    const r = readQrPng(PNG.sync.write(blank));
    expect(r).toMatchObject({
      ok: false,
      findings: [expect.objectContaining({ message: 'no qr code found in the image' })],
    });
  });

  it('refuses a PNG that claims a huge size before decoding it', () => {
    const header = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
    const dims = Buffer.alloc(8);
    dims.writeUInt32BE(100_000, 0);
    dims.writeUInt32BE(100_000, 4);
    const r = readQrPng(Buffer.concat([header, dims, Buffer.alloc(16)]));
    expect(r.ok === false && r.findings[0]?.message).toMatch(/100000x100000 pixels/);
  });

  it('never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, withSig) => {
        const buf = withSig
          ? Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from(bytes)])
          : Buffer.from(bytes);
        expect(readQrPng(buf).ok).toBe(false);
      }),
    );
  });
});
