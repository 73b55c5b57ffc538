/**
 * QR delivery (spec 4.3 rule 1; profile 2: the URI as the QR payload, byte mode, error
 * correction M or better). Rendering and reading never throw: they return the PNG or text, or
 * findings.
 *
 * @packageDocumentation
 */
import { createRequire } from 'node:module';
import type * as Zxing from '@zxing/library';
import type jsQRModule from 'jsqr';
import type * as PngJs from 'pngjs';
import type * as QRCodeModule from 'qrcode';
import { type CodecFinding, codecFinding } from './findings.js';

const require = createRequire(import.meta.url);

/**
 * The QR and PNG libraries (all CommonJS), required on first use rather than imported: together
 * they take some 300 ms to load, which every process importing this module (each child of a
 * `--jobs` run, `cprc validate`) would pay whether or not it reads or draws a QR code.
 */
let libraries:
  | {
      zxing: typeof Zxing;
      jsQR: typeof jsQRModule.default;
      PNG: typeof PngJs.PNG;
      QRCode: typeof QRCodeModule;
    }
  | undefined;
function qrLibraries(): NonNullable<typeof libraries> {
  if (!libraries) {
    // jsqr's `module.exports.default` is the decoder; @zxing/library reads the symbol's format
    // information (error correction), which jsQR does not report
    const jsqr = require('jsqr') as { default: typeof jsQRModule.default };
    libraries = {
      zxing: require('@zxing/library') as typeof Zxing,
      jsQR: jsqr.default,
      PNG: (require('pngjs') as typeof PngJs).PNG,
      QRCode: require('qrcode') as typeof QRCodeModule,
    };
  }
  return libraries;
}

/** Requirement IDs the QR codec reports. */
export const QR_REQUIREMENTS = {
  /** Spec 4.3 rule 1: the URI is rendered as a QR code the paying application can scan. */
  qrDelivery: 'CPR-4.3-QR-CODE',
  /** Profile 2: byte mode, error correction M or better. */
  qrEncoding: 'PRF-2-QR-ENCODING',
  /** Profile 2: the URI must fit one QR symbol at the chosen error correction. */
  qrCapacity: 'PRF-2-QR-CAPACITY',
} as const;

/** Error-correction levels the profile allows (M or better). */
export type QrErrorCorrection = 'M' | 'Q' | 'H';

/** Options of {@link renderQrPng}. */
export interface RenderQrOptions {
  /** Error-correction level; default `M` (profile 2: M or better). */
  errorCorrection?: QrErrorCorrection;
  /** Pixels per module; default 4. */
  scale?: number;
  /** Quiet zone in modules; default 4 (ISO/IEC 18004). */
  margin?: number;
}

/**
 * Byte-mode capacity of a version-40 symbol per error-correction level (ISO/IEC 18004 table 7):
 * the largest payload one QR code can carry.
 */
export const QR_BYTE_CAPACITY: Readonly<Record<QrErrorCorrection, number>> = { M: 2331, Q: 1663, H: 1273 };

/** Largest image {@link readQrPng} decodes (pixels), so a hostile PNG cannot exhaust memory. */
export const MAX_QR_IMAGE_PIXELS = 16 * 1024 * 1024;

/**
 * Renders `uri` as a PNG QR code, in byte mode (UTF-8) at error correction M or better.
 * A URI longer than one symbol holds is a `PRF-2-QR-CAPACITY` finding, never an exception.
 *
 * @example
 * ```ts
 * const r = await renderQrPng('cpr://inline/eyJ...', { errorCorrection: 'Q' });
 * if (r.ok) await writeFile('cpr.png', r.png);
 * ```
 */
