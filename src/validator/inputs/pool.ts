/**
 * Worker threads for large folders and globs of `cprc validate`: the files are dealt out in
 * batches to a few workers (`worker.ts`), each reading and checking its files, and the answers
 * are taken back batch by batch in input order, so the results (and the output) are those of a
 * run on the main thread alone, only sooner on a machine with several cores.
 *
 * @packageDocumentation
 */
import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { ValidateCprOptions } from '../types.js';
import type { Checked } from './documents.js';

/**
 * The mark of a worker started by {@link ValidatePool} (its `workerData`): `worker.ts` serves
 * batches only then, so importing it in another worker thread (a test runner's) does nothing.
 */
export const POOL_WORKER = 'cprc-validate-pool';

/** What every worker is started with. */
export interface PoolSettings {
  /** The reading (`mode`, `now`, `maxValiditySeconds`). */
  opts: ValidateCprOptions;
  /** The `max-bytes` limit of a file. */
  maxBytes: number;
}

/** A batch of files sent to a worker. */
export interface PoolBatch {
  /** Number of the batch (its answer names it). */
  id: number;
  /** The files, in input order; `listedAsFile` as in `Source`. */
  files: { path: string; listedAsFile: boolean }[];
}

/** The answer for one file: its result before the cross-document rule, or `defer` (see worker.ts). */
export type PoolAnswer = Checked | 'defer';

/**
 * The worker's script beside this module: `validate-worker.cjs` in the bundled CLI (dist/cli/),
 * `worker.js` in the compiled sources (dist/src/); none when this module runs from its
 * TypeScript source (tests), where a run stays on the main thread.
 */
export function workerScript(): URL | undefined {
  for (const name of ['./validate-worker.cjs', './worker.js']) {
    const url = new URL(name, import.meta.url);
    if (existsSync(url)) return url;
  }
  return undefined;
}

/** One worker and the batches it has not answered yet. */
interface Slot {
  worker: Worker;
  pending: Map<number, (answers: PoolAnswer[] | null) => void>;
  dead: boolean;
}

/**
 * A fixed set of worker threads checking batches of files. A batch whose worker fails (or
 * stops) is answered `null`: the caller then checks those files itself.
 *
 * @example
 * ```ts
 * const pool = new ValidatePool(2, { opts: { mode: 'payee' }, maxBytes: 1 << 20 }, script);
 * const answers = await pool.check([{ path: 'a.json', listedAsFile: true }]);
 * await pool.close();
 * ```
 */
export class ValidatePool {
  private readonly slots: Slot[] = [];
  private nextId = 0;

  constructor(threads: number, settings: PoolSettings, script: URL) {
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(script, { workerData: { mark: POOL_WORKER, settings } });
      const slot: Slot = { worker, pending: new Map(), dead: false };
      const fail = (): void => {
        slot.dead = true;
        for (const resolve of slot.pending.values()) resolve(null);
        slot.pending.clear();
      };
      worker.on('message', (m: { id: number; answers: PoolAnswer[] }) => {
        const resolve = slot.pending.get(m.id);
        slot.pending.delete(m.id);
        resolve?.(m.answers);
      });
      worker.on('error', fail);
      worker.on('exit', fail);
      this.slots.push(slot);
    }
  }

  /** Sends `files` to the least busy worker; its answers in order, or null (check them yourself). */
  check(files: PoolBatch['files']): Promise<PoolAnswer[] | null> {
    let best: Slot | undefined;
    for (const s of this.slots) if (!s.dead && (!best || s.pending.size < best.pending.size)) best = s;
    if (!best) return Promise.resolve(null);
    const slot = best;
    const id = this.nextId++;
    return new Promise((resolve) => {
      slot.pending.set(id, resolve);
      try {
        slot.worker.postMessage({ id, files } satisfies PoolBatch);
      } catch {
        slot.pending.delete(id);
        resolve(null);
      }
    });
  }

  /** Stops every worker (batches not answered yet are answered null). */
  async close(): Promise<void> {
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
