/**
 * `npm run bench` (run part): how long a whole `cprc run` takes, serial and with `--jobs`, at
 * loopback and at a distance.
 *
 * 1. `cprc run --reference` (the three reference targets started in the run's own process),
 *    serial and `--jobs N`: the figure the README gives for the reference run.
 * 2. The same suites against one reference stack started here, reached directly (loopback) and
 *    through a TCP proxy on 127.0.0.1 that holds every chunk of bytes for a fixed delay each way
 *    (`DELAY_MS`, 25 ms: a 50 ms round trip, an ordinary staging link). The proxy forwards bytes,
 *    so TLS runs end to end through it (the targets' own certificates); the reference payee writes
 *    the proxy's address into the cpr:// URIs it issues (its clients retrieve through the proxy
 *    too). What stays local: the stdio wallet (a local process by nature) and the suite's mock
 *    payee, which the wallet reaches for reference URIs (the suite's side, not the target's).
 *    Serial and `--jobs` at each distance, as ratios to the loopback serial run.
 *
 * Every run uses one seed and checks that the states per check id are the same as the loopback
 * serial run's (a run whose verdicts moved is no measurement). `BENCH_RUNS` sets the runs per
 * property (default the suite's 100), `BENCH_REPEAT` the repetitions of each figure (median).
 * @packageDocumentation
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { startReferenceStack } from '../src/loopback/stack.js';
import { createCertificateAuthority, issueServerCertificate, LOOPBACK_HOSTS } from '../src/loopback/tls.js';
import { packageRoot } from '../src/paths.js';
import { ReferencePayee } from '../src/reference/payee/server.js';
import { DEFAULT_JOBS } from '../src/runner/defaults.js';

const SEED = 20260601;
const DELAY_MS = Number(process.env.BENCH_DELAY_MS ?? 25);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const JOBS = Number(process.env.BENCH_JOBS ?? DEFAULT_JOBS);
const REFERENCE_JOBS = Number(process.env.BENCH_REFERENCE_JOBS ?? 4);
/** Which parts run (`BENCH_PARTS=reference,distance`, default both). */
const PARTS = (process.env.BENCH_PARTS ?? 'reference,distance').split(',');

