/**
 * JSON text rules of profile section 1 that a parsed object can no longer show: no byte order
 * mark and no duplicate member names (RFC 8259 sections 4 and 8.1), plus UTF-8 decoding of
 * bytes. {@link validateCprText} and {@link validateCprBytes} are the entry points wherever the
 * raw text is at hand (`cprc validate`, the payee suite reading a retrieval body).
 *
 * @packageDocumentation
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { type Finding, finding } from '../model/finding.js';
import type { ValidateCprOptions, ValidationResult } from './types.js';
import { pointer } from './util.js';
import { validateCpr } from './validate-cpr.js';

/** The payload is JSON text in UTF-8 (profile section 1). */
const REQ_JSON = 'PRF-1-JSON-UTF8';
/** Emitted JSON text has no byte order mark (profile section 1, RFC 8259 8.1). */
const REQ_NO_BOM = 'PRF-1-JSON-NO-BOM';
/** Emitted JSON text has no duplicate member names (profile section 1, RFC 8259 4). */
const REQ_UNIQUE_NAMES = 'PRF-1-JSON-UNIQUE-MEMBER-NAMES';
/** A reader should refuse duplicate member names, a wallet with 422 INVALID_STRUCTURE. */
const REQ_READER_DUPLICATES = 'PRF-1-READER-REFUSES-DUPLICATES';

/** Every requirement ID a finding of this module can carry. */
export const JSON_TEXT_REQUIREMENTS: readonly string[] = [
  REQ_JSON,
  REQ_NO_BOM,
  REQ_UNIQUE_NAMES,
  REQ_READER_DUPLICATES,
];

/** One member name that appears twice (or more) in the same object. */
export interface DuplicateMember {
  /** JSON pointer of the repeated member (the object's path plus the name). */
  path: string;
  /** The member name, decoded. */
  name: string;
}

/** What {@link scanJsonText} finds. */
export interface JsonTextScan {
  /** The text starts with U+FEFF. */
  bom: boolean;
  /** Every repeated member name, in text order (each repetition once). */
  duplicates: DuplicateMember[];
}

/** An open container of the scan. */
interface Open {
  /** Member names seen so far (objects only; created at the first member). */
  names: Set<string> | null;
  /** True for an object. */
  object: boolean;
  /** Object: the next string is a member name. */
  expectName: boolean;
  /** Object: the last member name read (set before any value: its start value is never read). Array: the current index. */
  at: string | number;
  /** Segment of this container in its parent ('' for the root). */
  segment: string | number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Index of the quote closing the string whose opening quote is at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  for (;;) {
    const q = text.indexOf('"', i); // -1 (none) is returned as is: charCodeAt(-2) is no backslash
    let escaped = false;
    // the opening quote at `start` ends the run of backslashes
    for (let k = q - 1; text.charCodeAt(k) === BACKSLASH; k--) escaped = !escaped;
    if (!escaped) return q;
    i = q + 1;
  }
}

/**
 * Scans JSON text for a byte order mark and for member names repeated within one object, at any
 * depth, iteratively (no recursion, so no depth limit; memory grows with the nesting and the
 * member names of the open objects only). The text need not be valid JSON: the scan stops
 * quietly where it cannot go on, and `JSON.parse` reports the syntax.
 *
 * @example
 * ```ts
 * scanJsonText('{"a":1,"b":{"a":2},"a":3}').duplicates; // [{ path: '/a', name: 'a' }]
 * ```
 */
export function scanJsonText(text: string): JsonTextScan {
  const bom = text.charCodeAt(0) === 0xfeff;
  const duplicates: DuplicateMember[] = [];
  const stack: Open[] = [];
  const n = text.length;
  let i = 0; // a byte order mark is no JSON token: the loop passes over it
  // Stryker disable next-line EqualityOperator: at i = n charCodeAt gives NaN, which is no token: one idle round
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const end = stringEnd(text, i);
      if (end === -1) break;
      const top = stack[stack.length - 1];
      if (top?.object && top.expectName) {
        let name: string;
        try {
          name = JSON.parse(text.slice(i, end + 1)) as string; // escapes decoded
        } catch {
          break;
        }
        top.expectName = false;
        top.at = name;
        top.names ??= new Set();
        const repeated = top.names.has(name);
        top.names.add(name);
        if (repeated) {
          const segments: (string | number)[] = [];
          for (let k = 1; k < stack.length; k++) segments.push((stack[k] as Open).segment);
          segments.push(name);
          duplicates.push({ path: pointer(segments), name });
        }
      }
      i = end + 1;
      continue;
    }
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const parent = stack[stack.length - 1];
      stack.push({
        names: null,
        object: c === 0x7b,
        expectName: true, // read for an object only
        at: 0,
        segment: parent?.at ?? 0, // the root's segment is never read
      });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x2c /* , */) {
      const top = stack[stack.length - 1];
      if (top) {
        if (top.object) top.expectName = true;
        else top.at = (top.at as number) + 1;
      }
    }
    i++;
  }
  return { bom, duplicates };
}

