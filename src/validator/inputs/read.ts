/**
 * Capped reading of files, devices, FIFOs and stdin, and a capped NDJSON line splitter. Every
 * read stops at the `max-bytes` limit ({@link DEFAULT_MAX_BYTES}) with a one-line error.
 *
 * @packageDocumentation
 */
import {
  close as closeFd,
  closeSync,
  constants,
  fstatSync,
  open as openFd,
  openSync,
  read as readFd,
  readSync,
  type Stats,
  statSync,
} from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { CprcError } from '../../errors.js';
import { tooLarge } from './limits.js';

/** The I/O error for a path that cannot be read, naming what to give instead. */
export function cannotRead(path: string, err: unknown): CprcError {
  const code = (err as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EISDIR'
        ? 'it is a folder'
        : code === 'EACCES'
          ? 'permission denied'
          : (err as Error).message;
  return new CprcError(
    'CPRC_IO',
    `cannot read ${path}: ${why}; give a json file, a folder, a glob, a png with a cpr qr code, a cpr:// uri or - for stdin`,
  );
}

/**
 * Reads a stream to its end, refusing more than `max` bytes; gives up when no byte arrives for
 * `idleMs` (a FIFO nobody writes to, a stalled pipe).
 */
export async function readStreamCapped(
  stream: Readable,
  max: number,
  what: string,
  idleMs?: number,
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of idleTimeout(stream, idleMs, what)) {
    size += chunk.length;
    if (size > max) {
      stream.destroy();
      throw tooLarge(what, max);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** Yields the chunks of `stream` as Buffers, failing when none arrives for `idleMs`. */
export async function* idleTimeout(
  stream: Readable,
  idleMs: number | undefined,
  what: string,
): AsyncGenerator<Buffer> {
  const it = stream[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const next = it.next().catch((err: unknown) => {
        throw cannotRead(what, err); // a stream error: the input cannot be read
      });
      const r = idleMs
        ? await Promise.race([
            next,
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () =>
                  reject(
                    new CprcError(
                      'CPRC_TIMEOUT',
                      `no data from ${what} within ${idleMs} ms; check what feeds it or raise --timeout`,
                    ),
                  ),
                idleMs,
              );
            }),
          ]).finally(() => clearTimeout(timer))
        : await next;
      if (r.done) return;
      yield Buffer.from(r.value as Buffer | string); // a string chunk made bytes (a copy of a Buffer)
    }
  } finally {
    stream.destroy();
  }
}

/** The kind of a path, or the I/O error naming it. */
async function statPath(path: string): Promise<Stats> {
  try {
    return await stat(path);
  } catch (err) {
    throw cannotRead(path, err);
  }
}

// Stryker disable all: judged by the FIFO tests of test/validator/inputs-read.test.ts and test/cli/validate.test.ts, which cannot run under StrykerJS (its vitest worker threads make Node abort on a FIFO descriptor)
/**
 * A FIFO as a stream read by polling a raw, non-blocking descriptor. Opening a FIFO nobody writes
 * to must not hang, and a read end opened before its writer reads 0 bytes (end of file) until a
 * writer comes: so a read of 0 bytes is the end only after some data came, and before that (no
 * writer yet, or one gone without writing) the stream waits, as for `EAGAIN` (a writer with
 * nothing written yet), until the caller's idle timeout. (A socket over the descriptor ended at
 * that first 0, or waited for ever when the writer came between the open and the first poll.)
 */
async function openFifo(path: string): Promise<Readable> {
  const fd = await new Promise<number>((resolve, reject) =>
    openFd(path, constants.O_RDONLY | constants.O_NONBLOCK, (err, d) =>
      err ? reject(cannotRead(path, err)) : resolve(d),
    ),
  );
  const buffer = Buffer.alloc(64 * 1024);
  let seen = false;
  let closed = false;
  let delayMs = 1;
  let timer: NodeJS.Timeout | undefined;
  const later = (): void => {
    timer = setTimeout(pump, delayMs);
    delayMs = Math.min(delayMs * 2, 50);
  };
  const pump = (): void => {
    if (closed) return;
    readFd(fd, buffer, 0, buffer.length, null, (err, n) => {
      if (closed) return;
      if (err) {
        if (err.code === 'EAGAIN' || err.code === 'EWOULDBLOCK') later();
        else stream.destroy(cannotRead(path, err));
        return;
      }
      if (n === 0) {
        if (seen) stream.push(null);
        else later();
        return;
      }
      seen = true;
      delayMs = 1;
      stream.push(Buffer.from(buffer.subarray(0, n)));
    });
  };
  const stream = new Readable({
    read: pump,
    destroy(err, callback) {
      closed = true;
      clearTimeout(timer);
      closeFd(fd, () => callback(err));
    },
  });
  return stream;
}
// Stryker restore all

/**
 * Opens a path as a stream, whatever kind of file it is: a FIFO through {@link openFifo}, a
 * regular file or a device through a file handle (closed at the stream's end or destroy). A
 * folder is an error here (the caller expands folders).
 */
