/**
 * The reference wallet's stdio form (`serveWalletLines`, `serveWalletStdio`) in this process:
 * blank lines between requests, its answer to a line that is not JSON, a reader that closes its
 * output early (EPIPE), and the core closed at the end. The suite drives `cprc wallet-stdio` as a
 * child process and sends no blank line and no early close; the mutation run judges this code by
 * these tests (scripts/mutation-scopes.mjs).
 */
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  createWalletCore,
  serveWalletLines,
  serveWalletStdio,
  type WalletCore,
} from '../../../src/reference/wallet/index.js';
import { context, cprFor, NOW } from '../../derivation/fixtures.js';

const NOT_JSON = {
  error: {
    code: 'INVALID_REQUEST',
    message: 'the line is not json; send one {cpr|uri, context} object per line',
  },
};

/** The reference core at the fixtures' instant, counting its closes. */
function countingCore(derive?: WalletCore['derive']): WalletCore & { closes: number } {
  const inner = createWalletCore({ trustedCaPems: [], clock: () => NOW });
  const core = {
    closes: 0,
    derive: derive ?? inner.derive,
    close: async () => {
      core.closes += 1;
      await inner.close();
    },
  };
  return core;
}

async function* linesOf(lines: string[]): AsyncIterable<string> {
  for (const line of lines) yield line;
}

/** A summary of one answer line: `payment` or the error code. */
function summary(line: string): string {
  const answer = JSON.parse(line) as { payment?: unknown; error?: { code: string } };
  return answer.payment ? 'payment' : (answer.error?.code ?? '?');
}

const request = (rail: 'SEPA_CT' | 'ACH') => JSON.stringify({ cpr: cprFor(rail), context: context() });

describe('serveWalletLines', () => {
  it('skips blank and whitespace-only lines, answering each request once, in order', async () => {
    const core = countingCore();
    const out: string[] = [];
    await serveWalletLines(core, linesOf(['', request('SEPA_CT'), '   ', '\t', request('ACH'), '']), (l) =>
      out.push(l),
    );
    expect(out.map(summary)).toEqual(['payment', 'payment']);
    await core.close();
  });

  it('answers a line that is not JSON with INVALID_REQUEST and its own message, and goes on', async () => {
    const core = countingCore();
    const out: string[] = [];
    await serveWalletLines(core, linesOf(['{"cpr": ', ' not json ', request('ACH')]), (l) => out.push(l));
    expect(out.map((l) => JSON.parse(l))).toEqual([
      NOT_JSON,
      NOT_JSON,
      expect.objectContaining({ payment: expect.anything() }),
    ]);
    await core.close();
  });
});

describe('serveWalletStdio', () => {
  it('answers line by line until the input ends, then closes the core', async () => {
    const core = countingCore();
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveWalletStdio(core, input, output);
    input.end(`${request('SEPA_CT')}\r\n\n{oops\n${request('ACH')}`);
    await done;
    const text = output.read()?.toString('utf8') ?? '';
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').slice(0, -1).map(summary)).toEqual(['payment', 'INVALID_REQUEST', 'payment']);
    expect(core.closes).toBe(1);
  });

  it('ends the session when the reader closes its output (EPIPE), though the input stays open', async () => {
    const core = countingCore();
    const input = new PassThrough();
    let writes = 0;
    const output = new Writable({
      write(_chunk, _encoding, callback) {
        writes += 1;
        callback(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
      },
    });
    const done = serveWalletStdio(core, input, output);
    input.write(`${request('SEPA_CT')}\n`);
    const outcome = await Promise.race([
      done.then(() => 'ended'),
      new Promise((resolve) => setTimeout(() => resolve('still running'), 3000)),
    ]);
    expect(outcome).toBe('ended');
    expect(writes).toBe(1);
    expect(core.closes).toBe(1);
    input.destroy();
  });

  it('closes the core and releases the input when the core fails', async () => {
    const core = countingCore(() => Promise.reject(new Error('boom')));
    const input = new PassThrough();
    const output = new PassThrough();
    const done = serveWalletStdio(core, input, output);
    input.write(`${request('ACH')}\n`);
    await expect(done).rejects.toThrow('boom');
    expect(core.closes).toBe(1);
    expect(input.listenerCount('data') + input.listenerCount('end')).toBe(0);
    input.destroy();
  });
});
