// The self-test's record of its runs, so the matrix (`npm run selftest:matrix -- --from DIR`) can
// be rendered from one `npm test` instead of running every broken implementation again.
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FaultRun, VariantRun } from './run-fault.js';

/** Environment variable naming the folder the self-test writes one JSON file per run into. */
export const SELFTEST_RECORD_ENV = 'CPRC_SELFTEST_RECORD';

/** One recorded self-test run: a broken implementation or a permitted variant. */
export type RecordedRun =
  | ({ kind: 'broken'; fault: string } & FaultRun)
  | ({ kind: 'variant'; choice: string; clause: string } & VariantRun);

/** Writes `run` into the folder named by {@link SELFTEST_RECORD_ENV}, when it is set. */
export async function recordSelfTestRun(run: RecordedRun): Promise<void> {
  const dir = process.env[SELFTEST_RECORD_ENV];
  if (!dir) return;
  await mkdir(dir, { recursive: true });
  const { stderr: _stderr, ...kept } = run;
  await writeFile(join(dir, `${run.id}.json`), `${JSON.stringify(kept, null, 2)}\n`);
}

/** Reads every run recorded in `dir`, sorted by target then id. */
export async function readRecordedRuns(dir: string): Promise<RecordedRun[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.json'));
  const runs = await Promise.all(
    files.map(async (f) => JSON.parse(await readFile(join(dir, f), 'utf8')) as RecordedRun),
  );
  const order = { payee: 0, wallet: 1, operator: 2 } as const;
  return runs.sort((a, b) => order[a.target] - order[b.target] || a.id.localeCompare(b.id));
}
