/**
 * `npm run bench`: throughput of the reference validator.
 *
 * 1. Documents per second on a fixed-seed corpus of valid and single-defect invalid CPRs, for
 *    `JSON.parse` alone, parse + ajv schema only (allErrors on and off), and parse + `validateCpr`
 *    (schema + rules), printed with ratios to `JSON.parse` and the ratio validateCpr / ajv
 *    schema-only (the same allErrors validator validateCpr runs), plus one first pass over a fresh
 *    corpus (cold caches).
 * 2. Cold start of `cprc validate <file>` (spawned, median of several runs), beside a bare `node`.
 * 3. `cprc validate DIR` against `ajv-cli` (schema only, one process, `ajv validate -d 'DIR/*.json'`)
 *    over the same folders of 2,000 and 20,000 files, as files per second (median of several
 *    alternated runs each); beside it, `cprc validate DIR` without worker threads.
 * 4. `cprc validate` throughput on a 50k-line NDJSON file.
 *
 * @packageDocumentation
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { packageRoot } from '../src/paths.js';
import { getSchemaValidator } from '../src/schemas/registry.js';
import { cprArbitrary, type JsonObject } from '../src/testing/arbitraries.js';
import { CPR_MUTATIONS } from '../src/testing/mutations.js';
import { validateCpr } from '../src/validator/index.js';

const SEED = 20260601;
const NOW = new Date('2026-06-01T12:00:00Z');
const CORPUS_SIZE = 4000;
const NDJSON_LINES = 50_000;
/** Folder sizes `cprc validate DIR` and ajv-cli are compared on. */
const FOLDER_SIZES = [2000, 20_000];
const FOLDER_RUNS = 3;
const COLD_RUNS = 11;
const MIN_MEASURE_MS = 1500;

/** Fixed-seed corpus: half valid CPRs of every rail, half with one defect each. */
function corpus(seed = SEED): string[] {
  const docs = fc.sample(cprArbitrary({ now: NOW }), { seed, numRuns: CORPUS_SIZE });
  return docs.map((doc, i) => {
    if (i % 2 === 0) return JSON.stringify(doc);
    for (let k = 0; k < CPR_MUTATIONS.length; k++) {
      const m = CPR_MUTATIONS[(i + k) % CPR_MUTATIONS.length];
      if (m?.applies(doc)) return JSON.stringify(m.apply(doc, NOW));
    }
    return JSON.stringify(doc);
  });
}

/** Runs `pass` over the corpus until at least MIN_MEASURE_MS elapsed; documents per second. */
function rate(texts: readonly string[], pass: (text: string) => unknown): number {
  for (let i = 0; i < Math.min(500, texts.length); i++) pass(texts[i] as string); // warm-up
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  do {
    for (const t of texts) pass(t);
    n += texts.length;
    elapsed = performance.now() - start;
  } while (elapsed < MIN_MEASURE_MS);
  return (n / elapsed) * 1000;
}

/**
 * Ratio of the throughputs of `a` over `b`, measured in alternating full passes over the corpus
 * (median of several rounds, after a warm-up round), so a change of machine load during the run
 * weighs on both sides alike. Each pass is timed twice: by the clock (`wall`) and by the CPU time
 * the process spent (`cpu`, all its threads: what the pass cost, whatever else the machine ran
 * meanwhile, which the clock also counts when the process waits for a core).
 */
