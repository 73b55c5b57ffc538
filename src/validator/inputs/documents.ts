/**
 * One document of `cprc validate`, from bytes to result: the pieces {@link validateInputs} and
 * its worker threads (`worker.ts`) share, so a document checked on either side gives the same
 * result. The cross-document rule (request_id uniqueness) is applied by `validateInputs` alone,
 * in input order ({@link withUniqueId}).
 *
 * @packageDocumentation
 */
import { extname } from 'node:path';
import { isCprcError } from '../../errors.js';
import { type Finding, finding } from '../../model/finding.js';
import { decodeJsonBytes, parseJsonText } from '../json-text.js';
import type { ValidateCprOptions, ValidationMode } from '../types.js';
import { validateCpr } from '../validate-cpr.js';

/** Requirement of a request_id repeated across documents (spec 2.1, invariant 3). */
const REQ_UNIQUE = 'CPR-2.1-REQUEST-ID-UNIQUE';

/** The outcome for one document (or one input that could not be read). */
export interface InputResult {
  /** The input as named: a path, `path:line` for NDJSON, `-` (stdin), a URI. */
  input: string;
  /** True when no finding is an error and the input could be read. */
  valid: boolean;
  /** Findings of delivery (JSON text, URI, QR), of the document and of the cross-document rule. */
  findings: Finding[];
  /** Human description of where the document came from (`x (retrieved from URL)`). */
  source: string;
  /** Set when the input could not be read (an I/O error, exit 2): one line saying why. */
  error?: string;
}

/** A document ready to validate: parsed text findings or a parsed object. */
export interface Loaded {
  input: string;
  source: string;
  doc?: unknown;
  findings: Finding[];
}

/** A document's result before the cross-document rule, with the request_id that rule reads. */
export interface Checked {
  /** The result, its findings those of the document alone. */
  result: InputResult;
  /** The document's request_id when it is a string (the only kind the rule compares). */
  requestId?: string;
}

/** Names ending so are read as NDJSON, one document per line. */
export function isNdjsonName(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return ext === '.ndjson' || ext === '.jsonl';
}

/** The first bytes of a PNG file. */
const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

/** Parses bytes as one JSON document (text rules of the reading `mode` included). */
export function fromBytes(
  bytes: Uint8Array,
  input: string,
  source: string,
  mode: ValidationMode | undefined,
): Loaded {
  const decoded = decodeJsonBytes(bytes, source);
  if ('finding' in decoded) return { input, source, findings: [decoded.finding] };
  return { input, source, ...parseJsonText(decoded.text, mode, source) };
}

/** Validates a loaded document (its text findings first), without the cross-document rule. */
export function checkLoaded(loaded: Loaded, opts: ValidateCprOptions): Checked {
  const findings = [...loaded.findings];
  let requestId: string | undefined;
  if (loaded.doc !== undefined) {
    findings.push(...validateCpr(loaded.doc, opts).findings);
    // only an object has a request_id (JSON gives an array or a scalar no named member)
    const id = (loaded.doc as { request_id?: unknown } | null)?.request_id;
    if (typeof id === 'string') requestId = id;
  }
  const result: InputResult = {
    input: loaded.input,
    source: loaded.source,
    valid: !findings.some((f) => f.severity === 'error'),
    findings,
  };
  return { result, requestId };
}

/**
 * Applies the cross-document rule to a checked document, in input order: a request_id already in
 * `seen` adds an error finding (and makes the result invalid); a new one is added to `seen`.
 */
export function withUniqueId(checked: Checked, seen: Set<string>): InputResult {
  const { result, requestId: id } = checked;
  if (id === undefined) return result;
  if (!seen.has(id)) {
    seen.add(id);
    return result;
  }
  result.findings.push(
    finding(
      REQ_UNIQUE,
      '/request_id',
      `request_id ${id} was already used by an earlier document of this run; every request needs its own`,
    ),
  );
  result.valid = false;
  return result;
}

/** The result of an input that could not be read. */
export function failed(input: string, err: unknown): InputResult {
  // Stryker disable next-line ConditionalExpression: equivalent for every input: each failure of reading one is a CprcError (read.ts, fetch.ts and the codecs wrap theirs); another error is a defect of the validator, rethrown so that it is not passed off as the input's fault
  if (!isCprcError(err)) throw err;
  return { input, source: input, valid: false, findings: [], error: err.message };
}

/**
 * True when `text` reads as NDJSON rather than one document: its first line alone is a JSON
 * value and something other than white space follows it. A pretty-printed document's first
 * line (`{`) is never a value on its own.
 */
export function looksLikeNdjson(head: Buffer): boolean {
  const nl = head.indexOf(0x0a);
  if (nl === -1 || !/\S/.test(head.subarray(nl + 1).toString('latin1'))) return false;
  try {
    // a blank first line is no value: it throws; trim() also drops a byte order mark
    JSON.parse(head.subarray(0, nl).toString('utf8').trim());
  } catch {
    return false;
  }
  return true;
}

/** What a whole file holds, as `cprc validate` reads it. */
export type FileContent = 'ndjson' | 'png' | 'uri' | 'json';

/**
 * What the bytes of the file at `path` hold: NDJSON (a name not ending in `.json` whose bytes
 * read as NDJSON), a PNG (a QR code), a `cpr://` URI in a text file, or else one JSON document.
 * The one decision of the main thread and of the worker threads, which check only `json`.
 */
export function fileContentOf(path: string, bytes: Buffer): FileContent {
  if (!path.toLowerCase().endsWith('.json') && looksLikeNdjson(bytes)) return 'ndjson';
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) return 'png';
  if (bytes.subarray(0, 6).toString('latin1') === 'cpr://') return 'uri';
  return 'json';
}