export async function renderQrPng(
  uri: string,
  opts: RenderQrOptions = {},
): Promise<{ ok: true; png: Buffer } | { ok: false; findings: CodecFinding[] }> {
  const ec = opts.errorCorrection ?? 'M';
  if (typeof uri !== 'string' || uri.length === 0) {
    return {
      ok: false,
      findings: [
        codecFinding(
          QR_REQUIREMENTS.qrDelivery,
          'SPEC',
          'error',
          'qr payload must be a non-empty uri string',
        ),
      ],
    };
  }
  if (!(ec in QR_BYTE_CAPACITY)) {
    return {
      ok: false,
      findings: [
        codecFinding(
          QR_REQUIREMENTS.qrEncoding,
          'PROFILE',
          'error',
          `error correction ${JSON.stringify(ec)} is not allowed; use M, Q or H`,
        ),
      ],
    };
  }
  const bytes = Buffer.from(uri, 'utf8');
  const capacity = QR_BYTE_CAPACITY[ec];
  if (bytes.length > capacity) {
    return { ok: false, findings: [capacityFinding(bytes.length, ec, capacity)] };
  }
  try {
    // Profile 2: byte mode. A single explicit byte segment keeps qrcode from choosing
    // alphanumeric or kanji segments for parts of the text.
    const png = await qrLibraries().QRCode.toBuffer([{ data: bytes, mode: 'byte' }], {
      type: 'png',
      errorCorrectionLevel: ec,
      scale: opts.scale ?? 4,
      margin: opts.margin ?? 4,
    });
    return { ok: true, png };
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    if (/too big|amount of data/i.test(msg))
      return { ok: false, findings: [capacityFinding(bytes.length, ec, capacity)] };
    return {
      ok: false,
      findings: [
        codecFinding(
          QR_REQUIREMENTS.qrDelivery,
          'SPEC',
          'error',
          `qr code cannot be rendered: ${msg.toLowerCase()}`,
        ),
      ],
    };
  }
}

function capacityFinding(length: number, ec: QrErrorCorrection, capacity: number): CodecFinding {
  return codecFinding(
    QR_REQUIREMENTS.qrCapacity,
    'PROFILE',
    'error',
    `uri is ${length} bytes; a qr code at error correction ${ec} holds at most ${capacity} bytes: use reference delivery for a request this large`,
  );
}

/** What {@link readQrPng} returns on success. */
export interface QrReading {
  /** The QR payload decoded as UTF-8. */
  text: string;
  /** QR version (1-40). */
  version: number;
  /** Segment modes found, e.g. `['byte']`. */
  modes: string[];
  /**
   * Error-correction level read from the symbol's format information (`L`, `M`, `Q` or `H`);
   * absent when the format information could not be read (then a finding says so).
   */
  errorCorrection?: 'L' | 'M' | 'Q' | 'H';
}

/**
 * Reads the error-correction level from the symbol's format information (ISO/IEC 18004 7.9),
 * with ZXing's QR reader (jsQR decodes the payload but does not report the level). Returns
 * undefined when ZXing finds no symbol. `luminance` is one byte per pixel.
 */
function readErrorCorrection(
  luminance: Uint8ClampedArray,
  width: number,
  height: number,
): 'L' | 'M' | 'Q' | 'H' | undefined {
  const {
    BinaryBitmap,
    DecodeHintType,
    HybridBinarizer,
    QRCodeReader,
    ResultMetadataType,
    RGBLuminanceSource,
  } = qrLibraries().zxing;
  const attempt = (pixels: Uint8ClampedArray, pure: boolean): 'L' | 'M' | 'Q' | 'H' | undefined => {
    try {
      const bitmap = new BinaryBitmap(new HybridBinarizer(new RGBLuminanceSource(pixels, width, height)));
      const hints = new Map<unknown, unknown>([[DecodeHintType.TRY_HARDER, true]]);
      if (pure) hints.set(DecodeHintType.PURE_BARCODE, true);
      const result = new QRCodeReader().decode(bitmap, hints as never);
      const level = result.getResultMetadata()?.get(ResultMetadataType.ERROR_CORRECTION_LEVEL);
      const text = String(level ?? '');
      return text === 'L' || text === 'M' || text === 'Q' || text === 'H' ? text : undefined;
    } catch {
      return undefined; // ZXing throws NotFound/Checksum/Format exceptions: no reading
    }
  };
  const inverted = () => luminance.map((v) => 255 - v);
  return (
    attempt(luminance, false) ??
    attempt(luminance, true) ??
    attempt(inverted(), false) ??
    attempt(inverted(), true)
  );
}

