/**
 * Artefact safety: whatever a target sends (U+FFFE, lone surrogates, C0/C1 controls, bidi
 * overrides, U+2028/2029, escape sequences), every report stays valid and unambiguous. The
 * writers apply these functions at their write points: junit.xml ({@link xmlSafe}), results.json
 * ({@link jsonSafe}, lossless), summary.md and report.html ({@link visibleText}), the terminal
 * ({@link terminalLine}). A dangerous character is never dropped silently: it becomes a visible
 * escape such as `\u202E`, so a reader sees that the target sent it.
 */

/**
 * Characters that are not safe to show raw (the "unsafe" ones): C0 and C1 controls and DEL
 * (`\p{Cc}`: ESC starts terminal escape sequences), bidi controls (`\p{Bidi_Control}`: U+202E
 * reorders what a reader sees), noncharacters (U+FFFE, U+FFFF, U+FDD0..U+FDEF, U+nFFFE/nFFFF:
 * not allowed in XML), U+2028/U+2029 (line breaks to some readers, not to others), U+FEFF
 * (invisible) and lone surrogates (not Unicode text at all). As a regular expression:
 * `/[\p{Cc}\p{Bidi_Control}\p{Noncharacter_Code_Point}\u2028\u2029\uFEFF\uD800-\uDFFF]/gu`
 * (in `u` mode `[\uD800-\uDFFF]` matches only unpaired surrogates);
 * `test/reporters/safe-text.test.ts` holds the code below to it.
 *
 * The scan looks for the UTF-16 code units that can start an unsafe character, spelled out: the
 * C0 and C1 controls, the twelve bidi controls, U+2028/2029, U+FEFF, the BMP noncharacters, and
 * every surrogate, since a supplementary noncharacter is a pair; tab and line feed left out
 * (`_KEEP`) or not (`_ALL`). A plain class scans some five times faster than the Unicode property
 * classes over a report of 20 MB; each unit found is then judged as a code point.
 */
const MAYBE_UNSAFE_KEEP =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
  /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufdd0-\ufdef\ufeff\ufffe\uffff\ud800-\udfff]/g;
const MAYBE_UNSAFE_ALL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the controls are what it finds
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029\ufdd0-\ufdef\ufeff\ufffe\uffff\ud800-\udfff]/g;

/**
 * `text` with each unsafe character (a code point: a surrogate pair is one, a lone surrogate is
 * one) replaced by `escaped(codePoint, lone)`; tab and line feed kept raw with `keepBreaks`. The
 * same as a replace with the regular expression above, only faster; the text itself when nothing
 * is unsafe.
 */
function replaceUnsafe(
  text: string,
  keepBreaks: boolean,
  escaped: (codePoint: number, lone: boolean) => string,
): string {
  const maybe = keepBreaks ? MAYBE_UNSAFE_KEEP : MAYBE_UNSAFE_ALL;
  maybe.lastIndex = 0;
  let out = '';
  let from = 0;
  for (let m = maybe.exec(text); m !== null; m = maybe.exec(text)) {
    const i = m.index;
    const unit = text.charCodeAt(i);
    let codePoint = unit;
    let length = 1;
    let lone = unit >= 0xd800 && unit <= 0xdfff;
    if (unit <= 0xdbff && lone) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        codePoint = 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
        length = 2;
        lone = false;
        maybe.lastIndex = i + 2;
        // a paired code point is unsafe only as a noncharacter (U+nFFFE, U+nFFFF)
        if ((codePoint & 0xfffe) !== 0xfffe) continue;
      }
    }
    out += text.slice(from, i) + escaped(codePoint, lone);
    from = i + length;
  }
  return from === 0 ? text : out + text.slice(from);
}

