/**
 * Capped reading of `cprc validate`'s inputs (src/validator/inputs/read.ts): the errors that name
 * the path and what to give instead, the `max-bytes` bound exactly at and one past the limit, the
 * idle timeout of a stalled stream, and the NDJSON line splitter.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CprcError } from '../../src/errors.js';
import {
  cannotRead,
  idleTimeout,
  type Line,
  openPathStream,
  readPathCapped,
  readRegularFile,
  readStreamCapped,
  splitLines,
} from '../../src/validator/inputs/read.js';
import { testScratchDir } from '../_support/scratch.js';

/** The error a promise rejects with (fails when it resolves). */
async function rejection(p: Promise<unknown>): Promise<CprcError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(CprcError);
    return err as CprcError;
  }
  throw new Error('expected a rejection');
}

async function* chunksOf(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) yield Buffer.isBuffer(p) ? p : Buffer.from(p);
}

async function lines(
  parts: (string | Buffer)[],
  max = 1000,
  head?: Buffer,
): Promise<{ number: number; text: string }[]> {
  const out: { number: number; text: string }[] = [];
  for await (const l of splitLines(chunksOf(...parts), max, 'feed.ndjson', head))
    out.push({ number: l.number, text: l.bytes.toString('latin1') });
  return out;
}

describe('cannotRead: one line naming the path, why, and what to give instead', () => {
  const what = /give a json file, a folder, a glob, a png with a cpr qr code, a cpr:\/\/ uri or - for stdin/;

  it('words ENOENT, EISDIR and EACCES for people, and keeps any other error message', () => {
    const cases: [string | undefined, string][] = [
      ['ENOENT', 'no such file'],
      ['EISDIR', 'it is a folder'],
      ['EACCES', 'permission denied'],
      ['EMFILE', 'too many open files right now'],
      [undefined, 'too many open files right now'],
    ];
    for (const [code, why] of cases) {
      const err = cannotRead(
        '/data/x.json',
        Object.assign(new Error('too many open files right now'), { code }),
      );
      expect(err.code).toBe('CPRC_IO');
      expect(err.message).toContain('/data/x.json');
      expect(err.message).toContain(why);
      expect(err.message).toMatch(what);
      for (const other of ['no such file', 'it is a folder', 'permission denied'].filter((w) => w !== why))
        expect(err.message).not.toContain(other);
    }
  });
});

describe('readStreamCapped', () => {
  it('returns every byte of a stream of exactly max bytes, in order', async () => {
    const buf = await readStreamCapped(Readable.from([Buffer.from('abc'), Buffer.from('de')]), 5, 'stdin');
    expect(buf.toString()).toBe('abcde');
  });

  it('refuses one byte more than max, naming the input, the limit and the flag, and destroys the stream', async () => {
    const stream = Readable.from([Buffer.from('abc'), Buffer.from('def')]);
    const err = await rejection(readStreamCapped(stream, 5, 'the pipe'));
    expect(err.code).toBe('CPRC_RESPONSE_TOO_LARGE');
    expect(err.message).toContain('the pipe');
    expect(err.message).toContain('5 bytes');
    expect(err.message).toContain('--max-bytes');
    expect(stream.destroyed).toBe(true);
  });

  it('a stream error is an I/O error naming the input', async () => {
    const broken = new Readable({
      read() {
        this.destroy(Object.assign(new Error('input/output error'), { code: 'EIO' }));
      },
    });
    const err = await rejection(readStreamCapped(broken, 100, 'stdin'));
    expect(err.code).toBe('CPRC_IO');
    expect(err.message).toContain('cannot read stdin');
    expect(err.message).toContain('input/output error');
  });

  it('gives up on a stream that sends nothing for idleMs, naming it, the time and --timeout', async () => {
    const stream = new PassThrough();
    const t0 = Date.now();
    const err = await rejection(readStreamCapped(stream, 100, 'the fifo', 50));
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(err.code).toBe('CPRC_TIMEOUT');
    expect(err.message).toContain('the fifo');
    expect(err.message).toContain('50 ms');
    expect(err.message).toContain('--timeout');
    expect(stream.destroyed).toBe(true);
  });
});

