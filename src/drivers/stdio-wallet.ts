import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { createInterface, type Interface } from 'node:readline';
import { parseJsonAnswer } from './http.js';
import { isWellFormedDeriveRequest, readDeriveAnswer } from './http-wallet.js';
import type { Recorder } from './recorder.js';
import { type DeriveInput, type DeriveResult, DriverTransportError, type WalletDriver } from './types.js';

/** Options of the stdio wallet driver. */
export interface StdioWalletOptions {
  /** `wallet.command`: program and arguments (no shell). */
  command: string[];
  /** Bound of one request/answer (`timeouts.request_ms`). */
  timeoutMs: number;
  /** Largest accepted answer line in bytes (`limits.max_response_bytes`). */
  maxLineBytes: number;
  /** Working folder of the command (the config file's folder). */
  cwd?: string;
  /** Extra environment variables of the command (`wallet.env`). */
  env?: Record<string, string>;
  /** Where exchanges are recorded. */
  recorder?: Recorder;
}

const STDERR_TAIL = 2048;

/**
 * The wallet driver over a command (profile section 3): the command is started once and kept
 * for the run; each derivation is one JSON line on its stdin answered by one JSON line on its
 * stdout, one at a time, each bounded by the timeout. A dead process, a timeout or a line that
 * is not JSON, or JSON that is not a profile answer (wrong shape, a code the harness does not
 * have, INVALID_REQUEST to a well-formed request), is a {@link DriverTransportError} (an `error`
 * result, never a rejection) naming what happened; after
 * a death or a timeout, the next request starts the command again.
 * @example
 * ```ts
 * const wallet = createStdioWallet({ command: ['node', 'wallet.js', '--stdio'], timeoutMs: 5000, maxLineBytes: 1 << 20 });
 * const r = await wallet.derive({ cpr, context });
 * await wallet.close?.();
 * ```
 */
