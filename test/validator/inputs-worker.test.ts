import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
// the compiled module (`npm test` builds first): a worker thread cannot load TypeScript
const WORKER = pathToFileURL(join(ROOT, 'dist', 'src', 'validator', 'inputs', 'worker.js')).href;

/**
 * Starts a worker thread with `workerData` that imports the validate worker module beside its own
 * message handler (an echo), sends it `message`, and resolves with what came back first: the
 * echo, an answer of the validate worker, or the error that ended the thread.
 */
function exchange(workerData: unknown, message: unknown): Promise<unknown> {
  const code = [
    "const { parentPort } = require('node:worker_threads');",
    `import(${JSON.stringify(WORKER)}).then(() => {`,
    "  parentPort.on('message', (m) => parentPort.postMessage({ echo: m }));",
    "  parentPort.postMessage('ready');",
    '});',
  ].join('\n');
  const worker = new Worker(code, { eval: true, workerData });
  return new Promise((resolve) => {
    const answers: unknown[] = [];
    worker.on('error', (err) => resolve({ error: err.message }));
    worker.on('message', (m) => {
      if (m === 'ready') worker.postMessage(message);
      else answers.push(m);
      if (answers.length > 0) setTimeout(() => resolve(answers), 100);
    });
  }).finally(() => worker.terminate());
}

describe('the worker module of cprc validate (inputs/worker.ts)', () => {
  it("does nothing when imported in another worker thread: that thread's messages are not batches", async () => {
    // a test runner's worker, say: its parentPort carries the runner's own messages
    expect(await exchange({ runner: true }, { task: 'run tests' })).toEqual([
      { echo: { task: 'run tests' } },
    ]);
    expect(await exchange(undefined, { id: 1 })).toEqual([{ echo: { id: 1 } }]);
  });

  it('answers the batches of a worker the pool started', async () => {
    const settings = { opts: { now: new Date('2026-06-01T12:00:00Z') }, maxBytes: 1024 };
    const answers = await exchange(
      { mark: 'cprc-validate-pool', settings },
      { id: 7, files: [{ path: join(ROOT, 'no-such-file.json'), listedAsFile: false }] },
    );
    expect(answers).toEqual(
      expect.arrayContaining([
        {
          id: 7,
          answers: [{ result: expect.objectContaining({ valid: false, error: expect.any(String) }) }],
        },
      ]),
    );
  });
});