/** `\u202E` (4 hex digits) or `\u{1FFFE}` for a code point beyond U+FFFF. */
export function visibleEscape(codePoint: number): string {
  const hex = codePoint.toString(16).toUpperCase();
  return codePoint > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, '0')}`;
}

/** Options of {@link visibleText}. */
export interface VisibleTextOptions {
  /** Keep line feeds (and tabs) raw: for multi-line documents. Default true. */
  keepLineBreaks?: boolean;
}

/**
 * Replaces every unsafe character (see above) by a visible escape (`\u202E`); tab and line feed
 * stay raw unless `keepLineBreaks` is false. The result is well-formed Unicode, holds no
 * character XML 1.0 forbids, no escape sequence and no bidi control.
 * @example
 * ```ts
 * visibleText('a\u202Eb\u001B[31m'); // 'a\\u202Eb\\u001B[31m'
 * ```
 */
export function visibleText(text: string, options: VisibleTextOptions = {}): string {
  return replaceUnsafe(text, options.keepLineBreaks !== false, (codePoint) => visibleEscape(codePoint));
}

/**
 * Text fit for an XML 1.0 document (junit.xml): every character XML 1.0 forbids (C0 controls
 * other than tab and line feed, lone surrogates, U+FFFE/U+FFFF) and every other unsafe one becomes
 * a visible escape. Markup characters are left alone: apply it to a whole rendered document, or
 * escape `<`, `&` and quotes separately.
 */
export function xmlSafe(text: string): string {
  return visibleText(text);
}

/**
 * A JSON text with every unsafe character inside its strings written as a JSON escape
 * (`\u202e`): lossless (a parser reads back the same string), and safe to print or diff. A lone
 * surrogate (not Unicode text; strict parsers refuse its escape) becomes the visible text
 * `\uD800` instead. C0 controls are already escaped by `JSON.stringify`.
 */
export function jsonSafe(jsonText: string): string {
  // JSON.stringify writes a lone surrogate as the escape \udXXX (pairs stay raw), which some
  // strict parsers refuse: it becomes the visible text \uDXXX (an odd run of backslashes before
  // "u" is an escape; an even run is literal backslashes).
  const escaped = jsonText.replace(/(\\+)u(d[89a-f][0-9a-f]{2})/gi, (m, slashes: string, hex: string) =>
    slashes.length % 2 === 1 ? `${slashes}\\u${hex.toUpperCase()}` : m,
  );
  // tab and line feed stay: in JSON text they are whitespace between tokens (strings escape them)
  return replaceUnsafe(escaped, true, (cp, lone) => {
    if (lone) return visibleEscape(cp).replace('\\', '\\\\');
    const unit = (u: number): string => `\\u${u.toString(16).padStart(4, '0')}`;
    if (cp <= 0xffff) return unit(cp);
    const v = cp - 0x10000;
    return unit(0xd800 + (v >> 10)) + unit(0xdc00 + (v & 0x3ff));
  });
}

/**
 * One terminal line: every unsafe character and every line break shown as an escape, so a target
 * can neither colour, move the cursor, reorder the text nor start a new line.
 * @example
 * ```ts
 * terminalLine('ok\r\n\u001B[2J'); // 'ok\\u000D\\u000A\\u001B[2J'
 * ```
 */
export function terminalLine(text: string): string {
  return visibleText(text, { keepLineBreaks: false });
}

/**
 * Deep copy of a JSON-like value with {@link visibleText} applied to every string (keys
 * included). Iterative, so a value nested at any depth is safe.
 */
export function visibleDeep<T>(value: T, options: VisibleTextOptions = {}): T {
  const fix = (s: string): string => visibleText(s, options);
  const root: { v: unknown } = { v: undefined };
  const stack: Array<{ from: unknown; into: Record<string, unknown> | unknown[]; key: string | number }> = [
    { from: value, into: root as unknown as Record<string, unknown>, key: 'v' },
  ];
  while (stack.length > 0) {
    const { from, into, key } = stack.pop() as (typeof stack)[number];
    let out: unknown;
    if (typeof from === 'string') out = fix(from);
    else if (Array.isArray(from)) {
      const arr: unknown[] = new Array(from.length);
      from.forEach((item, i) => {
        stack.push({ from: item, into: arr, key: i });
      });
      out = arr;
    } else if (from !== null && typeof from === 'object') {
      const obj: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(from)) {
        const fk = fix(k);
        obj[fk] = undefined; // keeps the members' order
        stack.push({ from: v, into: obj, key: fk });
      }
      out = obj;
    } else out = from;
    (into as Record<string | number, unknown>)[key] = out;
  }
  return root.v as T;
}