export function createStdioWallet(opts: StdioWalletOptions): WalletDriver {
  if (opts.command.length === 0 || typeof opts.command[0] !== 'string' || opts.command[0] === '') {
    throw new DriverTransportError(
      'CPRC_DRIVER',
      'wallet.command is empty; give the program and its arguments',
    );
  }
  const name = opts.command.join(' ');
  let proc: ChildProcessWithoutNullStreams | undefined;
  let lines: Interface | undefined;
  let stderrTail = '';
  let waiting:
    | { owner: ChildProcessWithoutNullStreams; resolve: (line: string) => void; reject: (err: Error) => void }
    | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let closed = false;

  const redact = (s: string): string => (opts.recorder ? opts.recorder.redact(s) : s);
  const tail = (): string => {
    const t = stderrTail.trim();
    return t ? `; its stderr ends with: ${redact(t.slice(-500))}` : '';
  };

  const start = (): ChildProcessWithoutNullStreams => {
    const [program, ...args] = opts.command as [string, ...string[]];
    const p = spawn(program, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...(opts.env ?? {}) },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    stderrTail = '';
    p.stderr.setEncoding('utf8');
    p.stderr.on('data', (d: string) => {
      stderrTail = (stderrTail + d).slice(-STDERR_TAIL);
    });
    p.stdin.on('error', () => {
      // EPIPE when the process died: reported by the exit handler
    });
    // Bound the line being read (limits.max_response_bytes) before readline buffers all of it.
    let pendingBytes = 0;
    p.stdout.on('data', (chunk: Buffer) => {
      const nl = chunk.lastIndexOf(0x0a);
      pendingBytes = nl === -1 ? pendingBytes + chunk.length : chunk.length - nl - 1;
      if (pendingBytes > opts.maxLineBytes) {
        const w = waiting;
        if (proc === p) proc = undefined;
        p.kill('SIGKILL');
        if (w?.owner !== p) return;
        waiting = undefined;
        w.reject(
          new DriverTransportError(
            'CPRC_RESPONSE_TOO_LARGE',
            `wallet command "${name}" wrote a line larger than the cap of ${opts.maxLineBytes} bytes (limits.max_response_bytes)`,
          ),
        );
      }
    });
    const rl = createInterface({ input: p.stdout, crlfDelay: Number.POSITIVE_INFINITY });
    rl.on('line', (line) => {
      const w = waiting;
      if (w?.owner !== p) return;
      waiting = undefined;
      w.resolve(line);
      // a line nobody asked for is ignored (the protocol is strictly request/answer)
    });
    p.on('error', (err) => {
      if (proc === p) proc = undefined;
      const w = waiting;
      if (w?.owner !== p) return;
      waiting = undefined;
      w.reject(
        new DriverTransportError(
          'CPRC_DRIVER',
          `wallet command "${name}" could not be started: ${err.message}`,
        ),
      );
    });
    p.on('exit', (code, signal) => {
      if (proc === p) proc = undefined;
      const w = waiting;
      if (w?.owner !== p) return;
      waiting = undefined;
      w.reject(
        new DriverTransportError(
          'CPRC_DRIVER',
          `wallet command "${name}" exited (${signal ? `signal ${signal}` : `code ${code}`}) before answering${tail()}`,
        ),
      );
    });
    proc = p;
    lines = rl;
    return p;
  };

  const exchangeLine = (request: string): Promise<string> =>
    new Promise<string>((resolve, reject) => {
      const p = proc ?? start();
      const timer = setTimeout(() => {
        waiting = undefined;
        // the protocol is out of step after a timeout: stop this process, the next request restarts it
        if (proc === p) proc = undefined;
        p.kill('SIGKILL');
        reject(
          new DriverTransportError(
            'CPRC_TIMEOUT',
            `wallet command "${name}" did not answer within ${opts.timeoutMs} ms (timeouts.request_ms)${tail()}`,
          ),
        );
      }, opts.timeoutMs);
      waiting = {
        owner: p,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      };
      p.stdin.write(`${request}\n`);
    });

  const derive = async (request: string, requestWellFormed: boolean): Promise<DeriveResult> => {
    if (closed) throw new DriverTransportError('CPRC_DRIVER', `wallet command "${name}" was already closed`);
    const started = performance.now();
    let line: string;
    try {
      line = await exchangeLine(request);
    } catch (err) {
      opts.recorder?.record({
        kind: 'stdio',
        url: name,
        request_body: request,
        duration_ms: Math.round(performance.now() - started),
        error: (err as Error).message,
      });
      throw err;
    }
    opts.recorder?.record({
      kind: 'stdio',
      url: name,
      request_body: request,
      response_body: line,
      duration_ms: Math.round(performance.now() - started),
    });
    if (Buffer.byteLength(line, 'utf8') > opts.maxLineBytes) {
      throw new DriverTransportError(
        'CPRC_RESPONSE_TOO_LARGE',
        `wallet command "${name}" answered a line larger than the cap of ${opts.maxLineBytes} bytes (limits.max_response_bytes)`,
      );
    }
    // parsed as every target answer is: any depth is safe (beyond MAX_JSON_DEPTH a named error)
    const parsed = parseJsonAnswer(line);
    if (!('json' in parsed)) {
      throw new DriverTransportError(
        'CPRC_DRIVER',
        `wallet command "${name}" wrote a line that is not JSON: ${JSON.stringify(redact(line.slice(0, 200)))} (${parsed.error}); it must answer each request with one JSON line on stdout (log to stderr)`,
      );
    }
    const answer: unknown = parsed.json;
    return readDeriveAnswer(answer, {
      requestWellFormed,
      who: `wallet command "${name}"`,
    });
  };

  /** One request at a time on the pipe. */
  const serialised = (request: string, requestWellFormed: boolean): Promise<DeriveResult> => {
    const next = queue.then(
      () => derive(request, requestWellFormed),
      () => derive(request, requestWellFormed),
    );
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    channel: 'stdio',
    derive(input: DeriveInput): Promise<DeriveResult> {
      return serialised(JSON.stringify(input), isWellFormedDeriveRequest(input));
    },
    deriveText(text: string): Promise<DeriveResult> {
      if (/[\r\n]/.test(text)) {
        return Promise.reject(
          new DriverTransportError('CPRC_DRIVER', 'a stdio harness request is one line: no line break'),
        );
      }
      return serialised(text, false);
    },
    async restart(): Promise<void> {
      // after the requests queued so far: the next one starts the command afresh
      await queue;
      await stop();
    },
    async close(): Promise<void> {
      closed = true;
      await stop();
    },
  };

  /** Ends the running command, if any (SIGTERM with its stdin closed; SIGKILL after 2 s). */
  async function stop(): Promise<void> {
    const p = proc;
    proc = undefined;
    lines?.close();
    if (!p || p.exitCode !== null || p.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        p.kill('SIGKILL');
      }, 2000);
      p.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      p.stdin.end();
      p.kill('SIGTERM');
    });
  }
}
