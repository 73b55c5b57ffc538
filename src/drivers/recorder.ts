import { AsyncLocalStorage } from 'node:async_hooks';
import type { Exchange } from '../model/results.js';
import { eraseSecrets, redactHeaders, redactText } from '../secrets/index.js';

/** Bodies recorded as evidence are cut to this many bytes (contract with the reporters). */
export const MAX_RECORDED_BODY_BYTES = 8 * 1024;

// The secrets policy is src/secrets/ (one module, applied here at capture and again by the
// reporters): import it from there.

/** Cuts a body to {@link MAX_RECORDED_BODY_BYTES} UTF-8 bytes, with a visible marker. */
export function truncateBody(text: string): string {
  // counted without a copy: only a body over the cap is encoded
  if (Buffer.byteLength(text, 'utf8') <= MAX_RECORDED_BODY_BYTES) return text;
  const bytes = Buffer.from(text, 'utf8');
  // Cutting may split a character; the decoder replaces the broken tail, which is fine for evidence.
  const head = bytes.subarray(0, MAX_RECORDED_BODY_BYTES).toString('utf8');
  return `${head}…[truncated ${bytes.length - MAX_RECORDED_BODY_BYTES} bytes]`;
}

/**
 * Records the exchanges of a run as evidence, redacting secrets on the way in, so nothing
 * secret is ever held in a recorded exchange. The runner takes the exchanges recorded since the
 * last take at the end of every test.
 * @example
 * ```ts
 * const recorder = new Recorder(secretsOf(config));
 * recorder.record({ kind: 'http', method: 'GET', url, status: 200, duration_ms: 3 });
 * const evidence = recorder.take(); // [ { ... } ], and the buffer is empty again
 * ```
 */
export class Recorder {
  readonly #secrets: string[];
  #buffer: Exchange[] = [];
  #listeners: Array<(e: Exchange) => void> = [];
  /** The buffer of the {@link collect} call the current async context runs in, if any. */
  readonly #collecting = new AsyncLocalStorage<Exchange[]>();
  /** Buffers of {@link collect} calls that have ended (handed back: nothing more goes in). */
  readonly #ended = new WeakSet<Exchange[]>();

  /** @param secrets values that must never appear in evidence (see {@link secretsOf}). */
  constructor(secrets: readonly string[] = []) {
    this.#secrets = [...secrets].sort((a, b) => b.length - a.length);
  }

  /** The secrets this recorder redacts (for other redaction needs of the run, e.g. messages). */
  get secrets(): readonly string[] {
    return this.#secrets;
  }

  /** Redacts and records one exchange; returns the stored (redacted) copy. */
  record(exchange: Exchange): Exchange {
    return this.#record(exchange, this.#collecting.getStore());
  }

  /**
   * A `record` bound to where the current async context records: an exchange recorded through it
   * later, from any async context (a server handler answering a request this work caused), goes
   * with this work's own exchanges, in the order it happens, as in a serial run; once that
   * {@link collect} has ended, where the caller's context records.
   * @example
   * ```ts
   * const recordHere = recorder.recordFromHere(); // when the mock payee offers a document
   * // later, in the mock payee's request handler:
   * recordHere({ kind: 'http', method: 'GET', url: 'mock-payee /cpr/abc', status: 200 });
   * ```
   */
  recordFromHere(): (exchange: Exchange) => Exchange {
    const store = this.#collecting.getStore();
    return (exchange) =>
      this.#record(exchange, store && !this.#ended.has(store) ? store : this.#collecting.getStore());
  }

  #record(exchange: Exchange, to: Exchange[] | undefined): Exchange {
    const e: Exchange = { ...exchange };
    if (e.url !== undefined) e.url = this.redact(e.url);
    if (e.request_headers) e.request_headers = redactHeaders(e.request_headers, this.#secrets);
    if (e.response_headers) e.response_headers = redactHeaders(e.response_headers, this.#secrets);
    if (e.request_body !== undefined)
      e.request_body = truncateBody(redactText(e.request_body, this.#secrets));
    if (e.response_body !== undefined)
      e.response_body = truncateBody(redactText(e.response_body, this.#secrets));
    if (e.error !== undefined) e.error = this.redact(e.error);
    (to ?? this.#buffer).push(e);
    for (const l of this.#listeners) l(e);
    return e;
  }

  /** Replaces every secret value in `text` by `[redacted]`. */
  redact(text: string): string {
    return eraseSecrets(text, this.#secrets);
  }

  /** Returns the exchanges recorded since the last take and empties the buffer. */
  take(): Exchange[] {
    const collecting = this.#collecting.getStore();
    if (collecting) return collecting.splice(0);
    const out = this.#buffer;
    this.#buffer = [];
    return out;
  }

  /**
   * Runs `work` with the exchanges it records (in its own async context: work running beside it
   * records elsewhere) kept apart from the buffer and handed back, so that work done side by side
   * can be put in the buffer in an order of the caller's choosing ({@link keep}).
   */
  async collect<T>(work: () => Promise<T>): Promise<{ value: T; exchanges: Exchange[] }> {
    const exchanges: Exchange[] = [];
    try {
      const value = await this.#collecting.run(exchanges, work);
      return { value, exchanges };
    } finally {
      this.#ended.add(exchanges);
    }
  }

  /**
   * Appends exchanges this recorder recorded before ({@link collect}) to the buffer (or to the
   * enclosing {@link collect}'s). Inside a `collect`, {@link take} too takes only what it recorded.
   */
  keep(exchanges: readonly Exchange[]): void {
    const to = this.#collecting.getStore() ?? this.#buffer;
    for (const e of exchanges) to.push(e);
  }

  /** Calls `listener` for every exchange recorded from now on; returns an unsubscribe function. */
  onRecord(listener: (e: Exchange) => void): () => void {
    this.#listeners.push(listener);
    return () => {
      this.#listeners = this.#listeners.filter((l) => l !== listener);
    };
  }
}
