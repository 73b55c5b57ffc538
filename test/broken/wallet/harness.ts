/**
 * How a broken wallet is made and served: the reference wallet core (`createWalletCore`) with
 * one step replaced, served through the reference HTTPS harness (`startWalletHarness`) and, for
 * the stdio channel, by `stdio.ts` in this folder (compiled to `dist/test/broken/wallet/stdio.js`).
 */
import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { writeSecret } from '../../../src/loopback/stack.js';
import {
  createCertificateAuthority,
  issueServerCertificate,
  LOOPBACK_HOSTS,
  writeCaFile,
} from '../../../src/loopback/tls.js';
import type { Rail } from '../../../src/model/cpr.js';
import { packageRoot } from '../../../src/paths.js';
import type { DerivationResult, DerivedPayment } from '../../../src/reference/wallet/derive.js';
import type { DerivationError } from '../../../src/reference/wallet/errors.js';
import { harnessAnswer, startWalletHarness, type WalletCore } from '../../../src/reference/wallet/index.js';
import { DEFAULT_SUPPORTED_RAILS } from '../../../src/reference/wallet/rails.js';
import type { BrokenImplementation } from '../types.js';

/** What a broken core is built from: the options of the reference core. */
export interface CoreOptions {
  /** CAs trusted when retrieving reference URIs (the suite CA). */
  trustedCaPems: string[];
  /** Rails the wallet supports. */
  supportedRails: readonly Rail[];
}

/** Builds the broken wallet core: the reference core with one step replaced. */
export type CoreFactory = (options: CoreOptions) => WalletCore;

/** A broken wallet: its self-test description and the core that carries the fault. */
export interface WalletFault {
  /** kebab-case, prefixed `wallet-`. */
  id: string;
  /** One sentence: what is broken. */
  fault: string;
  /** Requirement IDs the wallet suite must report failed, warning or error, and no others. */
  expected: string[];
  /** See {@link BrokenImplementation.overlapSensitive}. */
  overlapSensitive?: true;
  /** The broken core. */
  core: CoreFactory;
  /** Rails the broken wallet supports and declares in `wallet.supported_rails` (default: the reference's). */
  supportedRails?: readonly Rail[];
  /** Whether the config declares `wallet.supported_rails` (default true; profile 3 makes it optional). */
  declareSupportedRails?: boolean;
  /**
   * The HTTP answer to send instead of the profile's for a derivation result (undefined: the
   * profile's): a wallet whose fault is in its wire answers rather than in its derivation.
   */
  httpAnswer?: (result: DerivationResult) => RawHttpAnswer | undefined;
  /**
   * The stdout line to write instead of the profile's for a derivation result (undefined: the
   * profile's; `'exit'`: the process dies without answering).
   */
  stdioLine?: (result: DerivationResult) => string | 'exit' | undefined;
  /**
   * The answers to a harness request that is not JSON, instead of the profile's 400
   * `INVALID_REQUEST` (undefined: the profile's): the HTTP answer and the stdout line.
   */
  notJson?: { http: RawHttpAnswer; stdioLine: string };
  /**
   * The HTTP answer to a request profile 1 does not define (a method `/harness/derive` does not
   * take, a path that is no endpoint), instead of the reference's 405 / 404 error body
   * (undefined: the reference's; `'derive'`: taken as a derivation, whatever the method or path).
   */
  undefinedAnswer?: (method: string, path: string) => RawHttpAnswer | 'derive' | undefined;
  /**
   * The channels the run config names (default: see {@link channelsOf}). The stdio channel is
   * left out only where it would repeat the HTTP run: both serve the same core.
   */
  channels?: readonly WalletChannel[];
}

/** A channel of the wallet harness (profile 3). */
export type WalletChannel = 'http' | 'stdio';

/**
 * The channels a broken wallet is served on in its self-test run: a fault of the shared core
 * (every channel derives through it, and the suite's checks are the same on both) is proven over
 * HTTP alone, which halves the run; a fault in a channel's own answers (`stdioLine`, `notJson`)
 * is served on both, so each channel's driver is proven on what it reads. Permitted variants
 * always name both channels (every allowed behaviour passes on each).
 */
