// QR Code model 2 encoder (ISO/IEC 18004): byte mode, versions 1-40, error
// correction L or M, automatic mask choice by the standard penalty rules,
// and a 1-bit greyscale PNG writer (zlib from node:zlib).

import { deflateSync } from 'node:zlib';

// Error-correction codewords per block and number of blocks, index = version.
const EC_TABLE = {
  L: {
    perBlock: [
      0, 7, 10, 15, 20, 26, 18, 20, 24, 30, 18, 20, 24, 26, 30, 22, 24, 28, 30, 28, 28, 28, 28, 30, 30, 26,
      28, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30, 30,
    ],
    blocks: [
      0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 4, 4, 4, 4, 4, 6, 6, 6, 6, 7, 8, 8, 9, 9, 10, 12, 12, 12, 13, 14, 15, 16,
      17, 18, 19, 19, 20, 21, 22, 24, 25,
    ],
    formatBits: 1,
  },
  M: {
    perBlock: [
      0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26, 30, 22, 22, 24, 24, 28, 28, 26, 26, 26, 26, 28, 28, 28, 28,
      28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28, 28,
    ],
    blocks: [
      0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5, 5, 8, 9, 9, 10, 10, 11, 13, 14, 16, 17, 17, 18, 20, 21, 23, 25, 26, 28,
      29, 31, 33, 35, 37, 38, 40, 43, 45, 47, 49,
    ],
    formatBits: 0,
  },
};

// ---------------------------------------------------------------------------
// GF(256) with the QR polynomial x^8 + x^4 + x^3 + x^2 + 1, Reed-Solomon.

const EXP = new Uint8Array(512);
const LOG = new Uint8Array(256);
{
  let x = 1;
  for (let i = 0; i < 255; i += 1) {
    EXP[i] = x;
    LOG[x] = i;
    x <<= 1;
    if (x & 0x100) x ^= 0x11d;
  }
  for (let i = 255; i < 512; i += 1) EXP[i] = EXP[i - 255];
}
const gfMul = (a, b) => (a === 0 || b === 0 ? 0 : EXP[LOG[a] + LOG[b]]);

/** Generator polynomial coefficients (highest degree first, leading 1 dropped). */
function rsGenerator(degree) {
  let poly = [1];
  for (let i = 0; i < degree; i += 1) {
    const next = new Array(poly.length + 1).fill(0);
    for (let j = 0; j < poly.length; j += 1) {
      next[j] ^= poly[j];
      next[j + 1] ^= gfMul(poly[j], EXP[i]);
    }
    poly = next;
  }
  return poly.slice(1);
}

function rsRemainder(data, gen) {
  const rem = new Array(gen.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ rem.shift();
    rem.push(0);
    for (let i = 0; i < gen.length; i += 1) rem[i] ^= gfMul(gen[i], factor);
  }
  return rem;
}

// ---------------------------------------------------------------------------
// Capacities.

/** Modules available for data and EC codewords (everything but function patterns). */
function rawDataModules(version) {
  let n = (16 * version + 128) * version + 64;
  if (version >= 2) {
    const align = Math.floor(version / 7) + 2;
    n -= (25 * align - 10) * align - 55;
    if (version >= 7) n -= 36;
  }
  return n;
}

const totalCodewords = (version) => Math.floor(rawDataModules(version) / 8);
const dataCodewords = (version, ec) =>
  totalCodewords(version) - EC_TABLE[ec].perBlock[version] * EC_TABLE[ec].blocks[version];

function alignmentCenters(version) {
  if (version === 1) return [];
  const count = Math.floor(version / 7) + 2;
  const size = version * 4 + 17;
  const step = Math.floor((version * 8 + count * 3 + 5) / (count * 4 - 4)) * 2;
  const out = [6];
  for (let pos = size - 7; out.length < count; pos -= step) out.splice(1, 0, pos);
  return out;
}

// ---------------------------------------------------------------------------
// Bit stream and codewords.

function byteModeBits(bytes, version) {
  const bits = [];
  const put = (value, len) => {
    for (let i = len - 1; i >= 0; i -= 1) bits.push((value >>> i) & 1);
  };
  put(0b0100, 4);
  put(bytes.length, version <= 9 ? 8 : 16);
  for (const b of bytes) put(b, 8);
  return bits;
}

