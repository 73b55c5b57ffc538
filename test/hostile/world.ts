/**
 * The world of the hostile-target tests: the reference stack as the real implementations, a
 * hostile double in front of each target, a run config pointing the suite at the doubles, and a
 * `cprc run` of the built CLI measured for wall time and peak memory.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ReferenceStack, startReferenceStack } from '../../src/loopback/stack.js';
import { issueServerCertificate } from '../../src/loopback/tls.js';
import { packageRoot } from '../../src/paths.js';
import { type HostileDouble, type Mode, startHostileDouble } from './double.js';

/**
 * The timeout of every request in the hostile runs: small enough that a dead target costs seconds,
 * large enough that a loaded two-core machine still answers a healthy request in time.
 */
export const REQUEST_MS = 2000;

/** The reference stack behind every double of a test file, with its CA. */
export interface World {
  stack: ReferenceStack;
  dir: string;
  ca: { certPem: string; keyPem: string };
  tls: { certPem: string; keyPem: string };
  close(): Promise<void>;
}

/** Starts the reference payee, wallet and Operator once for a test file. */
export async function startWorld(): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), 'cprc-hostile-'));
  // HOSTILE_KEEP=1 keeps the run folders (configs and reports) for a look
  const remove = (): void => {
    if (process.env.HOSTILE_KEEP) console.log(`hostile runs kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
  let stack: ReferenceStack | undefined;
  try {
    stack = await startReferenceStack({ workDir: join(dir, 'stack') });
    const ca = {
      certPem: readFileSync(stack.config.tls.ca_file, 'utf8'),
      keyPem: readFileSync(stack.config.tls.suite_ca_key_file, 'utf8'),
    };
    const tls = await issueServerCertificate(ca, { hosts: ['127.0.0.1'] });
    const started = stack;
    return {
      stack: started,
      dir,
      ca,
      tls,
      close: async () => {
        try {
          await started.close();
        } finally {
          remove();
        }
      },
    };
  } catch (err) {
    // a world that did not start leaves no folder (it holds the stack's CA key)
    await stack?.close().catch(() => {});
    remove();
    throw err;
  }
}

/** Path of a URL (`/harness`), `/` for an origin. */
function pathOf(url: string): string {
  return new URL(url).pathname;
}

/** A target behind its double, for one run. */
export interface Doubled {
  doubles: Partial<Record<'payee' | 'wallet' | 'operator', HostileDouble>>;
  configPath: string;
  reportsDir: string;
  close(): Promise<void>;
}

/**
 * Puts a double showing `mode` in front of each of `targets` and writes the run config that
 * points the suite at the doubles.
 */
export async function doubled(
  world: World,
  mode: Mode,
  targets: readonly ('payee' | 'wallet' | 'operator')[],
  extra: { healthyRequests?: number; requestMs?: number; tls?: { certPem: string; keyPem: string } } = {},
): Promise<Doubled> {
  const ref = world.stack.config;
  const runDir = mkdtempSync(join(world.dir, `${mode}-`));
  const doubles: Doubled['doubles'] = {};
  const start = (upstreamUrl: string, paths: string[]): Promise<HostileDouble> =>
    startHostileDouble({
      tls: extra.tls ?? world.tls,
      upstream: new URL(upstreamUrl).origin,
      upstreamCa: world.ca.certPem,
      mode,
      passPaths: paths,
      ...(extra.healthyRequests !== undefined ? { healthyRequests: extra.healthyRequests } : {}),
    });
  const config: Record<string, unknown> = {
    tls: ref.tls,
    timeouts: { request_ms: extra.requestMs ?? REQUEST_MS },
  };
  const swap = (url: string, d: HostileDouble): string => `${d.url}${pathOf(url).replace(/\/$/, '')}`;
  if (targets.includes('payee') && ref.payee) {
    const d = await start(ref.payee.base_url, [pathOf(ref.payee.base_url), pathOf(ref.payee.harness_url)]);
    doubles.payee = d;
    config.payee = {
      base_url: swap(ref.payee.base_url, d),
      harness_url: swap(ref.payee.harness_url, d),
      max_token_ttl_seconds: ref.payee.max_token_ttl_seconds,
      max_validity_seconds: ref.payee.max_validity_seconds,
    };
  }
  if (targets.includes('wallet') && ref.wallet) {
    const d = await start(ref.wallet.harness_url, [pathOf(ref.wallet.harness_url)]);
    doubles.wallet = d;
    config.wallet = {
      harness_url: swap(ref.wallet.harness_url, d),
      supported_rails: ref.wallet.supported_rails,
    };
  }
  if (targets.includes('operator') && ref.operator) {
    const d = await start(ref.operator.base_url, [
      pathOf(ref.operator.base_url),
      pathOf(ref.operator.harness_url),
    ]);
    doubles.operator = d;
    config.operator = {
      ...ref.operator,
      base_url: swap(ref.operator.base_url, d),
      harness_url: swap(ref.operator.harness_url, d),
    };
  }
  const configPath = join(runDir, 'run.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2), { mode: 0o600 });
  const reportsDir = join(runDir, 'reports');
  mkdirSync(reportsDir);
  return {
    doubles,
    configPath,
    reportsDir,
    close: async () => {
      await Promise.all(Object.values(doubles).map((d) => d.close()));
    },
  };
}

/** What a measured `cprc run` gave. */
export interface Measured {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Wall time of the whole command (ms). */
  wallMs: number;
  /** Peak resident memory of the largest process of the run (parent or suite child), in MB. */
  peakMb: number | undefined;
}

const TIME = '/usr/bin/time';

/**
 * Runs the built `cprc run` against `configPath` (fixed seed, few runs per property), measuring
 * wall time and, with GNU time, the peak RSS of the largest process of the run.
 */
export function cprcRun(configPath: string, reportsDir: string, args: string[] = []): Promise<Measured> {
  const cli = join(packageRoot(), 'bin', 'cprc.js');
  const argv = [
    cli,
    'run',
    '--config',
    configPath,
    '--reports',
    reportsDir,
    '--seed',
    '1',
    '--runs',
    '3',
    ...args,
  ];
  const timed = existsSync(TIME);
  const marker = '@@peak-kb ';
  const [cmd, cmdArgs] = timed
    ? [TIME, ['-f', `${marker}%M`, process.execPath, ...argv]]
    : [process.execPath, argv];
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs as string[], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('close', (code) => {
      const m = new RegExp(`${marker}(\\d+)`).exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(new RegExp(`${marker}\\d+\\n?`), ''),
        wallMs: Date.now() - started,
        peakMb: m ? Number(m[1]) / 1024 : undefined,
      });
    });
  });
}
