/**
 * The reference wallet's transports (profile section 3): the HTTPS harness
 * (`POST {harness}/derive`) and the stdio form, both serving a {@link WalletCore}.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import type { ServerCertificate } from '../../loopback/tls.js';
import { createWalletCore, type WalletCore, type WalletCoreOptions } from './core.js';
import type { DerivationResult } from './derive.js';
import type { DerivationError } from './errors.js';

/** Largest harness request body accepted, in bytes. */
const MAX_BODY_BYTES = 1024 * 1024;

/** Options of {@link startReferenceWallet}. */
export interface ReferenceWalletOptions extends WalletCoreOptions {
  /** The server's certificate and key (e.g. `createLoopbackPki().server`). */
  tls: ServerCertificate;
  /** Port to listen on, on 127.0.0.1 (default 0: any free port). */
  port?: number;
}

/** A running reference wallet harness. */
export interface ReferenceWallet {
  /** `https://127.0.0.1:<port>/harness`; derivations are posted to `{harnessUrl}/derive`. */
  harnessUrl: string;
  /** Stops the server and releases the CPR fetcher's connections. */
  close(): Promise<void>;
}

/**
 * The harness answer of profile section 3 for a derivation result: `{payment}` or `{error}`,
 * with the HTTP status of the HTTPS form (200, 422, or 400 for `INVALID_REQUEST`).
 */
export function harnessAnswer(result: DerivationResult): { status: number; body: unknown } {
  if (result.ok) return { status: 200, body: { payment: result.payment } };
  return { status: result.error.code === 'INVALID_REQUEST' ? 400 : 422, body: { error: result.error } };
}

/**
 * The stdio answer of profile section 3 for a derivation result: `{payment}` or `{error}`. The
 * codes are those of the HTTPS form: an error in the harness request itself is `INVALID_REQUEST`
 * on stdio too (profile section 3), only the status is missing.
 */
export function stdioAnswer(result: DerivationResult): { payment: unknown } | { error: DerivationError } {
  if (result.ok) return { payment: result.payment };
  return { error: result.error };
}

/**
 * Starts the reference wallet's HTTPS harness (profile section 3) on 127.0.0.1:
 * `POST {harnessUrl}/derive` `{cpr?|uri?, context}` -> 200 `{payment}`, 422 `{error}`, or 400
 * `INVALID_REQUEST` for a body that is not in the harness shape.
 *
 * @example
 * ```ts
 * const { ca, server } = await createLoopbackPki();
 * const wallet = await startReferenceWallet({ tls: server, trustedCaPems: [ca.certPem] });
 * // POST `${wallet.harnessUrl}/derive` ...
 * await wallet.close();
 * ```
 */
export async function startReferenceWallet(options: ReferenceWalletOptions): Promise<ReferenceWallet> {
  return startWalletHarness(createWalletCore(options), options);
}

/** Options of {@link startWalletHarness}. */
export interface WalletHarnessOptions {
  /** The server's certificate and key. */
  tls: ServerCertificate;
  /** Port to listen on, on 127.0.0.1 (default 0: any free port). */
  port?: number;
}

/**
 * Serves any {@link WalletCore} through the HTTPS form of the wallet harness (profile section 3),
 * on 127.0.0.1; closing the harness also closes the core. {@link startReferenceWallet} serves the
 * reference core this way; tests inject another core (e.g. a deliberately broken one).
 *
 * @example
 * ```ts
 * const core = createWalletCore({ trustedCaPems: [ca.certPem] });
 * const wallet = await startWalletHarness(core, { tls: server });
 * await wallet.close();
 * ```
 */