function interleavedRatio(
  texts: readonly string[],
  a: (text: string) => unknown,
  b: (text: string) => unknown,
): { wall: number; cpu: number } {
  const pass = (f: (text: string) => unknown): { wall: number; cpu: number } => {
    const cpu0 = process.cpuUsage();
    const start = performance.now();
    for (const t of texts) f(t);
    const wallMs = performance.now() - start;
    const cpu = process.cpuUsage(cpu0);
    return { wall: texts.length / wallMs, cpu: texts.length / ((cpu.user + cpu.system) / 1000) };
  };
  pass(a);
  pass(b);
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let round = 0; round < 7; round++) {
    const ra = pass(a);
    const rb = pass(b);
    wall.push(ra.wall / rb.wall);
    cpu.push(ra.cpu / rb.cpu);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function fmt(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function uuidOf(i: number): string {
  const h = i.toString(16).padStart(12, '0');
  return `00000000-0000-4000-8000-${h}`;
}

function main(): void {
  const texts = corpus();
  const invalidCount = texts.filter((t) => !validateCpr(JSON.parse(t), { now: NOW }).valid).length;
  const walletAll = getSchemaValidator('cpr/cpr-wallet');
  const walletFirst = getSchemaValidator('cpr/cpr-wallet', { allErrors: false });

  const rows: [string, number][] = [
    ['JSON.parse alone', rate(texts, (t) => JSON.parse(t))],
    ['parse + ajv schema (allErrors: true, precompiled)', rate(texts, (t) => walletAll(JSON.parse(t)))],
    ['parse + ajv schema (allErrors: false)', rate(texts, (t) => walletFirst(JSON.parse(t)))],
    [
      'parse + validateCpr wallet (schema + rules)',
      rate(texts, (t) => validateCpr(JSON.parse(t), { now: NOW })),
    ],
    [
      'parse + validateCpr payee (schema + rules)',
      rate(texts, (t) => validateCpr(JSON.parse(t), { mode: 'payee', now: NOW })),
    ],
  ];
  // one pass over a corpus never seen (EIP-55 and IBAN caches cold for its addresses)
  const fresh = corpus(SEED + 1);
  const t0 = performance.now();
  for (const t of fresh) validateCpr(JSON.parse(t), { now: NOW });
  const coldRate = (fresh.length / (performance.now() - t0)) * 1000;
  const base = rows[0]?.[1] ?? 1;
  const ajvRate = rows[1]?.[1] ?? 1;
  const out: string[] = [];
  out.push(`corpus: ${texts.length} CPRs (seed ${SEED}), ${invalidCount} invalid, node ${process.version}`);
  out.push('');
  out.push('throughput                                          docs/s    vs JSON.parse');
  for (const [name, r] of rows)
    out.push(`${name.padEnd(50)} ${fmt(r).padStart(10)}    ${(r / base).toFixed(3)}x`);
  out.push(
    `${'validateCpr wallet, first pass, fresh corpus'.padEnd(50)} ${fmt(coldRate).padStart(10)}    ${(coldRate / base).toFixed(3)}x`,
  );
  out.push('');
  const walletRatio = interleavedRatio(
    texts,
    (t) => validateCpr(JSON.parse(t), { now: NOW }),
    (t) => walletAll(JSON.parse(t)),
  );
  const payeeAjv = getSchemaValidator('cpr/cpr-payee');
  const payeeRatio = interleavedRatio(
    texts,
    (t) => validateCpr(JSON.parse(t), { mode: 'payee', now: NOW }),
    (t) => payeeAjv(JSON.parse(t)),
  );
  out.push(
    `ratio validateCpr / ajv schema-only, parse included, same reading's schema, interleaved (median of 7): wallet ${walletRatio.wall.toFixed(2)}x, payee ${payeeRatio.wall.toFixed(2)}x (target >= 0.60x); from the table above: wallet ${((rows[3]?.[1] ?? 0) / ajvRate).toFixed(2)}x`,
  );
  out.push(
    `the same passes timed by process CPU time (not slowed by other jobs' load): wallet ${walletRatio.cpu.toFixed(2)}x, payee ${payeeRatio.cpu.toFixed(2)}x; load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const root = packageRoot();
  const bin = join(root, 'bin', 'cprc.js');
  const tmp = mkdtempSync(join(tmpdir(), 'cprc-bench-'));
  try {
    const one = join(tmp, 'one.json');
    writeFileSync(one, texts[0] as string);
    const time = (args: string[], env?: Record<string, string>): number => {
      const t0 = performance.now();
      const r = spawnSync(process.execPath, args, {
        stdio: 'ignore',
        ...(env ? { env: { ...process.env, ...env } } : {}),
      });
      if (r.status === null || r.status > 1) throw new Error(`bench: ${args.join(' ')} exited ${r.status}`);
      return performance.now() - t0;
    };
    // alternated, so a change of load weighs on both alike
    const bareRuns: number[] = [];
    const coldRuns: number[] = [];
    for (let r = 0; r < COLD_RUNS; r++) {
      bareRuns.push(time(['-e', '']));
      coldRuns.push(time([bin, 'validate', one, '--now', NOW.toISOString()]));
    }
    const bare = median(bareRuns);
    const cold = median(coldRuns);
    out.push('');
    out.push(
      `cold start: cprc validate <file>  median ${cold.toFixed(0)} ms of ${COLD_RUNS} runs (bare node -e '': ${bare.toFixed(0)} ms); ratio ${(cold / bare).toFixed(2)}x`,
    );

    // cprc validate DIR vs ajv-cli over the same folders (2,000 and 20,000 documents)
    const ajvBin = join(root, 'node_modules', 'ajv-cli', 'dist', 'index.js');
    const schemaDir = join(root, 'schemas', 'cpr');
    const refs = readdirSync(schemaDir)
      .filter((f) => f.endsWith('.schema.json') && f !== 'cpr-wallet.schema.json')
      .flatMap((f) => ['-r', join(schemaDir, f)]);
    for (const files of FOLDER_SIZES) {
      const folder = join(tmp, `folder-${files}`);
      mkdirSync(folder);
      for (let i = 0; i < files; i++) {
        const doc = JSON.parse(texts[i % texts.length] as string) as JsonObject;
        if (typeof doc.request_id === 'string') doc.request_id = uuidOf(1_000_000 + i);
        writeFileSync(
          join(folder, `cpr-${String(i).padStart(5, '0')}.json`),
          `${JSON.stringify(doc, null, 2)}\n`,
        );
      }
      const ajvArgs = [
        ajvBin,
        'validate',
        '--spec=draft2020',
        '--strict=false',
        '--errors=no',
        '-c',
        'ajv-formats',
        '-s',
        join(schemaDir, 'cpr-wallet.schema.json'),
        ...refs,
        '-d',
        join(folder, '*.json'),
      ];
      // alternated, so a change of load weighs on both alike
      const cprcRuns: number[] = [];
      const ajvRuns: number[] = [];
      const serialRuns: number[] = [];
      const cprcArgs = [bin, 'validate', folder, '--now', NOW.toISOString(), '--ndjson'];
      for (let r = 0; r < FOLDER_RUNS; r++) {
        cprcRuns.push(time(cprcArgs));
        ajvRuns.push(time(ajvArgs));
        // the same run without worker threads (the main thread alone)
        serialRuns.push(time(cprcArgs, { CPRC_VALIDATE_THREADS: '0' }));
      }
      const cprcMs = median(cprcRuns);
      const ajvMs = median(ajvRuns);
      const cprcFiles = (files / cprcMs) * 1000;
      const ajvFiles = (files / ajvMs) * 1000;
      out.push(
        `folder of ${fmt(files)} files (median of ${FOLDER_RUNS}): cprc validate DIR ${fmt(cprcFiles)} files/s (${(cprcMs / 1000).toFixed(2)} s, schema + rules); ajv-cli ${fmt(ajvFiles)} files/s (${(ajvMs / 1000).toFixed(2)} s, schema only); ratio ${(cprcFiles / ajvFiles).toFixed(2)}x`,
      );
      const serialMs = median(serialRuns);
      out.push(
        `  the same without worker threads (CPRC_VALIDATE_THREADS=0): ${fmt((files / serialMs) * 1000)} files/s (${(serialMs / 1000).toFixed(2)} s); with / without ${(serialMs / cprcMs).toFixed(2)}x; load average ${loadavg()
          .map((l) => l.toFixed(2))
          .join(' ')}`,
      );
      rmSync(folder, { recursive: true, force: true });
    }

    const ndjson = join(tmp, 'big.ndjson');
    const lines: string[] = [];
    for (let i = 0; i < NDJSON_LINES; i++) {
      const doc = JSON.parse(texts[i % texts.length] as string) as JsonObject;
      if (typeof doc.request_id === 'string') doc.request_id = uuidOf(i);
      lines.push(JSON.stringify(doc));
    }
    writeFileSync(ndjson, `${lines.join('\n')}\n`);
    const ms = time([bin, 'validate', ndjson, '--now', NOW.toISOString(), '--ndjson']);
    out.push(
      `ndjson: ${fmt(NDJSON_LINES)} lines in ${(ms / 1000).toFixed(2)} s = ${fmt((NDJSON_LINES / ms) * 1000)} docs/s (output discarded)`,
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  process.stdout.write(`${out.join('\n')}\n`);
}

main();
