/**
 * The worker thread of a parallel `cprc validate` run (`pool.ts`): reads and checks the files of
 * the batches it is sent (files read whole: never an NDJSON name, which the main thread streams),
 * with the same code as the main thread (`documents.ts`), and answers each batch with one entry
 * per file, in order. A file that is not plainly one JSON document (a PNG, a `cpr://` URI, NDJSON
 * content, a FIFO or device) or whose reading failed in an unexpected way is answered `defer`:
 * the main thread then handles it itself, in its turn. The cross-document rule stays with the
 * main thread (the answer carries the request_id).
 *
 * @packageDocumentation
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isCprcError } from '../../errors.js';
import { type Checked, checkLoaded, failed, fileContentOf, fromBytes } from './documents.js';
import { POOL_WORKER, type PoolAnswer, type PoolBatch, type PoolSettings } from './pool.js';
import { readRegularFile } from './read.js';

/** The answer for one file of a batch. */
function answer(path: string, listedAsFile: boolean, settings: PoolSettings): PoolAnswer {
  let bytes: Buffer | undefined;
  try {
    bytes = readRegularFile(path, settings.maxBytes, listedAsFile);
  } catch (err) {
    return isCprcError(err) ? { result: failed(path, err) } : 'defer';
  }
  if (bytes === undefined || fileContentOf(path, bytes) !== 'json') return 'defer';
  const checked: Checked = checkLoaded(fromBytes(bytes, path, path, settings.opts.mode), settings.opts);
  return checked;
}

// only in a worker the pool started: imported anywhere else (another worker thread's parentPort
// carries someone else's messages) this module does nothing
const data = workerData as { mark?: unknown; settings: PoolSettings } | null | undefined;
const port = parentPort;
if (port !== null && data?.mark === POOL_WORKER) {
  const { settings } = data;
  port.on('message', (batch: PoolBatch) => {
    const answers: PoolAnswer[] = [];
    for (const f of batch.files) {
      try {
        answers.push(answer(f.path, f.listedAsFile, settings));
      } catch {
        answers.push('defer'); // the main thread meets the same failure, and reports it as it would
      }
    }
    port.postMessage({ id: batch.id, answers });
  });
}
