// Deliberately the wallet's own HTTPS client (not src/net/request.ts): a reference
// implementation shares no client with the suite that grades it.
import { Agent, request } from 'undici';
import { DerivationFailure } from './errors.js';

/**
 * Fetches the CPR JSON behind a reference URI's retrieval URL (spec 4.1). Resolves with the
 * parsed body; rejects with a {@link DerivationFailure} (`TOKEN_REJECTED` when the payee refuses
 * the token, `INVALID_STRUCTURE` when the body is not JSON) or, when the payee cannot be reached
 * or its answer read, with the underlying error (which `derivePayment` turns into `TOKEN_REJECTED`).
 */
export type CprFetcher = (retrievalUrl: string) => Promise<unknown>;

/** Options of {@link createHttpsCprFetcher}. */
export interface HttpsCprFetcherOptions {
  /** PEM certificates of the CAs the wallet trusts (replaces Node's default list when given). */
  trustedCaPems?: string[];
  /** Time allowed for the connection, headers and body, in milliseconds (default 10 000). */
  timeoutMs?: number;
  /** Largest body accepted, in bytes (default 1 MiB). */
  maxBytes?: number;
}

/** An HTTPS CPR fetcher and the means to release its connections. */
export interface HttpsCprFetcher {
  /** The fetcher to pass to `derivePayment` as `options.fetchCpr`. */
  fetchCpr: CprFetcher;
  /** Closes the fetcher's connection pool. */
  close(): Promise<void>;
}

/**
 * Creates a CPR fetcher that retrieves over HTTPS only (spec 5 rule 4), trusting the given CAs,
 * following no redirect. 404 and 410 (unknown, consumed or expired token; profile section 2)
 * and every other non-200 answer give `TOKEN_REJECTED`.
 *
 * @example
 * ```ts
 * const fetcher = createHttpsCprFetcher({ trustedCaPems: [caPem] });
 * const result = await derivePayment({ uri, context }, { fetchCpr: fetcher.fetchCpr });
 * await fetcher.close();
 * ```
 */
export function createHttpsCprFetcher(options: HttpsCprFetcherOptions = {}): HttpsCprFetcher {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const maxBytes = options.maxBytes ?? 1024 * 1024;
  // An empty list, like none, leaves Node's default CAs.
  const ca = options.trustedCaPems?.length ? options.trustedCaPems : undefined;
  const dispatcher = new Agent({ connect: { ca, timeout: timeoutMs } });

  async function fetchCpr(retrievalUrl: string): Promise<unknown> {
    // A url the codec built (an unparsable one, like any failure to connect or to read the answer,
    // rejects with a plain Error, which derivePayment turns into TOKEN_REJECTED).
    const url = new URL(retrievalUrl);
    // Spec 5 rules 4-5: the token travels over TLS only. derivePayment refuses a non-https
    // endpoint before it calls the fetcher; this is the fetcher's own guarantee.
    if (url.protocol !== 'https:') {
      throw new DerivationFailure(
        'TOKEN_REJECTED',
        `the retrieval url ${url.origin} is not https; a cpr token is only sent over tls (spec 5 rule 4)`,
      );
    }
    const response = await request(url, {
      method: 'GET',
      dispatcher,
      headers: { accept: 'application/json' },
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const text = await readLimited(response.body, maxBytes, url.origin);
    if (response.statusCode !== 200) {
      throw new DerivationFailure(
        'TOKEN_REJECTED',
        `the payee at ${url.origin} refused the token with status ${response.statusCode}; ask the payee for a new request`,
      );
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new DerivationFailure(
        'INVALID_STRUCTURE',
        `the payee at ${url.origin} answered a body that is not json`,
      );
    }
  }

  return { fetchCpr, close: () => dispatcher.close() };
}

async function readLimited(
  body: AsyncIterable<Buffer | Uint8Array>,
  maxBytes: number,
  origin: string,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) {
      throw new DerivationFailure(
        'TOKEN_REJECTED',
        `the payee at ${origin} answered more than ${maxBytes} bytes; a cpr is far smaller`,
      );
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks).toString('utf8');
}