/**
 * Number of member names in valid JSON text: every string followed (after white space) by a
 * colon. Only the quotes are visited: in valid JSON every quote outside a string opens one, so
 * the scan jumps from string to string.
 */
function memberNamesInText(text: string): number {
  let names = 0;
  let i = text.indexOf('"');
  while (i !== -1) {
    const end = stringEnd(text, i);
    // Stryker disable next-line ConditionalExpression: valid JSON closes every string it opens
    if (end === -1) break;
    let k = end + 1;
    let c = text.charCodeAt(k);
    while (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) c = text.charCodeAt(++k);
    if (c === 0x3a /* : */) names++;
    i = text.indexOf('"', k);
  }
  return names;
}

/** Number of members of every object in a parsed JSON value, at any depth (iterative). */
function membersInValue(value: unknown): number {
  let members = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    if (typeof v !== 'object' || v === null) continue;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) stack.push(v[i]);
    } else {
      const keys = Object.keys(v);
      members += keys.length;
      for (let i = 0; i < keys.length; i++) stack.push((v as Record<string, unknown>)[keys[i] as string]);
    }
  }
  return members;
}

/**
 * {@link scanJsonText} of text `JSON.parse` made `doc` from, with a shortcut for the common case:
 * a repeated member name leaves its object one member short of the text (the last one wins), so
 * when the text holds as many member names as the parsed value has members, no name repeats and
 * the full scan (which decodes and remembers every name) is skipped.
 */
function scanParsedText(text: string, doc: unknown): JsonTextScan {
  if (memberNamesInText(text) === membersInValue(doc)) {
    return { bom: text.charCodeAt(0) === 0xfeff, duplicates: [] };
  }
  return scanJsonText(text);
}

/** The text findings of one reading. */
function textFindings(scan: JsonTextScan, mode: 'payee' | 'wallet' | undefined): Finding[] {
  const out: Finding[] = [];
  if (scan.bom && mode === 'payee') {
    out.push(
      finding(
        REQ_NO_BOM,
        '',
        'the json text starts with a byte order mark (u+feff); emitted json has none (rfc 8259 8.1)',
      ),
    );
  }
  for (const d of scan.duplicates) {
    out.push(
      mode === 'payee'
        ? finding(
            REQ_UNIQUE_NAMES,
            d.path,
            `member name ${JSON.stringify(d.name)} appears more than once in the same object; emitted json has unique names (rfc 8259 4)`,
          )
        : finding(
            REQ_READER_DUPLICATES,
            d.path,
            `member name ${JSON.stringify(d.name)} appears more than once in the same object; a wallet should refuse the document (422 INVALID_STRUCTURE)`,
            'warning',
          ),
    );
  }
  return out;
}

/** A PRF-1-JSON-UTF8 error finding for the whole input. */
export function notJsonFinding(message: string): Finding {
  return finding(REQ_JSON, '', message);
}

/** Lower-cases the first letter of a JSON.parse message. */
function parseMessage(err: unknown): string {
  // JSON.parse throws a SyntaxError only
  const message = (err as Error).message;
  return message.charAt(0).toLowerCase() + message.slice(1);
}

/** Result of {@link parseJsonText}: the document, or the finding that says why there is none. */
export interface ParsedText {
  /** The parsed value (absent when the text is not JSON). */
  doc?: unknown;
  /** What the text itself breaks (not JSON; BOM and duplicate names in `mode`). */
  findings: Finding[];
}

