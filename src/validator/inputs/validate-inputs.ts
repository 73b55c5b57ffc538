/**
 * `validateInputs`: validates every document named by a list of command-line inputs (files,
 * folders, globs, `-`, `cpr://` URIs, PNGs with a QR code, NDJSON streams), streamed one
 * document at a time, with the cross-document rule (request_id uniqueness) over the whole set.
 * The CLI only parses flags and prints what this yields.
 *
 * @packageDocumentation
 */
import { availableParallelism } from 'node:os';
import type { Readable } from 'node:stream';
import { CprcError } from '../../errors.js';
import { parseJsonText } from '../json-text.js';
import type { ValidateCprOptions } from '../types.js';
import { listText } from '../util.js';
import { validateCpr } from '../validate-cpr.js';
import {
  checkLoaded,
  type FileContent,
  failed,
  fileContentOf,
  fromBytes,
  type InputResult,
  isNdjsonName,
  type Loaded,
  looksLikeNdjson,
  withUniqueId,
} from './documents.js';
import { expandInput, type Source } from './expand.js';
import { retrieveCpr } from './fetch.js';
import { DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT_MS, tooLarge } from './limits.js';
import { type PoolAnswer, ValidatePool, workerScript } from './pool.js';
import { idleTimeout, openPathStream, readPathCapped, readRegularFile, splitLines } from './read.js';

export type { InputResult } from './documents.js';

/** How many files are read ahead of the one being validated (overlaps I/O and checking). */
const READ_AHEAD = 16;

/**
 * Worker threads are started (automatic mode) for an input naming at least this many files:
 * below it, starting them costs more than they save (on 2 idle cores the bench's folders took, with
 * threads, 1.09x the one-thread time at 2,000 files, 0.95x at 5,000 and 0.81x at 20,000).
 */
export const PARALLEL_MIN_FILES = 5000;

/** Most worker threads started automatically. */
const MAX_THREADS = 4;

/** Files per batch sent to a worker thread. */
const BATCH_FILES = 64;

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
  /**
   * Worker threads checking the files of a large folder or glob (the results and their order
   * are the same either way). Absent: automatic, one a core (up to 4, none on one core) for an
   * input naming at least {@link PARALLEL_MIN_FILES} files; 0: never; n: n threads for any input
   * naming two files or more. Only where the worker's compiled script is at hand (not when this
   * module runs from its TypeScript source).
   */
  threads?: number;
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