export function channelsOf(fault: WalletFault): readonly WalletChannel[] {
  if (fault.channels) return fault.channels;
  return fault.stdioLine || fault.notJson ? ['http', 'stdio'] : ['http'];
}

/** An HTTP answer written as is (status, headers, body bytes). */
export interface RawHttpAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** A refusal result with the given code (for `httpAnswer` / `stdioLine` hooks). */
export function refusedWith(result: DerivationResult, code: DerivationError['code']): boolean {
  return !result.ok && result.error.code === code;
}

/**
 * Serves `core` over HTTPS like the reference harness, except that `httpAnswer` may replace the
 * answer to a derivation (the broken wallets of the wire: garbage, redirects, server errors...).
 */
async function startRawHarness(
  core: WalletCore,
  tls: { certPem: string; keyPem: string },
  httpAnswer: (result: DerivationResult) => RawHttpAnswer | undefined,
  notJson: RawHttpAnswer | undefined,
  undefinedAnswer: NonNullable<WalletFault['undefinedAnswer']> = () => undefined,
): Promise<{ harnessUrl: string; close(): Promise<void> }> {
  const server = createServer({ cert: tls.certPem, key: tls.keyPem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        // profile 1: a method /harness/derive does not take, or a path that is no endpoint, gets
        // a 4xx and the error body (as the reference answers them), unless the fault says otherwise
        const method = String(req.method);
        const path = new URL(String(req.url), 'https://127.0.0.1').pathname;
        if (path !== '/harness/derive' || method !== 'POST') {
          const own = undefinedAnswer(method, path);
          if (own !== 'derive') {
            const a =
              own ??
              (path !== '/harness/derive'
                ? jsonAnswer(404, { error: { code: 'NOT_FOUND', message: `no such path ${path}` } })
                : jsonAnswer(405, {
                    error: { code: 'INVALID_REQUEST', message: `${method} is not allowed here` },
                  }));
            res.writeHead(a.status, { ...a.headers });
            res.end(a.body);
            return;
          }
        }
        let answer: RawHttpAnswer;
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          body = undefined;
        }
        if (body === undefined) {
          answer =
            notJson ??
            jsonAnswer(400, { error: { code: 'INVALID_REQUEST', message: 'the body is not json' } });
        } else {
          const result = await core.derive(body);
          const profile = harnessAnswer(result);
          answer = httpAnswer(result) ?? jsonAnswer(profile.status, profile.body);
        }
        res.writeHead(answer.status, { ...answer.headers });
        res.end(answer.body);
      })().catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    harnessUrl: `https://127.0.0.1:${port}/harness`,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await core.close();
    },
  };
}

/** A JSON answer with its content type and length. */
export function jsonAnswer(status: number, body: unknown): RawHttpAnswer {
  const text = JSON.stringify(body);
  return {
    status,
    headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) },
    body: text,
  };
}

/** The harness body fields a wrapper may look at. */
export interface HarnessBody {
  cpr?: Record<string, unknown>;
  uri?: string;
  context?: Record<string, unknown>;
}

/** The harness body as an object, or undefined when it is not one. */
export function bodyOf(body: unknown): HarnessBody | undefined {
  return typeof body === 'object' && body !== null && !Array.isArray(body)
    ? (body as HarnessBody)
    : undefined;
}

/** The CPR object of a harness body, when it carries one directly. */
export function cprOf(body: unknown): Record<string, unknown> | undefined {
  const cpr = bodyOf(body)?.cpr;
  return typeof cpr === 'object' && cpr !== null && !Array.isArray(cpr) ? cpr : undefined;
}

/** A refusal as `derivePayment` returns it. */
export function refusal(code: DerivationError['code'], message: string): DerivationResult {
  return { ok: false, error: { code, message } };
}

/**
 * The reference core with its Payment changed after derivation: `edit` gets a copy of each
 * derived Payment (and the harness body) and returns the Payment to answer.
 */