function codewordsFor(bytes, version, ec) {
  const capacityBits = dataCodewords(version, ec) * 8;
  const bits = byteModeBits(bytes, version);
  bits.push(...new Array(Math.min(4, capacityBits - bits.length)).fill(0));
  while (bits.length % 8 !== 0) bits.push(0);
  const data = [];
  for (let i = 0; i < bits.length; i += 8) data.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; data.length < capacityBits / 8; pad ^= 0xec ^ 0x11) data.push(pad);

  // Split into blocks, add EC codewords, interleave.
  const { perBlock, blocks } = EC_TABLE[ec];
  const ecLen = perBlock[version];
  const numBlocks = blocks[version];
  const total = totalCodewords(version);
  const shortBlocks = numBlocks - (total % numBlocks);
  const shortDataLen = Math.floor(total / numBlocks) - ecLen;
  const gen = rsGenerator(ecLen);
  const dataBlocks = [];
  const ecBlocks = [];
  let k = 0;
  for (let i = 0; i < numBlocks; i += 1) {
    const len = shortDataLen + (i < shortBlocks ? 0 : 1);
    const block = data.slice(k, k + len);
    k += len;
    dataBlocks.push(block);
    ecBlocks.push(rsRemainder(block, gen));
  }
  const out = [];
  for (let i = 0; i <= shortDataLen; i += 1) for (const b of dataBlocks) if (i < b.length) out.push(b[i]);
  for (let i = 0; i < ecLen; i += 1) for (const b of ecBlocks) out.push(b[i]);
  return out;
}

// ---------------------------------------------------------------------------
// Matrix.