export async function openPathStream(path: string): Promise<Readable> {
  const stats = await statPath(path);
  if (stats.isDirectory()) throw cannotRead(path, { code: 'EISDIR' });
  // Stryker disable next-line ConditionalExpression: judged by the FIFO test, which cannot run under StrykerJS (see openFifo); made false, that test waits for ever on the FIFO
  if (stats.isFIFO()) return openFifo(path);
  try {
    const fh = await open(path, 'r');
    return fh.createReadStream();
  } catch (err) {
    throw cannotRead(path, err); // a socket, or a path gone since its stat
  }
}

/** True for a regular file; false for another kind (a FIFO, a device); a folder is refused. */
function isRegular(path: string, stats: Stats): boolean {
  if (stats.isDirectory()) throw cannotRead(path, { code: 'EISDIR' });
  return stats.isFile();
}

/**
 * Reads a regular file whole, synchronously, under the `max-bytes` cap: one stat of the path, one
 * open, one stat of the open file and one read of one byte more than its size (a file that grew
 * meanwhile is read on to its end, and refused past `max`). A folder of small documents is read
 * so without a stream, a timer or a trip through the thread pool per file.
 * Returns `undefined` for a path that is no regular file (a FIFO, a device: the caller streams it
 * with {@link readPathCapped}, which never blocks on a FIFO nobody writes to).
 *
 * `listedAsFile`: the caller has just seen the path listed as a regular file (a folder entry of
 * that type, not a symbolic link), so the stat of the path is skipped and the open file's stat
 * says what it is: a path swapped since its listing for a folder is refused as a folder, for
 * anything else (a FIFO, a device) is left to the streamed reader, as without the listing (the
 * same race as between a stat and an open, over a longer window).
 */
export function readRegularFile(path: string, max: number, listedAsFile = false): Buffer | undefined {
  let fd: number;
  try {
    // A FIFO is never opened here, not even for a look: a writer that came while this descriptor
    // was open would be cut off (SIGPIPE) when it closed, and the stream opened next would wait
    // for a writer that is gone. The stat opens nothing. (A path swapped for another kind between
    // the stat and the open fails its read below, named by cannotRead: non-blocking, a FIFO is
    // not waited for.)
    if (!listedAsFile && !isRegular(path, statSync(path))) return undefined;
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if (err instanceof CprcError) throw err;
    throw cannotRead(path, err);
  }
  try {
    const stats = fstatSync(fd);
    // swapped since the listing (see above): what the path is now decides
    if (listedAsFile && !isRegular(path, stats)) return undefined;
    if (stats.size > max) throw tooLarge(path, max);
    // one byte more than the file holds: a short read is its end; a full one, a file that grew
    let buf = Buffer.allocUnsafe(stats.size + 1);
    let size = 0;
    for (;;) {
      const n = readSync(fd, buf, size, buf.length - size, null);
      if (n === 0) break;
      size += n;
      if (size > max) throw tooLarge(path, max);
      // a read of a regular file short of what was asked ends at its end
      if (size < buf.length) break;
      const bigger = Buffer.allocUnsafe(Math.min(max + 1, buf.length * 2));
      buf.copy(bigger, 0, 0, size);
      buf = bigger;
    }
    return buf.subarray(0, size);
  } catch (err) {
    if (err instanceof CprcError) throw err;
    throw cannotRead(path, err);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads a whole file, FIFO or device with the `max-bytes` cap: streamed and cut one chunk past
 * `max` (so a 600 MB file, `/dev/zero` and an endless FIFO end at once), or ended after `idleMs`
 * without data. A folder is an error here (the caller expands folders).
 */
export async function readPathCapped(path: string, max: number, idleMs: number): Promise<Buffer> {
  return readStreamCapped(await openPathStream(path), max, path, idleMs);
}

/** One line of an NDJSON input (without its line break; a trailing CR removed). */
export interface Line {
  /** 1-based line number. */
  number: number;
  /** The line's bytes. */
  bytes: Buffer;
}

/**
 * Splits a byte stream into lines, holding at most one line in memory: a line longer than
 * `max` bytes (a 600 MB input without a line break) ends the read with the `max-bytes` error at
 * once. `head` is data already read from the stream's start.
 */
export async function* splitLines(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  max: number,
  what: string,
  head?: Buffer,
): AsyncGenerator<Line> {
  let pending: Buffer[] = [];
  let pendingSize = 0;
  let number = 0;
  const emit = (last: Buffer): Line => {
    const bytes = Buffer.concat([...pending, last], pendingSize + last.length);
    pending = [];
    pendingSize = 0;
    number++;
    const end = bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length; // bytes[-1] is undefined
    return { number, bytes: bytes.subarray(0, end) };
  };
  async function* all(): AsyncGenerator<Buffer> {
    if (head) yield head;
    yield* chunks;
  }
  for await (const chunk of all()) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      const part = chunk.subarray(start, nl);
      if (pendingSize + part.length > max) throw tooLarge(`line ${number + 1} of ${what}`, max);
      yield emit(part);
      start = nl + 1;
    }
    const rest = chunk.subarray(start); // empty when the chunk ended with a line break
    pendingSize += rest.length;
    if (pendingSize > max) throw tooLarge(`line ${number + 1} of ${what}`, max);
    pending.push(rest);
  }
  if (pendingSize > 0) yield emit(Buffer.alloc(0));
}
