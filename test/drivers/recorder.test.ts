/**
 * The recorder's evidence buffers: `collect` keeps the exchanges of work done side by side apart,
 * `keep` puts them back in an order of the caller's choosing, and `recordFromHere` lets a server
 * handler (outside the work's async context) record with the work that caused its request.
 */
import { describe, expect, it } from 'vitest';
import { Recorder } from '../../src/drivers/recorder.js';
import type { Exchange } from '../../src/model/results.js';

const ex = (url: string): Exchange => ({ kind: 'http', method: 'GET', url, status: 200, duration_ms: 0 });
const urls = (es: readonly Exchange[]): string[] => es.map((e) => e.url ?? '');

/** A promise and its resolver, made in the caller's async context. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (v: T) => void } {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describe('Recorder', () => {
  it('records outside any collect in the buffer that take empties', () => {
    const r = new Recorder(['s3cret']);
    r.record(ex('/a?k=s3cret'));
    expect(urls(r.take())).toEqual(['/a?k=[redacted]']);
    expect(r.take()).toEqual([]);
  });

  it('keeps the exchanges of collects run side by side apart, and keep puts them back in the order asked', async () => {
    const r = new Recorder();
    const gate = deferred();
    const first = r.collect(async () => {
      r.record(ex('/1a'));
      await gate.promise;
      r.record(ex('/1b'));
    });
    const second = r.collect(async () => {
      r.record(ex('/2a'));
      gate.resolve();
      await Promise.resolve();
      r.record(ex('/2b'));
    });
    const [a, b] = await Promise.all([first, second]);
    expect(r.take()).toEqual([]);
    r.keep(a.exchanges);
    r.keep(b.exchanges);
    expect(urls(r.take())).toEqual(['/1a', '/1b', '/2a', '/2b']);
  });

  it('records through recordFromHere with the work that asked for it, whatever context calls it', async () => {
    const r = new Recorder(['token-0123456789abcdef']);
    const handed = deferred<(e: Exchange) => Exchange>();
    const answered = deferred();
    const work = r.collect(async () => {
      r.record(ex('/derive-start'));
      handed.resolve(r.recordFromHere());
      await answered.promise;
      r.record(ex('/derive-end'));
    });
    // the "server handler": this test's own context, outside the collect
    const recordHere = await handed.promise;
    r.record(ex('/elsewhere'));
    recordHere(ex('/mock-payee/token-0123456789abcdef'));
    answered.resolve();
    const { exchanges } = await work;
    expect(urls(exchanges)).toEqual(['/derive-start', '/mock-payee/[redacted]', '/derive-end']);
    expect(urls(r.take())).toEqual(['/elsewhere']);
  });

  it('records through recordFromHere where the caller records once that collect has ended', async () => {
    const r = new Recorder();
    const { value: recordHere } = await r.collect(async () => r.recordFromHere());
    recordHere(ex('/late'));
    expect(urls(r.take())).toEqual(['/late']);
    const inner = await r.collect(async () => {
      recordHere(ex('/late-in-another'));
    });
    expect(urls(inner.exchanges)).toEqual(['/late-in-another']);
  });

  it('records through a recordFromHere made outside any collect in the buffer', () => {
    const r = new Recorder();
    const recordHere = r.recordFromHere();
    recordHere(ex('/x'));
    expect(urls(r.take())).toEqual(['/x']);
  });
});
