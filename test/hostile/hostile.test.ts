/**
 * `cprc run` (the built CLI) against hostile targets: one run per misbehaviour of the double, each
 * asserting the exit code, the four reports present and valid, the cause named, no check passed on
 * evidence it never got, and bounds on wall time and peak memory. Build first
 * (`npx tsc -p tsconfig.build.json; node scripts/compile-schemas.mjs`).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunConfig } from '../../src/generated/tool/run-config.js';
import { packageRoot } from '../../src/paths.js';
import { secretsOf } from '../../src/secrets/index.js';
import { DEEP, type Mode } from './double.js';
import { passedOnGarbage, reportProblems, UNSAFE_RAW } from './reports.js';
import { cprcRun, doubled, REQUEST_MS, startWorld, type World } from './world.js';

/** Peak memory a run may reach whatever the target sends (issue 9). */
const PEAK_MB = 512;

interface Case {
  mode: Mode;
  /** Targets put behind the double. */
  targets: ('payee' | 'wallet' | 'operator')[];
  /** A text every run of this mode must show in results.json (the cause named). */
  cause: RegExp;
  /** Wall-time bound of the run (ms): generous, the point is "bounded", not "fast". */
  maxMs: number;
}

/**
 * One run per mode, each against one target (two for `hang`: one circuit per target), so the
 * whole file stays near two minutes on two cores: most modes go to the Operator (its suite is the
 * quickest), the JSON-reading modes of the issue to the wallet (non-JSON, 100,000-deep) and the
 * payee (truncated CPR, Unicode in every text, a payee that dies mid-run).
 */