/** A TCP proxy on 127.0.0.1 that delivers every chunk `delayMs` after it came, both ways. */
async function startDelayProxy(
  targetPort: number,
  delayMs: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const s of [client, upstream]) {
      s.setNoDelay(true);
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    const pipe = (from: Socket, to: Socket): void => {
      from.on('data', (chunk) => {
        setTimeout(() => {
          if (!to.destroyed) to.write(chunk);
        }, delayMs);
      });
      from.on('end', () => setTimeout(() => to.end(), delayMs));
      from.on('error', () => setTimeout(() => to.destroy(), delayMs));
      from.on('close', () => setTimeout(() => to.destroy(), delayMs + 1));
    };
    pipe(client, upstream);
    pipe(upstream, client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** The reference payee, writing another address (the proxy in front of it) into the URIs it issues. */
class ProxiedPayee extends ReferencePayee {
  /** Clients reach the payee at `url` (its URIs say so from now on). */
  reachedAt(url: string): void {
    this.baseUrl = url;
  }
}

/** A running reference stack and the run config that reaches it. */
interface Stack {
  config: string;
  close(): Promise<void>;
}

/**
 * One reference stack (payee, wallet, Operator), reached directly (`delayMs` undefined) or
 * through a delay proxy in front of each target; the run config that reaches it.
 */
async function startStack(workDir: string, delayMs: number | undefined): Promise<Stack> {
  const ca = await createCertificateAuthority({ commonName: 'cprc bench reference stack CA' });
  const stack = await startReferenceStack({ workDir, targets: ['wallet', 'operator'], ca });
  const server = await issueServerCertificate(ca, { hosts: [...LOOPBACK_HOSTS] });
  const payee = new ProxiedPayee({
    tls: server,
    maxTokenTtlSeconds: 900,
    maxValiditySeconds: 30 * 24 * 3600,
  });
  const running = await payee.start();
  const proxies: Awaited<ReturnType<typeof startDelayProxy>>[] = [];
  const via = async (url: string): Promise<string> => {
    if (delayMs === undefined) return url;
    const u = new URL(url);
    const p = await startDelayProxy(Number(u.port), delayMs);
    proxies.push(p);
    u.port = String(p.port);
    return u.toString().replace(/\/$/, '');
  };
  const payeeBase = await via(running.baseUrl);
  payee.reachedAt(payeeBase);
  const config = JSON.parse(readFileSync(stack.configPath, 'utf8')) as Record<
    string,
    Record<string, unknown>
  >;
  config.payee = {
    base_url: payeeBase,
    harness_url: `${payeeBase}/harness`,
    ...(running.plainHttpUrl ? { plain_http_url: running.plainHttpUrl } : {}),
    max_token_ttl_seconds: 900,
    max_validity_seconds: 30 * 24 * 3600,
  };
  const wallet = config.wallet as Record<string, unknown>;
  wallet.harness_url = await via(wallet.harness_url as string);
  const operator = config.operator as Record<string, unknown>;
  operator.base_url = await via(operator.base_url as string);
  operator.harness_url = await via(operator.harness_url as string);
  const file = join(workDir, 'bench-config.json');
  writeFileSync(file, JSON.stringify(config, null, 2), { mode: 0o600 });
  return {
    config: file,
    close: async () => {
      await Promise.all(proxies.map((p) => p.close()));
      await running.close();
      await stack.close();
    },
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** States per check id of a results.json. */
function statesOf(reportsDir: string): Map<string, string> {
  const doc = JSON.parse(readFileSync(join(reportsDir, 'results.json'), 'utf8')) as {
    tests: { id: string; state: string }[];
  };
  return new Map(doc.tests.map((t) => [t.id, t.state]));
}

function sameStates(a: Map<string, string>, b: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [id, s] of a) if (b.get(id) !== s) out.push(`${id}: ${s} -> ${b.get(id) ?? 'absent'}`);
  for (const id of b.keys()) if (!a.has(id)) out.push(`${id}: absent -> ${b.get(id)}`);
  return out;
}

async function main(): Promise<void> {
  const root = packageRoot();
  const bin = join(root, 'bin', 'cprc.js');
  const tmp = mkdtempSync(join(tmpdir(), 'cprc-bench-run-'));
  /** Prints a line of the bench at once (its runs take minutes). */
  const say = (line: string): void => {
    process.stdout.write(`${line}\n`);
  };
  let n = 0;
  /** Runs `cprc run` with `args`; its time (ms) and its states per check id. */
  const run = (args: string[]): Promise<{ ms: number; states: Map<string, string> }> =>
    new Promise((resolve, reject) => {
      const reports = join(tmp, `r${n++}`);
      const t0 = performance.now();
      // spawned asynchronously: the stack and the proxies of this process keep serving meanwhile
      const child = spawn(
        process.execPath,
        [bin, 'run', ...args, '--seed', String(SEED), '--runs', String(RUNS), '--reports', reports],
        { stdio: 'ignore' },
      );
      child.on('close', (code) => {
        const ms = performance.now() - t0;
        if (code !== 0 && code !== 1) {
          reject(new Error(`bench: cprc run ${args.join(' ')} exited ${code}`));
          return;
        }
        const states = statesOf(reports);
        rmSync(reports, { recursive: true, force: true });
        resolve({ ms, states });
      });
    });
  const load = (): string =>
    loadavg()
      .map((l) => l.toFixed(2))
      .join(' ');
  try {
    say(
      `cprc run: seed ${SEED}, ${RUNS} runs per property, median of ${REPEAT}; node ${process.version}; load average before: ${load()}`,
    );
    // 1. the reference run, as a user types it
    if (PARTS.includes('reference')) await referenceRuns();
    // 2. at a distance
    if (PARTS.includes('distance')) await distanceRuns();
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }

  async function referenceRuns(): Promise<void> {
    const refSerial: number[] = [];
    const refJobs: number[] = [];
    let refStates: Map<string, string> | undefined;
    for (let i = 0; i < REPEAT; i++) {
      const s = await run(['--reference']);
      refSerial.push(s.ms);
      refStates ??= s.states;
      const j = await run(['--reference', '--jobs', String(REFERENCE_JOBS)]);
      refJobs.push(j.ms);
      const moved = sameStates(refStates, j.states);
      if (moved.length > 0)
        say(
          `  ! --jobs ${REFERENCE_JOBS}: ${moved.length} states differ from the serial run: ${moved.slice(0, 5).join('; ')}`,
        );
    }
    say(
      `cprc run --reference (${refStates?.size} checks, stack start included): serial ${(median(refSerial) / 1000).toFixed(1)} s, --jobs ${REFERENCE_JOBS} ${(median(refJobs) / 1000).toFixed(1)} s (${(median(refJobs) / median(refSerial)).toFixed(2)}x)`,
    );
  }

  async function distanceRuns(): Promise<void> {
    // every run gets a stack of its own, started afresh: a stack that lived through an earlier
    // run keeps what that run left (a test clock moved forward, balances spent)
    const cases = [
      { name: 'loopback, serial', delay: undefined, jobs: [] as string[], once: false },
      { name: `loopback, --jobs ${JOBS}`, delay: undefined, jobs: ['--jobs', String(JOBS)], once: false },
      // the serial run at a distance is long: it is measured once
      { name: `${2 * DELAY_MS} ms round trip, serial`, delay: DELAY_MS, jobs: [] as string[], once: true },
      {
        name: `${2 * DELAY_MS} ms round trip, --jobs ${JOBS}`,
        delay: DELAY_MS,
        jobs: ['--jobs', String(JOBS)],
        once: false,
      },
    ];
    const times = cases.map(() => [] as number[]);
    let base: Map<string, string> | undefined;
    let stacks = 0;
    {
      for (let i = 0; i < REPEAT; i++) {
        for (const [k, c] of cases.entries()) {
          if (c.once && i > 0) continue;
          const stack = await startStack(join(tmp, `stack-${stacks++}`), c.delay);
          let r: { ms: number; states: Map<string, string> };
          try {
            r = await run(['--config', stack.config, ...c.jobs]);
          } finally {
            await stack.close();
          }
          times[k]?.push(r.ms);
          say(`  (${c.name}: ${(r.ms / 1000).toFixed(1)} s; load ${load()})`);
          base ??= r.states;
          const moved = sameStates(base, r.states);
          // a run whose verdicts moved measured something else: said, loudly, beside its time
          if (moved.length > 0)
            say(
              `  ! ${c.name}: ${moved.length} states differ from the first run: ${moved.slice(0, 5).join('; ')}`,
            );
        }
      }
      const loop = median(times[0] ?? [1]);
      say(
        `the same suites against a reference stack started here for each run, reached directly and through a TCP proxy holding bytes ${DELAY_MS} ms each way:`,
      );
      for (const [k, c] of cases.entries()) {
        const ms = median(times[k] ?? [0]);
        say(
          `  ${c.name.padEnd(34)} ${(ms / 1000).toFixed(1).padStart(6)} s   ${(ms / loop).toFixed(2)}x loopback serial`,
        );
      }
      say(`load average after: ${load()}`);
    }
  }
}

await main();
