/**
 * Drivers: typed interfaces of the three targets and the default HTTPS/stdio drivers.
 * @packageDocumentation
 */
import { pathToFileURL } from 'node:url';
import { CprcError } from '../errors.js';
import type { RunConfig } from '../generated/tool/run-config.js';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_REQUEST_TIMEOUT_MS, HttpClient } from './http.js';
import { createHttpOperator } from './http-operator.js';
import { createHttpPayee } from './http-payee.js';
import { createHttpWallet } from './http-wallet.js';
import type { Recorder } from './recorder.js';
import { createStdioWallet } from './stdio-wallet.js';
import type { CreateDrivers, Drivers } from './types.js';

export * from './http.js';
export * from './http-operator.js';
export * from './http-payee.js';
export * from './http-wallet.js';
export * from './recorder.js';
export * from './stdio-wallet.js';
export * from './types.js';

/** Options of {@link createDefaultDrivers}. */
export interface DefaultDriverOptions {
  recorder: Recorder;
  /** Folder of the config file (working folder of `wallet.command`). */
  configDir?: string;
}

/**
 * The default drivers for every target section present in `config`: HTTPS payee, wallet over
 * HTTP and/or stdio (one driver per channel, HTTP first), HTTPS Operator. Call `close()` at the
 * end of the run.
 * @example
 * ```ts
 * const { drivers, close } = createDefaultDrivers(config, { recorder });
 * ```
 */
export function createDefaultDrivers(
  config: RunConfig,
  options: DefaultDriverOptions,
): { drivers: Drivers; close: () => Promise<void>; reset: () => Promise<void> } {
  const timeoutMs = config.timeouts?.request_ms ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const maxResponseBytes = config.limits?.max_response_bytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  // One client per target: each has its own circuit breaker, so a target that dies ends its own
  // remaining checks at once ("circuit open: payee stopped answering at ...") and no other's.
  const clients: HttpClient[] = [];
  const clientFor = (target: string): HttpClient => {
    const client = new HttpClient({
      ...(config.tls?.ca_file ? { caFile: config.tls.ca_file } : {}),
      timeoutMs,
      maxResponseBytes,
      recorder: options.recorder,
      target,
    });
    clients.push(client);
    return client;
  };
  const drivers: Drivers = {};
  if (config.payee) drivers.payee = createHttpPayee(config.payee, clientFor('payee'));
  if (config.wallet) {
    const wallets = [];
    if (config.wallet.harness_url)
      wallets.push(createHttpWallet(config.wallet.harness_url, clientFor('wallet')));
    if (config.wallet.command && config.wallet.command.length > 0) {
      wallets.push(
        createStdioWallet({
          command: config.wallet.command,
          timeoutMs,
          maxLineBytes: maxResponseBytes,
          recorder: options.recorder,
          ...(config.wallet.env ? { env: config.wallet.env } : {}),
          ...(config.wallet.cwd
            ? { cwd: config.wallet.cwd }
            : options.configDir
              ? { cwd: options.configDir }
              : {}),
        }),
      );
    }
    drivers.wallets = wallets;
  }
  if (config.operator) drivers.operator = createHttpOperator(config.operator, clientFor('operator'));
  return {
    drivers,
    close: async () => {
      await Promise.allSettled((drivers.wallets ?? []).map((w) => w.close?.()));
      await Promise.allSettled(clients.map((c) => c.close()));
    },
    // as a new run's drivers would be: every circuit closed, no wallet command running
    reset: async () => {
      for (const c of clients) c.resetCircuits();
      await Promise.allSettled((drivers.wallets ?? []).map((w) => w.restart?.()));
    },
  };
}

/**
 * Loads an implementer's driver module (`cprc run --driver FILE`) and merges what it returns
 * over the defaults: each target it provides replaces the default driver of that target.
 * @example
 * ```ts
 * const drivers = await loadDriverModule('/abs/my-driver.js', config, { recorder });
 * ```
 */
export async function loadDriverModule(
  file: string,
  config: RunConfig,
  ctx: { recorder: Recorder },
): Promise<Drivers> {
  let mod: { createDrivers?: unknown };
  try {
    mod = (await import(pathToFileURL(file).href)) as { createDrivers?: unknown };
  } catch (err) {
    throw new CprcError(
      'CPRC_DRIVER',
      `--driver ${file}: cannot load the module (${(err as Error).message}); give a JavaScript ES module (see docs/drivers.md)`,
    );
  }
  if (typeof mod.createDrivers !== 'function') {
    throw new CprcError(
      'CPRC_DRIVER',
      `--driver ${file}: the module does not export a function "createDrivers(config, { recorder })" (see docs/drivers.md)`,
    );
  }
  let drivers: unknown;
  try {
    drivers = await (mod.createDrivers as CreateDrivers)(config, ctx);
  } catch (err) {
    throw new CprcError(
      'CPRC_DRIVER',
      `--driver ${file}: createDrivers failed: ${ctx.recorder.redact((err as Error).message)}`,
    );
  }
  if (!drivers || typeof drivers !== 'object') {
    throw new CprcError(
      'CPRC_DRIVER',
      `--driver ${file}: createDrivers must return an object { payee?, wallets?, operator? }`,
    );
  }
  const d = drivers as Drivers;
  if (d.wallets !== undefined && !Array.isArray(d.wallets)) {
    throw new CprcError('CPRC_DRIVER', `--driver ${file}: "wallets" must be an array of wallet drivers`);
  }
  for (const w of d.wallets ?? []) {
    if (typeof w?.derive !== 'function' || (w.channel !== 'http' && w.channel !== 'stdio')) {
      throw new CprcError(
        'CPRC_DRIVER',
        `--driver ${file}: every wallet driver needs derive(input) and channel "http" or "stdio"`,
      );
    }
  }
  if (d.payee !== undefined && typeof d.payee.retrieve !== 'function') {
    throw new CprcError('CPRC_DRIVER', `--driver ${file}: the payee driver needs retrieve(tokenOrUri)`);
  }
  if (d.operator !== undefined) {
    for (const m of ['issue', 'renew', 'redeem', 'status', 'policy', 'publicKey'] as const) {
      if (typeof d.operator[m] !== 'function') {
        throw new CprcError('CPRC_DRIVER', `--driver ${file}: the operator driver needs ${m}()`);
      }
    }
  }
  return d;
}