const MASKS = [
  (x, y) => (x + y) % 2 === 0,
  (_x, y) => y % 2 === 0,
  (x) => x % 3 === 0,
  (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0,
  (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0,
  (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

/** BCH remainder of `value` for the generator `poly` of degree `degree`. */
function bchRemainder(value, poly, degree) {
  let rem = value;
  for (let i = 0; i < degree; i += 1) rem = (rem << 1) ^ ((rem >>> (degree - 1)) * poly);
  return rem & ((1 << degree) - 1);
}

class Matrix {
  constructor(version) {
    this.version = version;
    this.size = version * 4 + 17;
    this.dark = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
    this.reserved = Array.from({ length: this.size }, () => new Array(this.size).fill(false));
  }

  setFn(x, y, dark) {
    this.dark[y][x] = dark;
    this.reserved[y][x] = true;
  }

  drawFunctionPatterns() {
    const { size } = this;
    for (let i = 0; i < size; i += 1) {
      this.setFn(6, i, i % 2 === 0);
      this.setFn(i, 6, i % 2 === 0);
    }
    for (const [cx, cy] of [
      [3, 3],
      [size - 4, 3],
      [3, size - 4],
    ]) {
      for (let dy = -4; dy <= 4; dy += 1) {
        for (let dx = -4; dx <= 4; dx += 1) {
          const x = cx + dx;
          const y = cy + dy;
          if (x < 0 || y < 0 || x >= size || y >= size) continue;
          const d = Math.max(Math.abs(dx), Math.abs(dy));
          this.setFn(x, y, d !== 2 && d !== 4);
        }
      }
    }
    const centers = alignmentCenters(this.version);
    const last = centers.length - 1;
    centers.forEach((cx, i) => {
      centers.forEach((cy, j) => {
        if ((i === 0 && j === 0) || (i === 0 && j === last) || (i === last && j === 0)) return;
        for (let dy = -2; dy <= 2; dy += 1)
          for (let dx = -2; dx <= 2; dx += 1)
            this.setFn(cx + dx, cy + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
      });
    });
    this.drawFormat(0, 0); // reserve; redrawn with the real mask later
    if (this.version >= 7) {
      const bits = (this.version << 12) | bchRemainder(this.version, 0x1f25, 12);
      for (let i = 0; i < 18; i += 1) {
        const dark = ((bits >>> i) & 1) === 1;
        const a = size - 11 + (i % 3);
        const b = Math.floor(i / 3);
        this.setFn(a, b, dark);
        this.setFn(b, a, dark);
      }
    }
  }

  drawFormat(ecFormatBits, mask) {
    const data = (ecFormatBits << 3) | mask;
    const bits = ((data << 10) | bchRemainder(data, 0x537, 10)) ^ 0x5412;
    const bit = (i) => ((bits >>> i) & 1) === 1;
    const { size } = this;
    for (let i = 0; i <= 5; i += 1) this.setFn(8, i, bit(i));
    this.setFn(8, 7, bit(6));
    this.setFn(8, 8, bit(7));
    this.setFn(7, 8, bit(8));
    for (let i = 9; i < 15; i += 1) this.setFn(14 - i, 8, bit(i));
    for (let i = 0; i < 8; i += 1) this.setFn(size - 1 - i, 8, bit(i));
    for (let i = 8; i < 15; i += 1) this.setFn(8, size - 15 + i, bit(i));
    this.setFn(8, size - 8, true); // the dark module
  }

  placeData(codewords) {
    const { size } = this;
    let i = 0;
    const totalBits = codewords.length * 8;
    for (let right = size - 1; right >= 1; right -= 2) {
      if (right === 6) right = 5;
      const upward = ((right + 1) & 2) === 0;
      for (let v = 0; v < size; v += 1) {
        const y = upward ? size - 1 - v : v;
        for (let j = 0; j < 2; j += 1) {
          const x = right - j;
          if (this.reserved[y][x]) continue;
          if (i < totalBits) this.dark[y][x] = ((codewords[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
          i += 1;
        }
      }
    }
  }

  applyMask(mask) {
    const fn = MASKS[mask];
    for (let y = 0; y < this.size; y += 1)
      for (let x = 0; x < this.size; x += 1)
        if (!this.reserved[y][x] && fn(x, y)) this.dark[y][x] = !this.dark[y][x];
  }

  penalty() {
    const { size, dark } = this;
    let score = 0;
    const lineScore = (get) => {
      for (let a = 0; a < size; a += 1) {
        let run = 1;
        for (let b = 1; b <= size; b += 1) {
          if (b < size && get(a, b) === get(a, b - 1)) run += 1;
          else {
            if (run >= 5) score += run - 2;
            run = 1;
          }
        }
        // Finder-like 1:1:3:1:1 with four light modules on either side.
        for (let b = 0; b + 6 < size; b += 1) {
          const core =
            get(a, b) &&
            !get(a, b + 1) &&
            get(a, b + 2) &&
            get(a, b + 3) &&
            get(a, b + 4) &&
            !get(a, b + 5) &&
            get(a, b + 6);
          if (!core) continue;
          const lightBefore = [1, 2, 3, 4].every((d) => b - d < 0 || !get(a, b - d));
          const lightAfter = [7, 8, 9, 10].every((d) => b + d >= size || !get(a, b + d));
          if (lightBefore || lightAfter) score += 40;
        }
      }
    };
    lineScore((row, col) => dark[row][col]);
    lineScore((col, row) => dark[row][col]);
    for (let y = 0; y + 1 < size; y += 1)
      for (let x = 0; x + 1 < size; x += 1) {
        const c = dark[y][x];
        if (c === dark[y][x + 1] && c === dark[y + 1][x] && c === dark[y + 1][x + 1]) score += 3;
      }
    let darkCount = 0;
    for (const row of dark) for (const c of row) if (c) darkCount += 1;
    const total = size * size;
    const k = Math.ceil(Math.abs(darkCount * 20 - total * 10) / total) - 1;
    return score + Math.max(0, k) * 10;
  }
}

/**
 * Encode bytes (or a string, as UTF-8) into a QR symbol. Returns
 * `{ version, ec, mask, size, modules }` with `modules[y][x] === true` for dark.
 * Options: `ec` ('M' by default), `minVersion`, `mask` (fixed mask, for tests).
 */
export function encodeQr(input, { ec = 'M', minVersion = 1, mask = null } = {}) {
  const bytes = typeof input === 'string' ? Buffer.from(input, 'utf8') : Buffer.from(input);
  let version = minVersion;
  while (version <= 40 && byteModeBits(bytes, version).length > dataCodewords(version, ec) * 8) version += 1;
  if (version > 40) throw new RangeError('data too long for a QR code');
  const codewords = codewordsFor(bytes, version, ec);
  const build = (m) => {
    const qr = new Matrix(version);
    qr.drawFunctionPatterns();
    qr.placeData(codewords);
    qr.applyMask(m);
    qr.drawFormat(EC_TABLE[ec].formatBits, m);
    return qr;
  };
  let best = null;
  let bestMask = 0;
  const candidates = mask === null ? [0, 1, 2, 3, 4, 5, 6, 7] : [mask];
  for (const m of candidates) {
    const qr = build(m);
    const p = qr.penalty();
    if (best === null || p < best.p) {
      best = { qr, p };
      bestMask = m;
    }
  }
  return { version, ec, mask: bestMask, size: best.qr.size, modules: best.qr.dark };
}

// ---------------------------------------------------------------------------
// PNG.

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n += 1) {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Render a QR symbol as a PNG (1-bit greyscale), `scale` pixels a module, 4-module quiet zone. */
export function qrToPng(symbol, { scale = 4, quiet = 4 } = {}) {
  const modulesWide = symbol.size + 2 * quiet;
  const px = modulesWide * scale;
  const rowBytes = Math.ceil(px / 8);
  const raw = Buffer.alloc((rowBytes + 1) * px);
  for (let y = 0; y < px; y += 1) {
    const my = Math.floor(y / scale) - quiet;
    const rowStart = y * (rowBytes + 1);
    raw[rowStart] = 0; // filter: none
    for (let x = 0; x < px; x += 1) {
      const mx = Math.floor(x / scale) - quiet;
      const dark = my >= 0 && mx >= 0 && my < symbol.size && mx < symbol.size && symbol.modules[my][mx];
      // In 1-bit greyscale, 1 is white.
      if (!dark) raw[rowStart + 1 + (x >> 3)] |= 0x80 >> (x & 7);
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(px, 0);
  ihdr.writeUInt32BE(px, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  ihdr[10] = 0;
  ihdr[11] = 0;
  ihdr[12] = 0;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