/** One luminance byte per pixel from RGBA, composited over white (a transparent pixel is light). */
function luminanceOf(rgba: Uint8ClampedArray, width: number, height: number): Uint8ClampedArray {
  const out = new Uint8ClampedArray(width * height);
  for (let i = 0, p = 0; p < out.length; i += 4, p++) {
    const a = (rgba[i + 3] ?? 255) / 255;
    const y = ((rgba[i] ?? 0) * 299 + (rgba[i + 1] ?? 0) * 587 + (rgba[i + 2] ?? 0) * 114) / 1000;
    out[p] = Math.round(y * a + 255 * (1 - a));
  }
  return out;
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Greatest common divisor of the lengths of the runs of identical pixels in every row and every
 * column of an RGBA image (`pixels` one 32-bit word per pixel): an image drawn in aligned g x g
 * blocks (a QR code rendered at g pixels per module, quiet zone included) gives g, or a multiple
 * of it; any other image gives a smaller number, at worst 1. Stops at 1.
 */
function blockSize(pixels: Uint32Array, width: number, height: number): number {
  const gcd = (a: number, b: number): number => {
    let x = a;
    let y = b;
    while (y !== 0) [x, y] = [y, x % y];
    return x;
  };
  let g = gcd(width, height);
  for (let y = 0; y < height && g > 1; y++) {
    const row = y * width;
    let start = 0;
    for (let x = 1; x < width; x++) {
      if (pixels[row + x] !== pixels[row + x - 1]) {
        g = gcd(g, x - start);
        start = x;
      }
    }
  }
  for (let x = 0; x < width && g > 1; x++) {
    let start = 0;
    for (let y = 1; y < height; y++) {
      if (pixels[y * width + x] !== pixels[(y - 1) * width + x]) {
        g = gcd(g, y - start);
        start = y;
      }
    }
  }
  return g;
}

/**
 * The same picture with fewer pixels, when that loses nothing: an image made of aligned g x g
 * blocks of one colour each (every run of identical pixels, in every row and column, a multiple
 * of g long) is shrunk to one pixel per block. A QR code rendered at 4 pixels per module reads
 * from a sixteenth of its pixels (one per module, which both readers take); their work grows
 * with the pixels. Undefined when g is 1 (a photograph, a scaled or blurred image): the image is
 * read whole.
 */
function reducedImage(
  rgba: Uint8ClampedArray,
  width: number,
  height: number,
): { pixels: Uint8ClampedArray; width: number; height: number } | undefined {
  const words =
    rgba.byteOffset % 4 === 0
      ? new Uint32Array(rgba.buffer, rgba.byteOffset, width * height)
      : new Uint32Array(Uint8ClampedArray.from(rgba).buffer, 0, width * height);
  const f = blockSize(words, width, height);
  if (f === 1) return undefined;
  const w = width / f;
  const h = height / f;
  const out = new Uint32Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) out[y * w + x] = words[y * f * width + x * f] as number;
  return { pixels: new Uint8ClampedArray(out.buffer), width: w, height: h };
}

/**
 * Reads a QR code from a PNG image. Never throws. `ok: true` carries the payload text and
 * non-blocking findings (a symbol not in byte mode); `ok: false` says why no payload was read
 * (not a PNG, image too large, no QR code found, payload not UTF-8).
 *
 * @example
 * ```ts
 * const r = readQrPng(await readFile('cpr.png'));
 * if (r.ok) console.log(decodeCprUri(r.text));
 * ```
 */
