// `npm run foreign [-- options]` (docs/foreign.md): runs the suite against the foreign stack
// (test/foreign/, written clean-room from the specifications and the profile) clean, then with each
// of its faults switched on, one at a time, and prints detected / only warned / missed per fault,
// per target and per class. Writes reports/foreign/foreign.json and foreign.md.
//
//   npm run foreign                              every fault, 2 at a time
//   npm run foreign -- --fault ID[,ID...]        these faults
//   npm run foreign -- --target wallet           one target's faults (also --class NAME)
//   npm run foreign -- --jobs 1 --seed 7 --runs 100
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../src/paths.js';
import { unexpectedWarnings } from './expected.js';
import { markdownReport, progressLine, textSummary } from './report.js';
import {
  type FaultVerdict,
  FOREIGN_TARGETS,
  type ForeignFault,
  foreignStackPresent,
  judgeFault,
  loadForeignFaults,
  runForeign,
} from './run.js';

const USAGE = `usage: npm run foreign -- [--fault ID[,ID...]] [--target T] [--class C] [--jobs N] [--suite-jobs N] [--seed N] [--runs N] [--out DIR]
runs the suite against the foreign stack clean, then with each of its faults, and prints detected / only warned / missed
(--jobs: faults at a time; --suite-jobs: each suite run made with cprc run --jobs N)
`;

function fail(message: string): never {
  process.stderr.write(`foreign: ${message}\n`);
  process.exit(2);
}

function options(argv: string[]): Map<string, string> {
  const opts = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a === '--help' || a === '-h') {
      process.stdout.write(USAGE);
      process.exit(0);
    }
    if (
      !['--fault', '--target', '--class', '--jobs', '--suite-jobs', '--seed', '--runs', '--out'].includes(a)
    )
      fail(`unknown option "${a}"\n${USAGE}`);
    const value = argv[i + 1];
    if (value === undefined || value.startsWith('--')) fail(`${a} needs a value`);
    opts.set(a, value);
    i++;
  }
  return opts;
}

function count(opts: Map<string, string>, name: string, fallback: number): number {
  const raw = opts.get(name);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) fail(`${name} takes a whole number from 1 on, not "${raw}"`);
  return n;
}

async function main(): Promise<void> {
  const opts = options(process.argv.slice(2));
  if (!foreignStackPresent()) fail('test/foreign/stack.mjs or faults.mjs is missing from this checkout');
  const jobs = count(opts, '--jobs', 2);
  const seed = count(opts, '--seed', 1);
  const runs = count(opts, '--runs', 25);
  const args = opts.has('--suite-jobs') ? ['--jobs', String(count(opts, '--suite-jobs', 1))] : [];
  const out = opts.get('--out') ?? join(packageRoot(), 'reports', 'foreign');
  let faults: ForeignFault[];
  try {
    faults = await loadForeignFaults();
  } catch (e) {
    fail((e as Error).message);
  }
  const wanted = opts.get('--fault')?.split(',').filter(Boolean);
  if (wanted) {
    const unknown = wanted.filter((id) => !faults.some((f) => f.id === id));
    if (unknown.length) fail(`no such foreign fault: ${unknown.join(', ')} (see test/foreign/faults.mjs)`);
    // in the order given, so that a partial run answers the faults asked first
    faults = wanted.map((id) => faults.find((f) => f.id === id) as ForeignFault);
  }
  const target = opts.get('--target');
  if (target !== undefined) {
    if (!FOREIGN_TARGETS.includes(target as never)) fail(`--target is one of ${FOREIGN_TARGETS.join(', ')}`);
    faults = faults.filter((f) => f.target === target);
  }
  const klass = opts.get('--class');
  if (klass !== undefined) faults = faults.filter((f) => f.class === klass);
  if (faults.length === 0) fail('no fault matches the options given');

  const started = Date.now();
  const targets = FOREIGN_TARGETS.filter((t) => faults.some((f) => f.target === t));
  process.stdout.write(
    `foreign: the clean stack, targets ${targets.join(', ')} (seed ${seed}, ${runs} runs)\n`,
  );
  const clean = await runForeign({ targets, seed, runs, args });
  if (clean.problem) fail(`the clean foreign stack gave no verdict: ${clean.problem}`);
  const bad = clean.checks.filter((c) => c.state === 'failed' || c.state === 'error');
  const warnings = unexpectedWarnings(clean.checks);
  for (const c of bad) process.stdout.write(`  clean run ${c.state}: ${c.id}: ${c.message}\n`);
  for (const w of warnings) process.stdout.write(`  clean run warning not named in expected.ts: ${w}\n`);
  process.stdout.write(
    `foreign: clean run ${clean.checks.length} checks in ${(clean.ms / 1000).toFixed(1)} s, ${bad.length} failed or errored\n`,
  );

  const verdicts: FaultVerdict[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < faults.length) {
      const fault = faults[next++] as ForeignFault;
      const v = await judgeFault(fault, clean.checks, { seed, runs, args });
      verdicts.push(v);
      process.stdout.write(`${progressLine(v, verdicts.length, faults.length)}\n`);
      // kept as it grows: a run stopped part way still leaves what it measured
      mkdirSync(out, { recursive: true });
      writeFileSync(
        join(out, 'foreign.partial.json'),
        `${JSON.stringify({ seed, runs, verdicts }, null, 2)}\n`,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, faults.length) }, worker));
  const minutes = (Date.now() - started) / 60_000;
  process.stdout.write(`\n${textSummary(verdicts)}\n`);
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, 'foreign.json'),
    `${JSON.stringify({ seed, runs, minutes, clean: clean.checks, verdicts }, null, 2)}\n`,
  );
  writeFileSync(
    join(out, 'foreign.md'),
    markdownReport(verdicts, { seed, runs, minutes, clean: clean.checks }),
  );
  rmSync(join(out, 'foreign.partial.json'), { force: true });
  process.stdout.write(`foreign: ${minutes.toFixed(1)} min; reports in ${out}\n`);
  process.exitCode = bad.length > 0 || verdicts.some((v) => v.detection === 'no-verdict') ? 1 : 0;
}

main().catch((e: unknown) => {
  process.stderr.write(`foreign: ${(e as Error).stack ?? String(e)}\n`);
  process.exit(1);
});