export function editPayments(
  core: WalletCore,
  edit: (payment: DerivedPayment, body: unknown) => DerivedPayment,
): WalletCore {
  return {
    async derive(body) {
      const result = await core.derive(body);
      if (!result.ok) return result;
      return { ok: true, payment: edit(structuredClone(result.payment), body) };
    },
    close: () => core.close(),
  };
}

/** The reference core with its refusals rewritten (payments pass unchanged). */
export function editRefusals(
  core: WalletCore,
  edit: (error: DerivationError, body: unknown) => DerivationResult,
): WalletCore {
  return {
    async derive(body) {
      const result = await core.derive(body);
      return result.ok ? result : edit(result.error, body);
    },
    close: () => core.close(),
  };
}

/** The reference core with the harness body changed before derivation. */
export function editRequests(core: WalletCore, edit: (body: unknown) => unknown): WalletCore {
  return { derive: (body) => core.derive(edit(structuredClone(body))), close: () => core.close() };
}

/** The reference core with a check of its own answered before derivation (a refusal, or undefined to go on). */
export function refuseFirst(
  core: WalletCore,
  check: (body: unknown) => DerivationResult | undefined,
): WalletCore {
  return {
    async derive(body) {
      return check(body) ?? core.derive(body);
    },
    close: () => core.close(),
  };
}

/** Absolute path of the compiled stdio entry of the broken wallets and the permitted variants. */
export function stdioEntry(): string {
  return join(packageRoot(), 'dist', 'test', 'broken', 'wallet', 'stdio.js');
}

/**
 * Starts a broken wallet on 127.0.0.1 behind a throwaway CA (which is also the suite CA the
 * wallet trusts, profile 3) and returns the run config naming its HTTPS harness and its stdio
 * command (the compiled `stdio.js`, which builds the same broken core).
 */
export async function startBrokenWallet(
  fault: WalletFault,
  workDir: string,
): ReturnType<BrokenImplementation['start']> {
  await mkdir(workDir, { recursive: true });
  const ca = await createCertificateAuthority({
    commonName: `cpr-conformance broken wallet CA (${fault.id})`,
  });
  const server = await issueServerCertificate(ca, { hosts: [...LOOPBACK_HOSTS] });
  const caFile = join(workDir, 'wallet-ca.pem');
  const caKeyFile = join(workDir, 'wallet-ca.key');
  await writeCaFile(caFile, ca);
  await writeSecret(caKeyFile, ca.keyPem);
  const supportedRails = [...(fault.supportedRails ?? DEFAULT_SUPPORTED_RAILS)];
  const core = fault.core({ trustedCaPems: [ca.certPem], supportedRails });
  const wallet =
    fault.httpAnswer || fault.notJson || fault.undefinedAnswer
      ? await startRawHarness(
          core,
          server,
          fault.httpAnswer ?? (() => undefined),
          fault.notJson?.http,
          fault.undefinedAnswer,
        )
      : await startWalletHarness(core, { tls: server });
  return {
    config: {
      tls: { ca_file: caFile, suite_ca_cert_file: caFile, suite_ca_key_file: caKeyFile },
      timeouts: { request_ms: 10_000 },
      wallet: {
        harness_url: wallet.harnessUrl,
        ...(channelsOf(fault).includes('stdio')
          ? {
              command: [
                process.execPath,
                stdioEntry(),
                '--fault',
                fault.id,
                '--ca',
                caFile,
                '--supported-rails',
                supportedRails.join(','),
              ],
            }
          : {}),
        ...(fault.declareSupportedRails === false ? {} : { supported_rails: supportedRails }),
      },
    },
    close: () => wallet.close(),
  };
}

/** The self-test entry of a wallet fault. */
export function brokenWallet(fault: WalletFault): BrokenImplementation & { walletFault: WalletFault } {
  return {
    id: fault.id,
    target: 'wallet',
    fault: fault.fault,
    expected: fault.expected,
    ...(fault.overlapSensitive ? { overlapSensitive: true as const } : {}),
    start: ({ workDir }) => startBrokenWallet(fault, workDir),
    walletFault: fault,
  };
}