describe('idleTimeout', () => {
  it('yields string chunks as Buffers and ends with the stream, destroying it', async () => {
    const stream = Readable.from(['ab', 'c'], { objectMode: true });
    const got: Buffer[] = [];
    for await (const c of idleTimeout(stream, 1000, 'x')) got.push(c);
    expect(got.every((c) => Buffer.isBuffer(c))).toBe(true);
    expect(Buffer.concat(got).toString()).toBe('abc');
    expect(stream.destroyed).toBe(true);
  });

  it('waits as long as needed without idleMs, and restarts the idle clock at every chunk', async () => {
    const slow = new PassThrough();
    setTimeout(() => slow.end('late'), 80);
    const got: Buffer[] = [];
    for await (const c of idleTimeout(slow, undefined, 'x')) got.push(c);
    expect(Buffer.concat(got).toString()).toBe('late');

    const steady = new PassThrough();
    let n = 0;
    const timer = setInterval(() => {
      n++;
      if (n < 4) steady.write('.');
      else {
        clearInterval(timer);
        steady.end();
      }
    }, 40);
    const seen: Buffer[] = [];
    for await (const c of idleTimeout(steady, 100, 'x')) seen.push(c);
    expect(Buffer.concat(seen).toString()).toBe('...');
  });

  it('leaves no idle timer behind once the stream has ended', async () => {
    const timers = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const buf = await readStreamCapped(Readable.from([Buffer.from('a'), Buffer.from('b')]), 10, 'x', 60_000);
    expect(buf.toString()).toBe('ab');
    expect(timers()).toBe(before);
  });

  it('destroys the stream when the reader stops early', async () => {
    const stream = Readable.from([Buffer.from('a'), Buffer.from('b')]);
    for await (const _ of idleTimeout(stream, 1000, 'x')) break;
    expect(stream.destroyed).toBe(true);
  });
});

describe('readPathCapped', () => {
  it('reads a regular file of exactly max bytes and refuses one of max + 1', async () => {
    const dir = testScratchDir('read');
    const at = join(dir, 'at.json');
    const over = join(dir, 'over.json');
    writeFileSync(at, '{"a":"12345"}'); // 13 bytes
    writeFileSync(over, '{"a":"123456"}'); // 14 bytes
    expect((await readPathCapped(at, 13, 1000)).toString()).toBe('{"a":"12345"}');
    const err = await rejection(readPathCapped(over, 13, 1000));
    expect(err.code).toBe('CPRC_RESPONSE_TOO_LARGE');
    expect(err.message).toContain(over);
    expect(err.message).toContain('13 bytes');
  });

  it('names a missing path and a folder as unreadable, with what to give', async () => {
    const dir = testScratchDir('read');
    const missing = await rejection(readPathCapped(join(dir, 'nope.json'), 100, 1000));
    expect(missing.code).toBe('CPRC_IO');
    expect(missing.message).toContain(join(dir, 'nope.json'));
    expect(missing.message).toContain('no such file');
    const folder = await rejection(readPathCapped(dir, 100, 1000));
    expect(folder.code).toBe('CPRC_IO');
    expect(folder.message).toContain(dir);
    expect(folder.message).toContain('it is a folder');
  });

  it('streams a device: /dev/null is empty, /dev/zero ends at the limit', async () => {
    expect((await readPathCapped('/dev/null', 10, 1000)).length).toBe(0);
    const err = await rejection(readPathCapped('/dev/zero', 64, 1000));
    expect(err.code).toBe('CPRC_RESPONSE_TOO_LARGE');
    expect(err.message).toContain('/dev/zero');
    expect(err.message).toContain('64 bytes');
  });
});

