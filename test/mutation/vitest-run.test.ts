/**
 * How the mutation runner watches and ends a vitest run that judges a mutant
 * (scripts/mutation-vitest-run.mjs), against a real vitest with test files that behave as mutants
 * make them: a loop that never yields, a failure followed by a hook that waits for ever.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';
// @ts-expect-error: a JavaScript module of the mutation tooling, without types
import { closeForced, watchRun } from '../../scripts/mutation-vitest-run.mjs';

interface Watch {
  promise: Promise<{ expired?: string; failed?: { name: string } }>;
  stop(): void;
}
const watch = watchRun as (ctx: Vitest, o?: { stallMs?: number; afterFailureMs?: number }) => Watch;
const close = closeForced as (ctx: Vitest) => Promise<void>;

const root = resolve(import.meta.dirname, '..', '..');
const FILES: Record<string, string> = {
  // a mutant that makes a loop endless: no test timeout can fire, the thread spins
  'spins.test.ts': "import { it } from 'vitest';\nit('spins', () => { for (;;) {} });\n",
  // a mutant that fails a test and keeps a hook waiting (a server that never closes)
  'fails-then-hangs.test.ts': [
    "import { afterAll, it } from 'vitest';",
    "it('fails', () => { throw new Error('detected'); });",
    'afterAll(() => new Promise(() => {}), 20_000);',
    '',
  ].join('\n'),
  // a run with pauses between its tests, none as long as the stall limit of the test below
  'slow-passes.test.ts': [
    "import { it } from 'vitest';",
    'const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));',
    "it('a', async () => { await wait(1500); });",
    "it('b', async () => { await wait(1500); });",
    "it('c', async () => { await wait(1500); });",
    '',
  ].join('\n'),
};

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'cprc-vitest-run-'));
  mkdirSync(join(dir, 'test'));
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, 'test', name), text);
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A vitest as the mutation runner's (threads, one worker) on one test file of the folder. */
async function start(file: string): Promise<{ ctx: Vitest; run: Promise<unknown> }> {
  // its output discarded: the fixtures fail and hang on purpose, which is no failure of this test
  const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
  const ctx = await createVitest(
    'test',
    { root: dir, pool: 'threads', maxWorkers: 1, watch: false, config: false, reporters: [] },
    {},
    { stdout: quiet, stderr: quiet },
  );
  const run = ctx.start([file]).catch(() => undefined);
  return { ctx, run };
}

/** CPU time of this process (all its threads) over `ms`. */
async function cpuMsOver(ms: number): Promise<number> {
  const before = process.cpuUsage();
  await new Promise((r) => setTimeout(r, ms));
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

describe('the mutation runner ends the vitest runs a mutant keeps from ending', () => {
  it('a run held by a loop that never yields expires at the stall limit, and its thread stops', async () => {
    const { ctx } = await start('test/spins.test.ts');
    const started = Date.now();
    const w = watch(ctx, { stallMs: 1500 });
    const r = await w.promise;
    w.stop();
    expect(r.expired).toMatch(/no test for 1500 ms/);
    // the stall limit and the thread's start, with room for a loaded machine; not the test's 30 s
    expect(Date.now() - started).toBeLessThan(10_000);
    // a plain close would wait for the spinning thread for ever
    await close(ctx);
    // the spinning thread is gone: this process is about idle, where it would use a core
    expect(await cpuMsOver(1000)).toBeLessThan(400);
  }, 30_000);

  it('a run that goes on after a test failed is answered with the failed test', async () => {
    const { ctx } = await start('test/fails-then-hangs.test.ts');
    const started = Date.now();
    const w = watch(ctx, { stallMs: 10_000, afterFailureMs: 300 });
    const r = await w.promise;
    w.stop();
    expect(r.failed?.name).toBe('fails');
    // long before the hook's 20 s timeout, or the stall limit
    expect(Date.now() - started).toBeLessThan(8000);
    await close(ctx);
  }, 30_000);

  it('a run that keeps starting and ending tests is neither expired nor failed', async () => {
    const { ctx, run } = await start('test/slow-passes.test.ts');
    const w = watch(ctx, { stallMs: 4000, afterFailureMs: 300 });
    const r = await Promise.race([w.promise, run.then(() => 'ended')]);
    w.stop();
    expect(r).toBe('ended');
    const states = ctx.state.getFiles().flatMap((f) => f.tasks.map((t) => t.result?.state));
    expect(states).toEqual(['pass', 'pass', 'pass']);
    await ctx.close();
  }, 30_000);
});
