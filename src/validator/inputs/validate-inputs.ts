/**
 * `validateInputs`: validates every document named by a list of command-line inputs (files,
 * folders, globs, `-`, `cpr://` URIs, PNGs with a QR code, NDJSON streams), streamed one
 * document at a time, with the cross-document rule (request_id uniqueness) over the whole set.
 * The CLI only parses flags and prints what this yields.
 *
 * @packageDocumentation
 */
import { extname } from 'node:path';
import type { Readable } from 'node:stream';
import { isCprcError } from '../../errors.js';
import { type Finding, finding } from '../../model/finding.js';
import { decodeJsonBytes, parseJsonText } from '../json-text.js';
import type { ValidateCprOptions, ValidationMode } from '../types.js';
import { listText } from '../util.js';
import { validateCpr } from '../validate-cpr.js';
import { expandInput, type Source } from './expand.js';
import { retrieveCpr } from './fetch.js';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, tooLarge } from './limits.js';
import { idleTimeout, openPathStream, readPathCapped, readRegularFile, splitLines } from './read.js';

/** Requirement of a request_id repeated across documents (spec 2.1, invariant 3). */
const REQ_UNIQUE = 'CPR-2.1-REQUEST-ID-UNIQUE';

/** How many files are read ahead of the one being validated (overlaps I/O and checking). */
const READ_AHEAD = 16;

/** Options of {@link validateInputs}. */
export interface ValidateInputsOptions extends ValidateCprOptions {
  /** The `max-bytes` limit of every single input (file, stdin, NDJSON line, fetched body). */
  maxBytes?: number;
  /** Total time of a retrieval, and of a stalled FIFO or device, in ms. */
  timeoutMs?: number;
  /** PEM file of a CA trusted when retrieving a reference URI. */
  ca?: string;
  /** Where stdin comes from (default `process.stdin`; tests give their own). */
  stdin?: Readable;
}

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

/** Names ending so are read as NDJSON, one document per line. */
function isNdjsonName(path: string): boolean {
  const ext = extname(path).toLowerCase();
  return ext === '.ndjson' || ext === '.jsonl';
}

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a', 'hex');

/** A document ready to validate: parsed text findings or a parsed object. */
interface Loaded {
  input: string;
  source: string;
  doc?: unknown;
  findings: Finding[];
}

/** The state shared by one run of {@link validateInputs}. */
interface Run {
  opts: ValidateCprOptions;
  maxBytes: number;
  timeoutMs: number;
  ca: string | undefined;
  /** request_ids seen so far (the only memory that grows with the number of documents). */
  seen: Set<string>;
}

/** Parses bytes as one JSON document (text rules of the run's reading included). */
function fromBytes(
  bytes: Uint8Array,
  input: string,
  source: string,
  mode: ValidationMode | undefined,
): Loaded {
  const decoded = decodeJsonBytes(bytes, source);
  if ('finding' in decoded) return { input, source, findings: [decoded.finding] };
  return { input, source, ...parseJsonText(decoded.text, mode, source) };
}

/** Validates a loaded document and applies the cross-document rule. */
function check(loaded: Loaded, run: Run): InputResult {
  const findings = [...loaded.findings];
  if (loaded.doc !== undefined) {
    findings.push(...validateCpr(loaded.doc, run.opts).findings);
    // only an object has a request_id (JSON gives an array or a scalar no named member)
    const id = (loaded.doc as { request_id?: unknown } | null)?.request_id;
    if (typeof id === 'string') {
      if (run.seen.has(id)) {
        findings.push(
          finding(
            REQ_UNIQUE,
            '/request_id',
            `request_id ${id} was already used by an earlier document of this run; every request needs its own`,
          ),
        );
      } else run.seen.add(id);
    }
  }
  return {
    input: loaded.input,
    source: loaded.source,
    valid: !findings.some((f) => f.severity === 'error'),
    findings,
  };
}

/** The result of an input that could not be read. */
function failed(input: string, err: unknown): InputResult {
  // Stryker disable next-line ConditionalExpression: equivalent for every input: each failure of reading one is a CprcError (read.ts, fetch.ts and the codecs wrap theirs); another error is a defect of the validator, rethrown so that it is not passed off as the input's fault
  if (!isCprcError(err)) throw err;
  return { input, source: input, valid: false, findings: [], error: err.message };
}