export function readQrPng(
  png: Buffer | Uint8Array,
): ({ ok: true; findings: CodecFinding[] } & QrReading) | { ok: false; findings: CodecFinding[] } {
  const fail = (requirement: string, message: string) => ({
    ok: false as const,
    findings: [codecFinding(requirement, 'SPEC', 'error', message)],
  });
  if (!(png instanceof Uint8Array))
    return fail(QR_REQUIREMENTS.qrDelivery, 'qr image must be the bytes of a png file');
  const buf = Buffer.from(png.buffer, png.byteOffset, png.byteLength);
  const SIGNATURE = '89504e470d0a1a0a';
  if (buf.length < 24 || buf.subarray(0, 8).toString('hex') !== SIGNATURE) {
    return fail(QR_REQUIREMENTS.qrDelivery, 'qr image is not a png file (the png signature is missing)');
  }
  // IHDR is the first chunk: width and height at bytes 16-23. Refuse huge images before decoding.
  const width = buf.readUInt32BE(16);
  const height = buf.readUInt32BE(20);
  if (width === 0 || height === 0 || width * height > MAX_QR_IMAGE_PIXELS) {
    return fail(
      QR_REQUIREMENTS.qrDelivery,
      `qr image is ${width}x${height} pixels; at most ${MAX_QR_IMAGE_PIXELS} pixels are read`,
    );
  }
  let image: { data: Buffer; width: number; height: number };
  try {
    image = qrLibraries().PNG.sync.read(buf);
  } catch (e) {
    return fail(
      QR_REQUIREMENTS.qrDelivery,
      `qr image is not a readable png: ${String((e as Error).message ?? e).toLowerCase()}`,
    );
  }
  const full = {
    pixels: new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength),
    width: image.width,
    height: image.height,
  };
  // read from the reduced picture when there is one (the same symbol, fewer pixels), else whole;
  // a reduced picture that gives no reading is read whole too
  const reduced = reducedImage(full.pixels, full.width, full.height);
  // dark on light first (jsQR's `onlyInvert` fails on some images: `attemptBoth` reads light on dark)
  const decode = (im: typeof full) =>
    qrLibraries().jsQR(im.pixels, im.width, im.height, { inversionAttempts: 'dontInvert' }) ??
    qrLibraries().jsQR(im.pixels, im.width, im.height, { inversionAttempts: 'attemptBoth' });
  let read = full;
  let code = reduced === undefined ? null : decode(reduced);
  if (code === null) code = decode(full);
  else if (reduced !== undefined) read = reduced;
  if (code === null) return fail(QR_REQUIREMENTS.qrDelivery, 'no qr code found in the image');
  let text: string;
  try {
    text = fatalUtf8.decode(Uint8Array.from(code.binaryData));
  } catch {
    return fail(QR_REQUIREMENTS.qrDelivery, 'qr payload is not utf-8 text');
  }
  const modes = [...new Set(code.chunks.map((c) => String(c.type)))];
  const findings: CodecFinding[] = [];
  const other = modes.filter((m) => m !== 'byte' && m !== 'eci');
  if (other.length > 0) {
    findings.push(
      codecFinding(
        QR_REQUIREMENTS.qrEncoding,
        'PROFILE',
        'warning',
        `qr code uses ${other.join(', ')} mode segment(s); the profile encodes the uri in byte mode`,
      ),
    );
  }
  const levelOf = (im: typeof full) =>
    readErrorCorrection(luminanceOf(im.pixels, im.width, im.height), im.width, im.height);
  const errorCorrection = levelOf(read) ?? (read === full ? undefined : levelOf(full));
  if (errorCorrection === undefined) {
    findings.push(
      codecFinding(
        QR_REQUIREMENTS.qrEncoding,
        'PROFILE',
        'error',
        'the error-correction level of the qr code could not be read from its format information; the profile asks for M or better',
      ),
    );
  } else if (errorCorrection === 'L') {
    findings.push(
      codecFinding(
        QR_REQUIREMENTS.qrEncoding,
        'PROFILE',
        'error',
        'qr code uses error correction L; the profile asks for M or better (M, Q or H)',
      ),
    );
  }
  return {
    ok: true,
    text,
    version: code.version,
    modes,
    ...(errorCorrection === undefined ? {} : { errorCorrection }),
    findings,
  };
}