/** Validates a loaded document and applies the cross-document rule. */
function check(loaded: Loaded, run: Run): InputResult {
  return withUniqueId(checkLoaded(loaded, run.opts), run.seen);
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

/** A whole file's bytes holding `content`: a PNG (QR), a `cpr://` URI in a text file, or JSON text. */
async function fromFileBytes(
  bytes: Buffer,
  content: Exclude<FileContent, 'ndjson'>,
  input: string,
  run: Run,
): Promise<Loaded> {
  if (content === 'png') {
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
  if (content === 'uri') return loadUri(bytes.toString('utf8').trim(), input, input, run);
  return fromBytes(bytes, input, input, run.opts.mode);
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
  const content = fileContentOf(path, bytes);
  if (content === 'ndjson') {
    yield* ndjsonDocs([], path, run, bytes);
    return;
  }
  try {
    yield check(await fromFileBytes(bytes, content, path, run), run);
  } catch (err) {
    yield failed(path, err);
  }
}

/** A read started ahead of time; errors are kept, not thrown, until the read is used. */
type Pending = { source: Source; read?: Promise<{ bytes: Buffer } | { error: unknown }> };

/** One source of an input's expansion, or the error that ended the expansion (named as the input). */
type Entry = { source: Source } | { source: Source; error: unknown };

/** The sources one input names, as entries: an expansion that throws ends with its error. */
async function* entriesOf(input: string): AsyncGenerator<Entry> {
  const sources = expandInput(input);
  for (;;) {
    let r: IteratorResult<Source>;
    try {
      r = await sources.next();
    } catch (error) {
      // Stryker disable next-line StringLiteral: an entry with a read is routed by its read, whatever its kind
      yield { source: { kind: 'path', path: input }, error };
      return;
    }
    if (r.done) return;
    yield { source: r.value };
  }
}

/** `head`, then what `rest` yields. */
async function* prepend<T>(head: readonly T[], rest: AsyncIterator<T>): AsyncGenerator<T> {
  yield* head;
  for (;;) {
    const r = await rest.next();
    if (r.done) return;
    yield r.value;
  }
}

/**
 * The file of an entry that is read whole (a path not NDJSON by name: those are streamed), else
 * undefined. Only such files go to the worker threads.
 */
function wholeFile(entry: Entry): { path: string; listedAsFile: boolean } | undefined {
  const s = entry.source;
  if ('error' in entry || s.kind !== 'path' || isNdjsonName(s.path)) return undefined;
  return { path: s.path, listedAsFile: s.listedAsFile === true };
}

/** Starts reading the entry's file, when it is a path read whole (not NDJSON by name). */
function startRead(entry: Entry, run: Run): Pending {
  const p: Pending = { source: entry.source };
  if ('error' in entry) {
    p.read = Promise.resolve({ error: entry.error });
    return p;
  }
  const file = wholeFile(entry);
  if (file !== undefined) {
    const { path } = file;
    // a regular file is read at once (the common case: a folder of documents); anything else
    // (a FIFO, a device) is streamed under the cap, ahead of its turn
    let bytes: Buffer | undefined;
    try {
      bytes = readRegularFile(path, run.maxBytes, file.listedAsFile);
    } catch (error) {
      p.read = Promise.resolve({ error });
      return p;
    }
    p.read =
      bytes !== undefined
        ? Promise.resolve({ bytes })
        : readPathCapped(path, run.maxBytes, run.timeoutMs).then(
            (b) => ({ bytes: b }),
            (error: unknown) => ({ error }),
          );
  }
  return p;
}

/** The documents of one source whose read (if any) was started. */
async function* pendingDocs(p: Pending, run: Run, stdin: Readable): AsyncGenerator<InputResult> {
  const s = p.source;
  if (s.kind === 'stdin') {
    yield* stdinDocs(run, stdin);
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
}

/** The documents of the entries, on this thread, reading up to {@link READ_AHEAD} files ahead. */
async function* serialDocs(
  entries: AsyncIterator<Entry>,
  run: Run,
  stdin: Readable,
): AsyncGenerator<InputResult> {
  const queue: Pending[] = [];
  let ended = false;
  const fill = async (): Promise<void> => {
    // Stryker disable next-line EqualityOperator: the read-ahead depth (16 or 17) is internal: it changes no result
    while (!ended && queue.length < READ_AHEAD) {
      const r = await entries.next();
      if (r.done) ended = true;
      else queue.push(startRead(r.value, run));
    }
  };
  await fill();
  while (queue.length > 0) {
    yield* pendingDocs(queue.shift() as Pending, run, stdin);
    await fill();
  }
}

/** A batch of entries and, for the plain files among them, the worker's answers. */
interface Batch {
  entries: Entry[];
  /** Index in `files` of each entry sent to the pool (-1: handled on this thread). */
  slots: number[];
  answers: Promise<PoolAnswer[] | null>;
}

/**
 * The documents of the entries, the files checked by the pool's workers, batch by batch, in
 * entry order. What a worker is not sent (stdin, a URI, an NDJSON name, an expansion error) or
 * hands back (a FIFO, a PNG, a URI or NDJSON in a file, a file it could not check) is handled on
 * this thread in its turn, as by {@link serialDocs}. The cross-document rule is applied here, in
 * order.
 */
async function* parallelDocs(
  entries: AsyncIterator<Entry>,
  run: Run,
  pool: ValidatePool,
  inFlight: number,
  stdin: Readable,
): AsyncGenerator<InputResult> {
  const batches: Batch[] = [];
  let ended = false;
  const fill = async (): Promise<void> => {
    while (!ended && batches.length < inFlight) {
      const batch: Batch = { entries: [], slots: [], answers: Promise.resolve(null) };
      const files: { path: string; listedAsFile: boolean }[] = [];
      while (batch.entries.length < BATCH_FILES) {
        const r = await entries.next();
        if (r.done) {
          ended = true;
          break;
        }
        const e = r.value;
        batch.entries.push(e);
        const file = wholeFile(e);
        batch.slots.push(file === undefined ? -1 : files.length);
        if (file !== undefined) files.push(file);
      }
      if (batch.entries.length === 0) return;
      if (files.length > 0) batch.answers = pool.check(files);
      batches.push(batch);
    }
  };
  await fill();
  while (batches.length > 0) {
    const batch = batches.shift() as Batch;
    const answers = await batch.answers;
    await fill(); // keeps the workers busy while this batch is reported
    for (let i = 0; i < batch.entries.length; i++) {
      const slot = batch.slots[i] as number;
      const answer = slot >= 0 && answers ? answers[slot] : undefined;
      if (answer !== undefined && answer !== 'defer') yield withUniqueId(answer, run.seen);
      else yield* pendingDocs(startRead(batch.entries[i] as Entry, run), run, stdin);
    }
  }
}

/** How many worker threads a run uses and for inputs of how many files; none: none. */
function threadPlan(threads: number | undefined): { threads: number; minFiles: number } | undefined {
  if (threads === 0) return undefined;
  if (threads !== undefined) return { threads, minFiles: 2 };
  const cores = Math.min(availableParallelism(), MAX_THREADS);
  return cores < 2 ? undefined : { threads: cores, minFiles: PARALLEL_MIN_FILES };
}

/**
 * Validates every document the inputs name, one at a time, in input order (a folder in name
 * order, a glob in name order, an NDJSON stream line by line). Memory stays flat in the number of
 * documents: only the request_ids seen are kept, for the cross-document rule (spec 2.1: a
 * request_id is globally unique, so a repeat within one run is an error on the later document).
 * An input that cannot be read (missing, above the `max-bytes` limit, a failed retrieval) yields
 * a result with `error` set, and the run goes on. A folder or glob of many files is checked by
 * worker threads (`threads`), with the same results in the same order.
 *
 * @param inputs - paths, folders, globs, `-`, `cpr://` URIs.
 * @param opts - the reading (`mode`, `now`, `maxValiditySeconds`), the input limits and `threads`.
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
  const { maxBytes, timeoutMs, ca, stdin, threads, ...cprOpts } = opts;
  validateCpr({}, cprOpts); // options are checked once, before any input is read (throws CPRC_USAGE)
  if (threads !== undefined && (!Number.isInteger(threads) || threads < 0)) {
    throw new CprcError('CPRC_USAGE', 'validateInputs: threads must be a whole number, 0 or more');
  }
  const run: Run = {
    opts: cprOpts, // an absent mode is the wallet's reading, in every rule and in the text rules
    maxBytes: maxBytes ?? DEFAULT_MAX_BYTES,
    timeoutMs: timeoutMs ?? DEFAULT_TIMEOUT_MS,
    ca,
    seen: new Set(),
  };
  const input$ = stdin ?? process.stdin;
  const plan = threadPlan(threads);
  const script = plan ? workerScript() : undefined;
  let pool: ValidatePool | undefined;
  try {
    for (const input of inputs) {
      const entries = entriesOf(input);
      if (plan && script) {
        // the first files decide: a pool only for an input naming enough of them
        const head: Entry[] = [];
        let ended = false;
        while (head.length < plan.minFiles) {
          const r = await entries.next();
          if (r.done) {
            ended = true;
            break;
          }
          head.push(r.value);
        }
        if (!ended) {
          pool ??= new ValidatePool(plan.threads, { opts: cprOpts, maxBytes: run.maxBytes }, script);
          yield* parallelDocs(prepend(head, entries), run, pool, plan.threads * 2, input$);
          continue;
        }
        yield* serialDocs(prepend(head, entries), run, input$);
        continue;
      }
      yield* serialDocs(entries, run, input$);
    }
  } finally {
    await pool?.close();
  }
}