/** Turns a `cpr://` URI into a document (inline: decoded; reference: retrieved). */
async function loadUri(uri: string, input: string, source: string, run: Run): Promise<Loaded> {
  const { decodeCprUri } = await import('../../codec/uri.js');
  const decoded = decodeCprUri(uri);
  if (!decoded.ok) return { input, source, findings: decoded.findings };
  const findings = [...decoded.findings];
  if (decoded.value.kind === 'inline') {
    // the codec has parsed this json: only its text rules can give findings, never a parse error naming it
    const parsed = parseJsonText(decoded.value.json, run.opts.mode);
    return {
      input,
      source: `${source} (inline uri)`,
      doc: decoded.value.document,
      findings: [...findings, ...parsed.findings],
    };
  }
  const url = decoded.value.retrievalUrl;
  const body = await retrieveCpr(url, { timeoutMs: run.timeoutMs, maxBytes: run.maxBytes, ca: run.ca });
  const loaded = fromBytes(body, input, `the response of ${url}`, run.opts.mode);
  return {
    ...loaded,
    source: `${source} (retrieved from ${url})`,
    findings: [...findings, ...loaded.findings],
  };
}

/** A whole file's bytes: a PNG (QR), a `cpr://` URI in a text file, or JSON text. */
async function fromFileBytes(bytes: Buffer, input: string, run: Run): Promise<Loaded> {
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) {
    const { readQrPng } = await import('../../codec/qr.js'); // pngjs and jsQR only for images
    const qr = readQrPng(bytes);
    if (!qr.ok) {
      const why = listText(qr.findings.map((f) => f.message));
      const { CprcError } = await import('../../errors.js');
      throw new CprcError(
        // Stryker disable next-line StringLiteral: unobservable: failed() keeps only the message of an input's error (the result names the input and says why), not its code
        'CPRC_INPUT_INVALID',
        `cannot read a qr code from ${input}: ${why}; give a sharp png holding one cpr qr code`,
      );
    }
    const loaded = await loadUri(qr.text.trim(), input, `qr code in ${input}`, run);
    return { ...loaded, findings: [...qr.findings, ...loaded.findings] };
  }
  if (bytes.subarray(0, 6).toString('latin1') === 'cpr://') {
    return loadUri(bytes.toString('utf8').trim(), input, input, run);
  }
  return fromBytes(bytes, input, input, run.opts.mode);
}

/**
 * True when `text` reads as NDJSON rather than one document: its first line alone is a JSON
 * value and something other than white space follows it. A pretty-printed document's first
 * line (`{`) is never a value on its own.
 */
function looksLikeNdjson(head: Buffer): boolean {
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

/** Documents of an NDJSON stream, one per non-empty line, named `name:line`. */
async function* ndjsonDocs(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  name: string,
  run: Run,
  head?: Buffer,
): AsyncGenerator<InputResult> {
  let line = 0;
  try {
    for await (const l of splitLines(chunks, run.maxBytes, name, head)) {
      line = l.number;
      let blank = true;
      for (const b of l.bytes) {
        if (b !== 0x20 && b !== 0x09 && b !== 0x0d) {
          blank = false;
          break;
        }
      }
      if (blank) continue;
      yield check(
        fromBytes(l.bytes, `${name}:${l.number}`, `line ${l.number} of ${name}`, run.opts.mode),
        run,
      );
    }
  } catch (err) {
    yield failed(`${name}:${line + 1}`, err);
  }
}

/** Pulls chunks from stdin until the first line and what follows it decide single vs NDJSON. */
async function* stdinDocs(run: Run, stdin: Readable): AsyncGenerator<InputResult> {
  const it = idleTimeout(stdin, undefined, 'stdin');
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for (;;) {
      const head = Buffer.concat(chunks, size);
      const nl = head.indexOf(0x0a);
      if (nl !== -1 && /\S/.test(head.subarray(nl + 1).toString('latin1'))) break;
      if (size > run.maxBytes) break;
      const r = await it.next();
      if (r.done) break;
      chunks.push(r.value);
      size += r.value.length;
    }
  } catch (err) {
    yield failed('-', err);
    return;
  }
  const head = Buffer.concat(chunks, size);
  if (looksLikeNdjson(head)) {
    // the lines after the head: the rest of the stream (nothing when it has ended)
    yield* ndjsonDocs({ [Symbol.asyncIterator]: () => it }, '-', run, head);
    return;
  }
  // one document: read the rest under the cap (a stream that has ended is done again at once)
  try {
    let total = size;
    for (;;) {
      if (total > run.maxBytes) {
        await it.return(undefined); // stops reading (and destroys) stdin
        throw tooLarge('stdin', run.maxBytes);
      }
      const r = await it.next();
      if (r.done) break;
      chunks.push(r.value);
      total += r.value.length;
    }
    yield check(fromBytes(Buffer.concat(chunks, total), '-', 'stdin', run.opts.mode), run);
  } catch (err) {
    yield failed('-', err);
  }
}