/**
 * Parses JSON text and reports its text-level findings in the reading `mode` (absent: the
 * wallet's): not JSON (error),
 * a byte order mark (payee: PROFILE error; wallet: ignored, as a reader may), duplicate member
 * names (payee: PROFILE error; wallet: warning that a wallet should refuse it with 422
 * INVALID_STRUCTURE). `what` names the input in messages.
 *
 * @example
 * ```ts
 * parseJsonText('{"a":1,"a":2}', 'payee', 'stdin').findings[0]?.requirement; // 'PRF-1-JSON-UNIQUE-MEMBER-NAMES'
 * ```
 */
export function parseJsonText(
  text: string,
  mode: 'payee' | 'wallet' | undefined,
  what = 'the input',
): ParsedText {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let doc: unknown;
  try {
    doc = JSON.parse(body);
  } catch (err) {
    if (body.indexOf('\u0000') >= 0)
      return { findings: [notJsonFinding(`${what} is not json text (nul bytes)`)] };
    return { findings: [notJsonFinding(`${what} is not valid json (${parseMessage(err)})`)] };
  }
  return { doc, findings: textFindings(scanParsedText(text, doc), mode) };
}

/** `bytes` as a Buffer (the same memory). */
function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Decodes bytes as UTF-8 JSON text: NUL bytes make it "not json text (nul bytes)" (a file of
 * zeros is not a text at all), invalid UTF-8 "not utf-8 text". Returns the text or the finding.
 */
export function decodeJsonBytes(bytes: Uint8Array, what: string): { text: string } | { finding: Finding } {
  if (bytes.indexOf(0) >= 0) return { finding: notJsonFinding(`${what} is not json text (nul bytes)`) };
  // ASCII reads the same in latin1, which is quicker and gives V8 a one-byte string (quicker to
  // parse and scan too); other bytes are checked as UTF-8 at once (what a fatal TextDecoder
  // does, without its per-call cost) and then decoded, a byte order mark kept (it is reported)
  // Stryker disable next-line ConditionalExpression: equivalent: ASCII is valid UTF-8 and decodes to the same text either way (latin1 is only the quicker way)
  if (isAscii(bytes)) return { text: bufferOf(bytes).toString('latin1') };
  if (!isUtf8(bytes)) return { finding: notJsonFinding(`${what} is not utf-8 text`) };
  return { text: bufferOf(bytes).toString('utf8') };
}

/** Merges text findings before a validation result. */
function merge(pre: readonly Finding[], result: ValidationResult | null): ValidationResult {
  const findings = result ? [...pre, ...result.findings] : [...pre];
  return { valid: !findings.some((f) => f.severity === 'error'), findings };
}

/**
 * Validates a CPR given as JSON text: the text rules of profile section 1 (not JSON, byte order
 * mark, duplicate member names, in the reading of `opts.mode`) and then {@link validateCpr} on
 * the parsed document. Use it wherever the raw text is available: a parsed object has lost the
 * byte order mark and all but the last of repeated members.
 *
 * @param text - the JSON text (a leading U+FEFF is the byte order mark).
 * @param opts - as {@link validateCpr}.
 * @returns `{ valid, findings }`, text findings first.
 * @example
 * ```ts
 * const r = validateCprText('\uFEFF{"cpr_version":"CPR-1.0"}', { mode: 'payee' });
 * r.findings[0]?.requirement; // 'PRF-1-JSON-NO-BOM'
 * ```
 */
export function validateCprText(text: string, opts: ValidateCprOptions = {}): ValidationResult {
  const parsed = parseJsonText(text, opts.mode, 'the document');
  return merge(parsed.findings, 'doc' in parsed ? validateCpr(parsed.doc, opts) : null);
}

/**
 * {@link validateCprText} for bytes (an HTTP body, a file): UTF-8 decoding first (NUL bytes or
 * invalid UTF-8 are a PRF-1-JSON-UTF8 error).
 *
 * @example
 * ```ts
 * validateCprBytes(new Uint8Array(8)).findings[0]?.message; // 'the document is not json text (nul bytes)'
 * ```
 */
export function validateCprBytes(bytes: Uint8Array, opts: ValidateCprOptions = {}): ValidationResult {
  const decoded = decodeJsonBytes(bytes, 'the document');
  if ('finding' in decoded) return merge([decoded.finding], null);
  return validateCprText(decoded.text, opts);
}
