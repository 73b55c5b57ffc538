import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { CprcError } from '../errors.js';
import type { Rail } from '../model/cpr.js';
import { packageRoot } from '../paths.js';
import { startReferenceOperator } from '../reference/operator/index.js';
import { startReferencePayee } from '../reference/payee/index.js';
import { startReferenceWallet } from '../reference/wallet/index.js';
import { DEFAULT_SUPPORTED_RAILS } from '../reference/wallet/rails.js';
import {
  type CertificateAuthority,
  createCertificateAuthority,
  issueServerCertificate,
  LOOPBACK_HOSTS,
  writeCaFile,
} from './tls.js';

/** The reference implementations a stack can run. */
export type StackTarget = 'payee' | 'wallet' | 'operator';

/** The sockets a stack listens on: one per target, and the payee's plain-HTTP one. */
export type StackListener = StackTarget | 'payee_plain';

/** Every {@link StackListener} in port order (`cprc serve --port N` numbers them from N). */
export const STACK_LISTENERS: readonly StackListener[] = ['payee', 'payee_plain', 'wallet', 'operator'];

/** Every {@link StackTarget}, in start order. */
export const STACK_TARGETS: readonly StackTarget[] = ['payee', 'wallet', 'operator'];

/** Token lifetime ceiling of the stack's payee, in seconds (spec 5 rule 1, profile 2). */
const PAYEE_MAX_TOKEN_TTL_SECONDS = 900;
/** Validity window ceiling of the stack's payee, in seconds (30 days, profile 2). */
const PAYEE_MAX_VALIDITY_SECONDS = 30 * 24 * 60 * 60;

/** Options of {@link startReferenceStack}. */
export interface ReferenceStackOptions {
  /** Which implementations to start (default all three). */
  targets?: readonly StackTarget[];
  /** Folder for the CA files and the run config (created if missing). */
  workDir: string;
  /** Port of each listener on 127.0.0.1 (default: any free port). */
  ports?: Partial<Record<StackListener, number>>;
  /** Rails the reference wallet supports (default every rail but SWIFT). */
  supportedRails?: readonly Rail[];
  /**
   * The CA to issue the servers' certificate with (default a new throwaway one). A stack started
   * again with the same CA, ports and work folder is reached by the same run config's clients
   * (the mutation judge restarts the stack per mutant: docs/mutation.md).
   */
  ca?: CertificateAuthority;
}

/** A run config (profile section 5) describing a running stack. */
export interface StackRunConfig {
  tls: { ca_file: string; suite_ca_cert_file: string; suite_ca_key_file: string };
  timeouts: { request_ms: number };
  payee?: {
    base_url: string;
    harness_url: string;
    plain_http_url?: string;
    max_token_ttl_seconds: number;
    max_validity_seconds: number;
  };
  wallet?: { harness_url: string; command: string[]; supported_rails: Rail[] };
  operator?: { base_url: string; harness_url: string } & Record<string, unknown>;
}

/** A running reference stack. */
export interface ReferenceStack {
  /** The run config (profile section 5); it holds secrets (keys, credentials): never print it. */
  config: StackRunConfig;
  /** Where the run config was written (`<workDir>/run-config.json`, mode 0600). */
  configPath: string;
  /** Stops every server of the stack. */
  close(): Promise<void>;
}

/**
 * Starts the reference payee, wallet and Operator on 127.0.0.1 behind one throwaway CA, and
 * writes the run config that points the suite at them. The CA is also the suite CA of profile
 * section 3 (`tls.suite_ca_cert_file`, `tls.suite_ca_key_file`), which the wallet trusts, so the
 * suite can sign its mock payee's certificate. Used by `cprc run --reference` and `cprc serve`.
 *
 * @throws CprcError `CPRC_IO` when the work folder or a file in it cannot be written.
 * @example
 * ```ts
 * const stack = await startReferenceStack({ workDir: await mkdtemp(join(tmpdir(), 'cprc-')) });
 * // run the suites with stack.configPath ...
 * await stack.close();
 * ```
 */