/** Documents of one path that is not read ahead (NDJSON by name). */
async function* pathStreamDocs(path: string, run: Run): AsyncGenerator<InputResult> {
  let stream: Readable;
  try {
    stream = await openPathStream(path);
  } catch (err) {
    yield failed(path, err);
    return;
  }
  yield* ndjsonDocs(idleTimeout(stream, run.timeoutMs, path), path, run);
}

/** Documents of one path whose bytes were read. */
async function* bytesDocs(path: string, bytes: Buffer, run: Run): AsyncGenerator<InputResult> {
  if (!path.toLowerCase().endsWith('.json') && looksLikeNdjson(bytes)) {
    yield* ndjsonDocs([], path, run, bytes);
    return;
  }
  try {
    yield check(await fromFileBytes(bytes, path, run), run);
  } catch (err) {
    yield failed(path, err);
  }
}

/** A read started ahead of time; errors are kept, not thrown, until the read is used. */
type Pending = { source: Source; read?: Promise<{ bytes: Buffer } | { error: unknown }> };

/**
 * Validates every document the inputs name, one at a time, in input order (a folder in name
 * order, a glob in name order, an NDJSON stream line by line). Memory stays flat in the number of
 * documents: only the request_ids seen are kept, for the cross-document rule (spec 2.1: a
 * request_id is globally unique, so a repeat within one run is an error on the later document).
 * An input that cannot be read (missing, above the `max-bytes` limit, a failed retrieval) yields
 * a result with `error` set, and the run goes on.
 *
 * @param inputs - paths, folders, globs, `-`, `cpr://` URIs.
 * @param opts - the reading (`mode`, `now`, `maxValiditySeconds`) and the input limits.
 * @example
 * ```ts
 * for await (const r of validateInputs(['requests/'], { mode: 'payee' })) {
 *   if (!r.valid) console.log(r.input, r.error ?? r.findings.map((f) => f.requirement));
 * }
 * ```
 */
export async function* validateInputs(
  inputs: readonly string[],
  opts: ValidateInputsOptions = {},
): AsyncGenerator<InputResult> {
  const { maxBytes, timeoutMs, ca, stdin, ...cprOpts } = opts;
  validateCpr({}, cprOpts); // options are checked once, before any input is read (throws CPRC_USAGE)
  const run: Run = {
    opts: cprOpts, // an absent mode is the wallet's reading, in every rule and in the text rules
    maxBytes: maxBytes ?? DEFAULT_MAX_BYTES,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ca,
    seen: new Set(),
  };
  const queue: Pending[] = [];
  const startRead = (p: Pending): void => {
    if (p.source.kind === 'path' && !isNdjsonName(p.source.path)) {
      const path = p.source.path;
      // a regular file is read at once (the common case: a folder of documents); anything else
      // (a FIFO, a device) is streamed under the cap, ahead of its turn
      let bytes: Buffer | undefined;
      try {
        bytes = readRegularFile(path, run.maxBytes, p.source.listedAsFile === true);
      } catch (error) {
        p.read = Promise.resolve({ error });
        return;
      }
      p.read =
        bytes !== undefined
          ? Promise.resolve({ bytes })
          : readPathCapped(path, run.maxBytes, run.timeoutMs).then(
              (b) => ({ bytes: b }),
              (error: unknown) => ({ error }),
            );
    }
  };
  for (const input of inputs) {
    const sources = expandInput(input);
    // an expansion that has ended (or thrown) is done again at once on the next call
    const fill = async (): Promise<void> => {
      // Stryker disable next-line EqualityOperator: the read-ahead depth (16 or 17) is internal: it changes no result
      while (queue.length < READ_AHEAD) {
        let r: IteratorResult<Source>;
        try {
          r = await sources.next();
        } catch (err) {
          // Stryker disable next-line StringLiteral: an entry with a read is routed by its read, whatever its kind
          queue.push({ source: { kind: 'path', path: input }, read: Promise.resolve({ error: err }) });
          return;
        }
        if (r.done) return;
        const p: Pending = { source: r.value };
        startRead(p);
        queue.push(p);
      }
    };
    await fill();
    while (queue.length > 0) {
      const p = queue.shift() as Pending;
      const s = p.source;
      if (s.kind === 'stdin') {
        yield* stdinDocs(run, stdin ?? process.stdin);
      } else if (s.kind === 'uri') {
        try {
          yield check(await loadUri(s.uri, s.uri, 'uri', run), run);
        } catch (err) {
          yield failed(s.uri, err);
        }
      } else if (p.read === undefined) {
        yield* pathStreamDocs(s.path, run);
      } else {
        const r = await p.read;
        if ('error' in r) yield failed(s.path, r.error);
        else yield* bytesDocs(s.path, r.bytes, run);
      }
      await fill();
    }
  }
}
