import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CprcError } from '../errors.js';
import type { ReferenceStack, StackListener, StackTarget } from '../loopback/stack.js';
import type { Rail } from '../model/cpr.js';
import { parseRailList } from '../reference/wallet/rails.js';

/**
 * Registers `cprc serve [payee|wallet|operator|all]` (the reference implementations, until
 * SIGINT/SIGTERM) and `cprc wallet-stdio` (the reference wallet's stdio harness, profile section 3).
 *
 * @example
 * ```sh
 * cprc serve all --config-out run-config.json --port 8443
 * echo '{"cpr":{...},"context":{...}}' | cprc wallet-stdio --ca ca.pem
 * ```
 */
export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('start the reference implementations on 127.0.0.1 and write a run config pointing at them')
    .addArgument(
      program
        .createArgument('[target]', 'which implementation to start')
        .choices(['payee', 'wallet', 'operator', 'all'])
        .default('all'),
    )
    .option('--config-out <file>', 'also write the run config (mode 0600: it holds secrets) to this file')
    .option('--port <n>', 'first port to listen on; the others follow (default: free ports)', parsePort)
    .addOption(
      new Option(
        '--supported-rails <list>',
        'rails the reference wallet supports (default: all but SWIFT)',
      ).argParser(parseRails),
    )
    .action(async (target: string, opts: { configOut?: string; port?: number; supportedRails?: Rail[] }) => {
      await serve(target, opts);
    });

  program
    .command('wallet-stdio')
    .description(
      'the reference wallet harness over stdio: one JSON request per line on stdin, one JSON answer per line on stdout',
    )
    .option(
      '--ca <file>',
      'PEM CA certificate to trust when retrieving reference URIs (repeatable)',
      collect,
      [],
    )
    .addOption(
      new Option(
        '--supported-rails <list>',
        'comma-separated rails the wallet supports (default: all but SWIFT)',
      ).argParser(parseRails),
    )
    .action(async (opts: { ca: string[]; supportedRails?: Rail[] }) => {
      await walletStdio(opts);
    });
}

async function serve(target: string, opts: { configOut?: string; port?: number; supportedRails?: Rail[] }) {
  // Loaded on demand: `wallet-stdio` never needs the payee and Operator code.
  const { STACK_LISTENERS, STACK_TARGETS, startReferenceStack, writeSecret } = await import(
    '../loopback/stack.js'
  );
  const targets: readonly StackTarget[] = target === 'all' ? STACK_TARGETS : [target as StackTarget];
  // --port N: the listeners of the started targets take N, N+1, ... in STACK_LISTENERS order.
  const ports: Partial<Record<StackListener, number>> = {};
  if (opts.port !== undefined) {
    const listeners = STACK_LISTENERS.filter((l) => targets.includes(l === 'payee_plain' ? 'payee' : l));
    const first = opts.port;
    if (first + listeners.length - 1 > 65535) {
      throw new CprcError(
        'CPRC_USAGE',
        `--port ${first} leaves no room for ${listeners.length} ports; choose a port up to ${65536 - listeners.length}`,
      );
    }
    listeners.forEach((l, i) => {
      ports[l] = first + i;
    });
  }
  // Ctrl+C is taken from here on, even while the stack starts: the work folder holds the CA key
  // and the run config, so a stop at any moment closes what started and removes the folder.
  const stopped = stopSignal();
  const workDir = await mkdtemp(join(tmpdir(), 'cprc-serve-'));
  let stack: ReferenceStack;
  try {
    stack = await startReferenceStack({
      targets,
      workDir,
      ports,
      ...(opts.supportedRails ? { supportedRails: opts.supportedRails } : {}),
    });
  } catch (err) {
    await rm(workDir, { recursive: true, force: true });
    throw startError(err, opts.port);
  }
  let configPath = stack.configPath;
  try {
    if (opts.configOut !== undefined) {
      configPath = resolve(opts.configOut);
      await writeSecret(configPath, `${JSON.stringify(stack.config, null, 2)}\n`);
    }
  } catch (err) {
    try {
      await stack.close();
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
    throw err;
  }

  // Only URLs and paths are printed: the config's keys and credentials are secrets.
  const { config } = stack;
  const lines = ['cprc serve: reference implementations listening on 127.0.0.1'];
  if (config.payee) {
    lines.push(`  payee     ${config.payee.base_url}`);
    lines.push(`            harness ${config.payee.harness_url}`);
    lines.push(`            plain http ${config.payee.plain_http_url}`);
  }
  if (config.wallet)
    lines.push(`  wallet    harness ${config.wallet.harness_url} (stdio: cprc wallet-stdio)`);
  if (config.operator) {
    lines.push(`  operator  ${config.operator.base_url}`);
    lines.push(`            harness ${config.operator.harness_url}`);
  }
  lines.push(`  ca        ${config.tls.ca_file}`);
  lines.push(`  config    ${configPath}`);
  lines.push('press Ctrl+C to stop');
  process.stdout.write(`${lines.join('\n')}\n`);

  const signal = await stopped;
  try {
    await stack.close();
  } finally {
    // the work folder holds the CA key and the run config: removed even when a server did not close
    await rm(workDir, { recursive: true, force: true });
  }
  process.stdout.write(`cprc serve: ${signal} received, servers stopped\n`);
}

/**
 * The first SIGINT or SIGTERM from now on. The handlers stay until the process ends: a second
 * signal while the servers close does not kill the process halfway (the work folder would stay).
 */
function stopSignal(): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolveSignal) => {
    const onSignal = (sig: NodeJS.Signals) => resolveSignal(sig);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
}

function startError(err: unknown, port: number | undefined): unknown {
  const code = (err as { code?: unknown })?.code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    return new CprcError(
      'CPRC_USAGE',
      `a port from ${port ?? '(free port)'} on is ${code === 'EADDRINUSE' ? 'already in use' : 'not allowed'}; choose another --port`,
      { cause: err },
    );
  }
  return err;
}

async function walletStdio(opts: { ca: string[]; supportedRails?: Rail[] }) {
  const trustedCaPems: string[] = [];
  for (const file of opts.ca) {
    let pem: string;
    try {
      pem = await readFile(file, 'utf8');
    } catch (cause) {
      throw new CprcError(
        'CPRC_IO',
        `cannot read the --ca file ${file}: ${(cause as Error).message}; give the path of a PEM CA certificate`,
        { cause },
      );
    }
    if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
      throw new CprcError(
        'CPRC_INPUT_INVALID',
        `the --ca file ${file} holds no PEM certificate ("-----BEGIN CERTIFICATE-----"); give a PEM CA certificate`,
      );
    }
    trustedCaPems.push(pem);
  }
  const { createWalletCore, serveWalletStdio } = await import('../reference/wallet/index.js');
  const core = createWalletCore({
    trustedCaPems,
    ...(opts.supportedRails ? { supportedRails: opts.supportedRails } : {}),
  });
  // Profile section 3: one JSON line in, one JSON line out, nothing else on stdout.
  await serveWalletStdio(core, process.stdin, process.stdout);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function parsePort(value: string): number {
  if (!/^[0-9]+$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
    throw new InvalidArgumentError('give a port number from 1 to 65535');
  }
  return Number(value);
}

function parseRails(value: string): Rail[] {
  try {
    const rails = parseRailList(value);
    if (rails.length === 0) throw new Error('the list is empty; name at least one rail');
    return rails;
  } catch (err) {
    throw new InvalidArgumentError((err as Error).message);
  }
}