export async function startWalletHarness(
  core: WalletCore,
  options: WalletHarnessOptions,
): Promise<ReferenceWallet> {
  const server: Server = createServer({ cert: options.tls.certPem, key: options.tls.keyPem }, (req, res) => {
    handle(core, req, res).catch((err: unknown) => {
      send(res, 500, {
        error: {
          code: 'INTERNAL',
          message: `the wallet failed: ${err instanceof Error ? err.message : String(err)}`,
        },
      });
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      // Stryker disable next-line StringLiteral: unobservable from the loopback: with no host the harness listens on every interface, 127.0.0.1 included (test/reference/wallet-config/harness.test.ts reads the address it reports)
      server.listen(options.port ?? 0, '127.0.0.1', () => {
        // Stryker disable next-line StringLiteral: once listening, the listener left would only turn a later server error into a no-op reject; a listening loopback server emits none any check can cause: unobservable
        server.off('error', reject);
        resolve();
      });
    });
  } catch (err) {
    await core.close();
    throw err;
  }
  const { port } = server.address() as AddressInfo;
  let closed: Promise<void> | undefined;
  return {
    harnessUrl: `https://127.0.0.1:${port}/harness`,
    close() {
      closed ??= (async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
        await core.close();
      })();
      return closed;
    },
  };
}

async function handle(core: WalletCore, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // A request a server receives always has its url.
  const path = new URL(req.url as string, 'https://127.0.0.1').pathname;
  if (path !== '/harness/derive') {
    send(res, 404, {
      error: { code: 'NOT_FOUND', message: `no such path ${path}; post derivations to /harness/derive` },
    });
    return;
  }
  if (req.method !== 'POST') {
    res.setHeader('allow', 'POST');
    send(res, 405, {
      error: { code: 'INVALID_REQUEST', message: `${req.method} is not allowed here; use POST` },
    });
    return;
  }
  const text = await readBody(req);
  if (text === undefined) {
    send(res, 413, invalid(`the body is larger than ${MAX_BODY_BYTES} bytes`));
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    send(res, 400, invalid('the body is not json; send {cpr|uri, context} as application/json'));
    return;
  }
  const answer = harnessAnswer(await core.derive(body));
  send(res, answer.status, answer.body);
}

function invalid(message: string): { error: DerivationError } {
  return { error: { code: 'INVALID_REQUEST', message } };
}

/** The body as text, or undefined when it exceeds {@link MAX_BODY_BYTES}. */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) tooLarge = true;
    else chunks.push(chunk);
  }
  return tooLarge ? undefined : Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

/**
 * The stdio form of the wallet harness (profile section 3): reads one JSON request per line and
 * emits one JSON line per request, `{payment}` or `{error}`, strictly in input order. A line that
 * is not JSON answers `{error: {code: 'INVALID_REQUEST'}}` (profile section 3) and processing goes on; blank lines
 * are skipped. Resolves when `lines` ends.
 *
 * @example
 * ```ts
 * const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
 * await serveWalletLines(core, rl, (line) => process.stdout.write(`${line}\n`));
 * ```
 */
export async function serveWalletLines(
  core: WalletCore,
  lines: AsyncIterable<string>,
  emit: (line: string) => void,
): Promise<void> {
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let body: unknown;
    try {
      body = JSON.parse(line);
    } catch {
      emit(
        JSON.stringify({
          error: {
            code: 'INVALID_REQUEST',
            message: 'the line is not json; send one {cpr|uri, context} object per line',
          },
        }),
      );
      continue;
    }
    const result = await core.derive(body);
    emit(JSON.stringify(stdioAnswer(result)));
  }
}

/**
 * Runs the stdio harness (profile section 3) over two streams until `input` ends or `output`
 * is closed by the reader (EPIPE ends the session quietly, like EOF), then closes `core`.
 * Nothing but answer lines is written to `output`.
 *
 * @example
 * ```ts
 * await serveWalletStdio(createWalletCore({ trustedCaPems: [caPem] }), process.stdin, process.stdout);
 * ```
 */
export async function serveWalletStdio(
  core: WalletCore,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  output.on('error', () => lines.close());
  try {
    await serveWalletLines(core, lines, (line) => {
      output.write(`${line}\n`);
    });
  } finally {
    lines.close();
    await core.close();
  }
}