describe('readRegularFile (a folder of documents is read with it, file by file)', () => {
  /** The error `f` throws (fails when it returns). */
  function thrown(f: () => unknown): CprcError {
    try {
      f();
    } catch (err) {
      expect(err).toBeInstanceOf(CprcError);
      return err as CprcError;
    }
    throw new Error('expected an error');
  }

  it('reads a regular file of exactly max bytes whole, and refuses one of max + 1 (by its size, before reading)', () => {
    const dir = testScratchDir('read');
    const at = join(dir, 'at.json');
    const over = join(dir, 'over.json');
    writeFileSync(at, '{"a":"12345"}'); // 13 bytes
    writeFileSync(over, '{"a":"123456"}'); // 14 bytes
    expect(readRegularFile(at, 13)?.toString()).toBe('{"a":"12345"}');
    const err = thrown(() => readRegularFile(over, 13));
    expect(err.code).toBe('CPRC_RESPONSE_TOO_LARGE');
    expect(err.message).toContain(over);
    expect(err.message).toContain('13 bytes');
    const empty = join(dir, 'empty.json');
    writeFileSync(empty, '');
    expect(readRegularFile(empty, 13)?.length).toBe(0);
  });

  it('reads a file larger than its first buffer guess up to max (a file grown since its stat)', () => {
    const dir = testScratchDir('read');
    const big = join(dir, 'big.json');
    const text = `"${'x'.repeat(70_000)}"`;
    writeFileSync(big, text);
    expect(readRegularFile(big, 1_000_000)?.toString()).toBe(text);
    expect(readRegularFile(big, text.length)?.toString()).toBe(text);
    expect(thrown(() => readRegularFile(big, text.length - 1)).code).toBe('CPRC_RESPONSE_TOO_LARGE');
  });

  it('names a missing path and a folder as unreadable, with what to give', () => {
    const dir = testScratchDir('read');
    const missing = thrown(() => readRegularFile(join(dir, 'nope.json'), 100));
    expect(missing.code).toBe('CPRC_IO');
    expect(missing.message).toContain('no such file');
    const folder = thrown(() => readRegularFile(dir, 100));
    expect(folder.code).toBe('CPRC_IO');
    expect(folder.message).toContain('it is a folder');
  });

  it('listed as a regular file, skips the path stat and still tells what the open path is now', () => {
    const dir = testScratchDir('read');
    const at = join(dir, 'at.json');
    writeFileSync(at, '{"a":1}');
    expect(readRegularFile(at, 100, true)?.toString()).toBe('{"a":1}');
    expect(thrown(() => readRegularFile(join(dir, 'at.json'), 3, true)).code).toBe('CPRC_RESPONSE_TOO_LARGE');
    // swapped since the listing: gone, a folder, a device
    const missing = thrown(() => readRegularFile(join(dir, 'gone.json'), 100, true));
    expect(missing.code).toBe('CPRC_IO');
    expect(missing.message).toContain('no such file');
    const folder = thrown(() => readRegularFile(dir, 100, true));
    expect(folder.code).toBe('CPRC_IO');
    expect(folder.message).toContain('it is a folder');
    expect(readRegularFile('/dev/zero', 64, true)).toBeUndefined();
  });

  it('leaves a device and a FIFO to the streamed reader (undefined), never blocking on them', () => {
    expect(readRegularFile('/dev/zero', 64)).toBeUndefined();
    const dir = testScratchDir('read');
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    expect(readRegularFile(fifo, 64)).toBeUndefined();
  });
});

describe('FIFOs', () => {
  // Not under StrykerJS: its vitest runner runs the tests in worker threads, where Node tracks the
  // descriptors a socket adopts ("unmanaged" fds) and aborts the process when a closed FIFO's
  // descriptor number comes back for the next FIFO. `cprc` itself reads on its main thread.
  it.skipIf(process.env.STRYKER_MUTATOR_WORKER !== undefined)(
    'reads what a writer sends, and ends a FIFO nobody writes to at idleMs',
    async () => {
      const dir = testScratchDir('read');
      const fifo = join(dir, 'pipe');
      execFileSync('mkfifo', [fifo]);
      const t0 = Date.now();
      const idle = await rejection(readPathCapped(fifo, 100, 150));
      expect(idle.code).toBe('CPRC_TIMEOUT');
      expect(idle.message).toContain(fifo);
      expect(Date.now() - t0).toBeLessThan(3000);

      const reading = readPathCapped(fifo, 100, 5000);
      const writer = await open(fifo, 'w');
      await writer.write('{"a":1}');
      await writer.close();
      expect((await reading).toString()).toBe('{"a":1}');

      const stream = await openPathStream(fifo);
      const w2 = await open(fifo, 'w');
      await w2.write('x\ny\n');
      await w2.close();
      const got: Buffer[] = [];
      for await (const c of stream) got.push(c as Buffer);
      expect(Buffer.concat(got).toString()).toBe('x\ny\n');
    },
  );
});