const CASES: Case[] = [
  {
    mode: 'hang',
    targets: ['payee', 'operator'],
    cause: /circuit open: \w+ \(https:\/\/127\.0\.0\.1:\d+\) stopped answering at .*timeout/,
    maxMs: 60_000,
  },
  { mode: 'drip-body', targets: ['payee'], cause: /circuit open: payee .*timeout/, maxMs: 45_000 },
  { mode: 'slow-headers', targets: ['operator'], cause: /circuit open: operator .*timeout/, maxMs: 45_000 },
  {
    mode: 'reset',
    targets: ['operator'],
    cause: /circuit open: operator .*(connection closed|reset|socket)/i,
    maxMs: 45_000,
  },
  {
    mode: 'half-close',
    targets: ['operator'],
    cause: /circuit open: operator .*(connection closed|socket|other side)/i,
    maxMs: 45_000,
  },
  { mode: 'huge-body', targets: ['operator'], cause: /larger than the cap of \d+ bytes/, maxMs: 60_000 },
  { mode: 'invalid-json', targets: ['wallet'], cause: /not JSON/, maxMs: 60_000 },
  { mode: 'truncated-json', targets: ['payee'], cause: /JSON is truncated/, maxMs: 60_000 },
  {
    mode: 'wrong-content-type',
    targets: ['operator'],
    cause: /wrong content type "text\/html/,
    maxMs: 60_000,
  },
  {
    mode: 'redirect-to-http',
    targets: ['operator'],
    cause: /redirect \(HTTP 302 to http:\/\//,
    maxMs: 60_000,
  },
  { mode: 'redirect-loop', targets: ['operator'], cause: /redirect \(HTTP 307/, maxMs: 60_000 },
  { mode: 'server-error', targets: ['operator'], cause: /server error \(HTTP 50[03]\)/, maxMs: 60_000 },
  {
    mode: 'giant-headers',
    targets: ['operator'],
    cause: /header section of the answer is larger/,
    maxMs: 60_000,
  },
  {
    mode: 'duplicate-headers',
    targets: ['operator'],
    cause: /"application\/json, text\/html"/,
    maxMs: 60_000,
  },
  { mode: 'http-1.0', targets: ['operator'], cause: /./, maxMs: 60_000 },
  { mode: 'gzip-bomb', targets: ['operator'], cause: /Content-Encoding "gzip"/, maxMs: 60_000 },
  { mode: 'deep-json', targets: ['wallet'], cause: new RegExp(`nests ${DEEP} levels deep`), maxMs: 60_000 },
  { mode: 'html-script', targets: ['operator'], cause: /<script>document\.title/, maxMs: 60_000 },
  { mode: 'unicode-garbage', targets: ['payee'], cause: /[\uFFFE\u202E]/, maxMs: 60_000 },
  { mode: 'echo-secrets', targets: ['operator'], cause: /./, maxMs: 60_000 },
];

const only = process.env.HOSTILE_MODES?.split(',');
const selected = only ? CASES.filter((c) => only.includes(c.mode)) : CASES;

describe('cprc run against a hostile target', () => {
  let world: World;
  let secrets: string[];
  beforeAll(async () => {
    if (!existsSync(join(packageRoot(), 'dist', 'src', 'cli', 'main.js'))) {
      throw new Error('build first: npx tsc -p tsconfig.build.json; node scripts/compile-schemas.mjs');
    }
    world = await startWorld();
    secrets = secretsOf(world.stack.config as unknown as RunConfig);
  }, 60_000);
  afterAll(async () => {
    await world?.close();
  });

  for (const c of selected) {
    it(
      `${c.mode}: exit 1, valid reports naming the cause, no pass on garbage, bounded`,
      async () => {
        const run = await doubled(world, c.mode, c.targets);
        try {
          const r = await cprcRun(run.configPath, run.reportsDir);
          const { problems, tests } = await reportProblems(run.reportsDir, secrets);
          const doubleUrls = Object.values(run.doubles).map((d) => d.url);
          const diag = `${c.mode}: exit ${r.code}, ${r.wallMs} ms, ${r.peakMb?.toFixed(0)} MB, ${tests.length} tests (${tests.filter((t) => t.state === 'passed').length} passed); stderr ${r.stderr.slice(-400)}`;
          console.log(diag);
          expect(r.code, diag).toBe(1);
          expect(problems, diag).toEqual([]);
          expect(tests.length, diag).toBeGreaterThan(0);
          expect(
            tests.some((t) => c.cause.test(t.message ?? '')),
            `${diag}\nno message names the cause ${c.cause}; first errors: ${tests
              .filter((t) => t.state === 'error' || t.state === 'failed')
              .slice(0, 3)
              .map((t) => t.message)
              .join(' | ')}`,
          ).toBe(true);
          expect(passedOnGarbage(tests, doubleUrls), diag).toEqual([]);
          for (const s of secrets) expect(r.stdout.includes(s) || r.stderr.includes(s), diag).toBe(false);
          // the terminal gets no raw control, bidi or separator character from the target
          const rawOnTerminal = (r.stdout + r.stderr)
            .split('\n')
            .find((l) => UNSAFE_RAW.test(l.replace(/\t/g, ' ')));
          expect(rawOnTerminal, diag).toBeUndefined();
          expect(r.wallMs, diag).toBeLessThan(c.maxMs);
          if (r.peakMb !== undefined) expect(r.peakMb, diag).toBeLessThan(PEAK_MB);
        } finally {
          await run.close();
        }
      },
      c.maxMs + 30_000,
    );
  }

  it('a target that dies mid-run: its remaining checks end at once as circuit-open errors; the run ends within threshold x request timeout + margin of its death', async () => {
    const requestMs = REQUEST_MS;
    const run = await doubled(world, 'dies-mid-run', ['payee'], { healthyRequests: 120, requestMs });
    try {
      const r = await cprcRun(run.configPath, run.reportsDir);
      const ended = Date.now();
      const { problems, tests } = await reportProblems(run.reportsDir, secrets);
      const died = run.doubles.payee?.diedAt;
      const diag = `exit ${r.code}, ${r.wallMs} ms, ended ${died === undefined ? '?' : ended - died} ms after the death, ${r.peakMb?.toFixed(0)} MB, ${tests.length} tests (${tests.filter((t) => t.state === 'passed').length} passed before it)`;
      console.log(`dies-mid-run: ${diag}`);
      expect(r.code, diag).toBe(1);
      expect(problems, diag).toEqual([]);
      expect(died, diag).toBeDefined();
      const open = tests.filter((t) =>
        /circuit open: payee \(https:\/\/127\.0\.0\.1:\d+\) stopped answering at \d{4}-\d\d-\d\dT[\d:.]+Z \(timeout/.test(
          t.message ?? '',
        ),
      );
      expect(open.length, diag).toBeGreaterThan(5);
      // at most threshold (3) checks waited for the dead target (each once, concurrent requests of
      // one check together); every later check ended at once
      const waited = tests.filter((t) => t.exchanges.some((e) => /^timeout/.test(e.error ?? '')));
      expect(waited.length, waited.map((t) => t.id).join(', ')).toBeLessThanOrEqual(3);
      const instant = open.filter((t) => !waited.includes(t));
      expect(instant.length, diag).toBeGreaterThan(5);
      for (const t of instant) {
        for (const e of t.exchanges.filter((x) => x.error !== undefined)) {
          expect(e.error, t.id).toMatch(/^circuit open: payee/);
          expect(e.duration_ms, t.id).toBeLessThan(50); // no waiting on the dead target
        }
      }
      expect(passedOnGarbage(tests, [run.doubles.payee?.url ?? '']), diag).toEqual([]);
      // from the death on: at most threshold (3) x request timeout of waiting, plus reports and exit
      expect(ended - (died ?? 0), diag).toBeLessThan(3 * requestMs + 15_000);
    } finally {
      await run.close();
    }
  }, 120_000);
});
