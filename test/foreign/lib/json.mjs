// A strict RFC 8259 JSON reader that reports duplicate member names, and the
// RFC 8785 JSON Canonicalization Scheme (JCS) writer.

export class JsonSyntaxError extends Error {}

const MAX_DEPTH = 128;

/**
 * Parse JSON text. A leading byte order mark is skipped (a reader may ignore
 * it). Returns `{ value, duplicates }` where `duplicates` lists the JSON
 * Pointer-like paths (arrays of keys) of every object that repeated a name.
 * Objects are plain objects whose own properties are defined (never via the
 * prototype setter), so a member named `__proto__` is kept as data.
 */
export function parseJson(text) {
  const src = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const duplicates = [];
  let pos = 0;

  const fail = (what) => {
    throw new JsonSyntaxError(`${what} at offset ${pos}`);
  };
  const skipWs = () => {
    while (pos < src.length) {
      const c = src.charCodeAt(pos);
      if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) pos += 1;
      else break;
    }
  };

  const readString = () => {
    pos += 1; // opening quote
    let out = '';
    let start = pos;
    while (true) {
      if (pos >= src.length) fail('unterminated string');
      const c = src.charCodeAt(pos);
      if (c === 0x22) {
        out += src.slice(start, pos);
        pos += 1;
        return out;
      }
      if (c < 0x20) fail('control character in string');
      if (c !== 0x5c) {
        pos += 1;
        continue;
      }
      out += src.slice(start, pos);
      const esc = src[pos + 1];
      pos += 2;
      switch (esc) {
        case '"':
          out += '"';
          break;
        case '\\':
          out += '\\';
          break;
        case '/':
          out += '/';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          const hex = src.slice(pos, pos + 4);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) fail('bad \\u escape');
          out += String.fromCharCode(Number.parseInt(hex, 16));
          pos += 4;
          break;
        }
        default:
          fail('bad escape');
      }
      start = pos;
    }
  };

  const NUMBER_RE = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
  const readNumber = () => {
    NUMBER_RE.lastIndex = pos;
    const m = NUMBER_RE.exec(src);
    if (!m) fail('bad number');
    pos += m[0].length;
    return Number(m[0]);
  };

  const readValue = (path, depth) => {
    if (depth > MAX_DEPTH) fail('nesting too deep');
    skipWs();
    const c = src[pos];
    if (c === '{') {
      pos += 1;
      const obj = {};
      const seen = new Set();
      skipWs();
      if (src[pos] === '}') {
        pos += 1;
        return obj;
      }
      while (true) {
        skipWs();
        if (src[pos] !== '"') fail('expected member name');
        const key = readString();
        skipWs();
        if (src[pos] !== ':') fail('expected colon');
        pos += 1;
        const value = readValue([...path, key], depth + 1);
        if (seen.has(key)) duplicates.push([...path, key]);
        seen.add(key);
        Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
        skipWs();
        if (src[pos] === ',') {
          pos += 1;
          continue;
        }
        if (src[pos] === '}') {
          pos += 1;
          return obj;
        }
        fail('expected , or }');
      }
    }
    if (c === '[') {
      pos += 1;
      const arr = [];
      skipWs();
      if (src[pos] === ']') {
        pos += 1;
        return arr;
      }
      while (true) {
        arr.push(readValue([...path, arr.length], depth + 1));
        skipWs();
        if (src[pos] === ',') {
          pos += 1;
          continue;
        }
        if (src[pos] === ']') {
          pos += 1;
          return arr;
        }
        fail('expected , or ]');
      }
    }
    if (c === '"') return readString();
    if (src.startsWith('true', pos)) {
      pos += 4;
      return true;
    }
    if (src.startsWith('false', pos)) {
      pos += 5;
      return false;
    }
    if (src.startsWith('null', pos)) {
      pos += 4;
      return null;
    }
    if (c === '-' || (c >= '0' && c <= '9')) return readNumber();
    return fail('unexpected character');
  };

  const value = readValue([], 0);
  skipWs();
  if (pos !== src.length) fail('trailing characters');
  return { value, duplicates };
}

/** True for a JSON object (not an array, not null). */
export function isObject(v) {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 8785 canonical JSON text of a JSON value. */
export function canonicalize(value) {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('JCS: non-finite number');
    return JSON.stringify(value); // ECMAScript Number serialisation, as JCS requires
  }
  if (typeof value === 'string') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalize).join(',')}]`;
  if (typeof value === 'object') {
    // Default sort compares UTF-16 code units, which is what JCS specifies.
    const keys = Object.keys(value)
      .filter((k) => value[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalize(value[k])}`).join(',')}}`;
  }
  throw new TypeError(`JCS: unsupported type ${typeof value}`);
}

/** JCS bytes (UTF-8). */
export function canonicalBytes(value) {
  return Buffer.from(canonicalize(value), 'utf8');
}