describe('a path that is neither file, folder, FIFO nor device', () => {
  it('a socket cannot be opened: an I/O error naming it', async () => {
    const dir = testScratchDir('read');
    const path = join(dir, 'sock.json');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      // One at a time: a second promise made before the first settles could reject unheard.
      for (const read of [() => readPathCapped(path, 100, 1000), () => openPathStream(path)]) {
        const err = await rejection(read());
        expect(err.code).toBe('CPRC_IO');
        expect(err.message).toContain(path);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('openPathStream', () => {
  it('streams a regular file and a device, and names a missing path or a folder', async () => {
    const dir = testScratchDir('read');
    const file = join(dir, 'a.ndjson');
    writeFileSync(file, '{}\n{}\n');
    const got: Buffer[] = [];
    for await (const c of await openPathStream(file)) got.push(c as Buffer);
    expect(Buffer.concat(got).toString()).toBe('{}\n{}\n');
    const dev: Buffer[] = [];
    for await (const c of await openPathStream('/dev/null')) dev.push(c as Buffer);
    expect(Buffer.concat(dev).length).toBe(0);
    const missing = await rejection(openPathStream(join(dir, 'gone.ndjson')));
    expect(missing.message).toContain('gone.ndjson');
    expect(missing.message).toContain('no such file');
    const folder = await rejection(openPathStream(dir));
    expect(folder.message).toContain('it is a folder');
  });
});

describe('splitLines (NDJSON)', () => {
  it('numbers lines from 1, drops one trailing CR, keeps empty lines, and ends a last line without a break', async () => {
    expect(await lines(['a\r\n\nb\r\r\n', 'c'])).toEqual([
      { number: 1, text: 'a' },
      { number: 2, text: '' },
      { number: 3, text: 'b\r' },
      { number: 4, text: 'c' },
    ]);
    expect(await lines(['\r\n'])).toEqual([{ number: 1, text: '' }]);
    expect(await lines(['a\n'])).toEqual([{ number: 1, text: 'a' }]);
    expect(await lines([])).toEqual([]);
  });

  it('joins a line split over several chunks, and reads the head before the chunks', async () => {
    expect(await lines(['ab', 'cd', 'e\nf', 'g\n'])).toEqual([
      { number: 1, text: 'abcde' },
      { number: 2, text: 'fg' },
    ]);
    expect(await lines(['c\nd'], 1000, Buffer.from('a\nb'))).toEqual([
      { number: 1, text: 'a' },
      { number: 2, text: 'bc' },
      { number: 3, text: 'd' },
    ]);
    expect(await lines(['x\n'], 1000, Buffer.alloc(0))).toEqual([{ number: 1, text: 'x' }]);
  });

  it('accepts a line of exactly max bytes and refuses max + 1, naming the line number and the input', async () => {
    const max = 4;
    expect(await lines(['ab', 'cd\n', 'efgh'], max)).toEqual([
      { number: 1, text: 'abcd' },
      { number: 2, text: 'efgh' },
    ]);
    // over the limit within one chunk, over it across chunks, and over it in a last line without a break
    for (const parts of [['ok\nabcde\n'], ['ok\nab', 'cde\n'], ['ok\nab', 'cde']]) {
      const got: Line[] = [];
      let err: unknown;
      try {
        for await (const l of splitLines(chunksOf(...parts), max, 'feed.ndjson')) got.push(l);
      } catch (e) {
        err = e;
      }
      expect(got.map((l) => l.bytes.toString())).toEqual(['ok']);
      expect(err).toBeInstanceOf(CprcError);
      expect((err as CprcError).code).toBe('CPRC_RESPONSE_TOO_LARGE');
      expect((err as CprcError).message).toContain('line 2 of feed.ndjson');
      expect((err as CprcError).message).toContain('4 bytes');
    }
  });
});