export async function startReferenceStack(options: ReferenceStackOptions): Promise<ReferenceStack> {
  const targets = options.targets ?? STACK_TARGETS;
  const workDir = resolve(options.workDir);
  const caFile = join(workDir, 'ca.pem');
  const caKeyFile = join(workDir, 'ca.key');
  const configPath = join(workDir, 'run-config.json');

  await guardIo(`cannot create the work folder ${workDir}`, () => mkdir(workDir, { recursive: true }));
  const ca =
    options.ca ?? (await createCertificateAuthority({ commonName: 'cpr-conformance reference stack CA' }));
  const server = await issueServerCertificate(ca, { hosts: [...LOOPBACK_HOSTS] });
  await writeCaFile(caFile, ca);
  await writeSecret(caKeyFile, ca.keyPem);

  const closers: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    const errors: unknown[] = [];
    for (const close of closers.splice(0).reverse()) {
      try {
        await close();
      } catch (err) {
        errors.push(err);
      }
    }
    if (errors.length > 0) {
      throw new CprcError('CPRC_INTERNAL', `stopping the reference stack failed: ${String(errors[0])}`);
    }
  };

  const supportedRails = [...(options.supportedRails ?? DEFAULT_SUPPORTED_RAILS)];
  const config: StackRunConfig = {
    tls: { ca_file: caFile, suite_ca_cert_file: caFile, suite_ca_key_file: caKeyFile },
    timeouts: { request_ms: 10_000 },
  };
  try {
    if (targets.includes('payee')) {
      const plainPort = options.ports?.payee_plain;
      const payee = await startReferencePayee({
        tls: server,
        ...portOf(options, 'payee'),
        ...(plainPort === undefined ? {} : { plainPort }),
        maxTokenTtlSeconds: PAYEE_MAX_TOKEN_TTL_SECONDS,
        maxValiditySeconds: PAYEE_MAX_VALIDITY_SECONDS,
      });
      closers.push(() => payee.close());
      config.payee = {
        base_url: payee.baseUrl,
        harness_url: payee.harnessUrl,
        ...(payee.plainHttpUrl === undefined ? {} : { plain_http_url: payee.plainHttpUrl }),
        max_token_ttl_seconds: PAYEE_MAX_TOKEN_TTL_SECONDS,
        max_validity_seconds: PAYEE_MAX_VALIDITY_SECONDS,
      };
    }
    if (targets.includes('wallet')) {
      const wallet = await startReferenceWallet({
        tls: server,
        trustedCaPems: [ca.certPem],
        supportedRails,
        ...portOf(options, 'wallet'),
      });
      closers.push(() => wallet.close());
      config.wallet = {
        harness_url: wallet.harnessUrl,
        command: [
          process.execPath,
          join(packageRoot(), 'bin', 'cprc.js'),
          'wallet-stdio',
          '--ca',
          caFile,
          '--supported-rails',
          supportedRails.join(','),
        ],
        supported_rails: supportedRails,
      };
    }
    if (targets.includes('operator')) {
      const operator = await startReferenceOperator({ tls: server, ...portOf(options, 'operator') });
      closers.push(() => operator.close());
      config.operator = {
        base_url: operator.baseUrl,
        harness_url: operator.harnessUrl,
        ...structuredClone(operator.identities),
      };
    }
    await writeSecret(configPath, `${JSON.stringify(config, null, 2)}\n`);
  } catch (err) {
    await closeAll().catch(() => undefined);
    throw err;
  }

  let closed: Promise<void> | undefined;
  return {
    config,
    configPath,
    close() {
      closed ??= closeAll();
      return closed;
    },
  };
}

function portOf(options: ReferenceStackOptions, target: StackTarget): { port?: number } {
  const port = options.ports?.[target];
  return port === undefined ? {} : { port };
}

/**
 * Writes a file only its owner can read (mode 0600): run configs and CA keys hold secrets.
 *
 * @throws CprcError `CPRC_IO` naming the file.
 */
export async function writeSecret(path: string, text: string): Promise<void> {
  await guardIo(`cannot write ${path}`, async () => {
    await writeFile(path, text, { encoding: 'utf8', mode: 0o600 });
    await chmod(path, 0o600); // an existing file keeps its old mode on writeFile
  });
}

async function guardIo<T>(what: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (cause) {
    if (cause instanceof CprcError) throw cause;
    throw new CprcError(
      'CPRC_IO',
      `${what}: ${(cause as Error).message}; check the path and its permissions`,
      {
        cause,
      },
    );
  }
}
