// Keccak-256 (the pre-standard padding Ethereum uses; not SHA3-256, which
// node:crypto offers), EIP-55 checksummed addresses and EIP-712 domain
// separators. Keccak-f[1600] is written out on BigInt lanes: the payee hashes a
// few dozen bytes a request, so speed does not matter here.

const MASK = (1n << 64n) - 1n;

// Round constants and rotation offsets, generated as FIPS 202 describes them.
const RC = [];
const ROT = new Array(25).fill(0);
{
  let r = 1;
  for (let round = 0; round < 24; round += 1) {
    let rc = 0n;
    for (let j = 0; j < 7; j += 1) {
      r = ((r << 1) ^ ((r >> 7) * 0x71)) % 256;
      if (r & 2) rc ^= 1n << ((1n << BigInt(j)) - 1n);
    }
    RC.push(rc);
  }
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t += 1) {
    ROT[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
}

const rotl = (v, n) => (n === 0 ? v : ((v << BigInt(n)) | (v >> BigInt(64 - n))) & MASK);

function keccakF(a) {
  const c = new Array(5);
  const b = new Array(25);
  for (let round = 0; round < 24; round += 1) {
    for (let x = 0; x < 5; x += 1) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
    for (let x = 0; x < 5; x += 1) {
      const d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
      for (let y = 0; y < 25; y += 5) a[x + y] ^= d;
    }
    for (let x = 0; x < 5; x += 1) {
      for (let y = 0; y < 5; y += 1) b[y + 5 * ((2 * x + 3 * y) % 5)] = rotl(a[x + 5 * y], ROT[x + 5 * y]);
    }
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x += 1)
        a[x + y] = b[x + y] ^ (~b[((x + 1) % 5) + y] & MASK & b[((x + 2) % 5) + y]);
    }
    a[0] ^= RC[round];
  }
}

/** The sponge with a 1088-bit rate and 256-bit output; `pad` 0x01 is Keccak, 0x06 is SHA3. */
function sponge256(input, pad) {
  const rate = 136;
  const data = Buffer.from(input);
  const blocks = Math.floor(data.length / rate) + 1;
  const padded = Buffer.alloc(blocks * rate);
  data.copy(padded);
  padded[data.length] ^= pad;
  padded[padded.length - 1] ^= 0x80;
  const state = new Array(25).fill(0n);
  for (let off = 0; off < padded.length; off += rate) {
    for (let i = 0; i < rate / 8; i += 1) state[i] ^= padded.readBigUInt64LE(off + 8 * i);
    keccakF(state);
  }
  const out = Buffer.alloc(32);
  for (let i = 0; i < 4; i += 1) out.writeBigUInt64LE(state[i], 8 * i);
  return out;
}

/** Keccak-256 of bytes (a string is taken as UTF-8); returns a 32-byte Buffer. */
export const keccak256 = (input) =>
  sponge256(typeof input === 'string' ? Buffer.from(input, 'utf8') : input, 0x01);

/** SHA3-256 through the same permutation (only used to cross-check it against node:crypto). */
export const sha3_256 = (input) =>
  sponge256(typeof input === 'string' ? Buffer.from(input, 'utf8') : input, 0x06);

const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;

/** The EIP-55 checksummed form of an EVM address (any case in), or null. */
export function toChecksumAddress(address) {
  if (typeof address !== 'string' || !ADDRESS_RE.test(address)) return null;
  const lower = address.slice(2).toLowerCase();
  const hash = keccak256(lower).toString('hex');
  let out = '0x';
  for (let i = 0; i < 40; i += 1)
    out += Number.parseInt(hash[i], 16) >= 8 ? lower[i].toUpperCase() : lower[i];
  return out;
}

/** An EVM address: 0x + 40 hex digits, and when it mixes cases, a valid EIP-55 checksum. */
export function isValidEvmAddress(address) {
  if (typeof address !== 'string' || !ADDRESS_RE.test(address)) return false;
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return true;
  return toChecksumAddress(address) === address;
}

const uint256 = (value) => {
  const v = BigInt(value);
  if (v < 0n || v >= 1n << 256n) throw new RangeError('not a uint256');
  return Buffer.from(v.toString(16).padStart(64, '0'), 'hex');
};

export const EIP712_DOMAIN_TYPE =
  'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)';

/**
 * The EIP-712 domain separator of a domain {name, version, chainId, verifyingContract}:
 * keccak256(typeHash || keccak256(name) || keccak256(version) || uint256(chainId) || uint256(address)).
 * Returns `0x` + 64 lower-case hex digits.
 */
export function eip712DomainSeparator({ name, version, chainId, verifyingContract }) {
  if (!ADDRESS_RE.test(verifyingContract)) throw new TypeError('verifyingContract is not an EVM address');
  const encoded = Buffer.concat([
    keccak256(EIP712_DOMAIN_TYPE),
    keccak256(name),
    keccak256(version),
    uint256(chainId),
    uint256(verifyingContract),
  ]);
  return `0x${keccak256(encoded).toString('hex')}`;
}
