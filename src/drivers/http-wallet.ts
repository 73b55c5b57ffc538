import { errorFromResponse, type HttpClient, joinUrl } from './http.js';
import type { DeriveInput, DeriveResult, WalletDriver } from './types.js';

/**
 * Reads a derivation answer (profile section 3): `{payment}` is a success; `{error: {code,
 * message}}` a rejection; anything else is reported as a rejection without a code that says
 * what the answer lacked, so checks fail with a clear message.
 */
export function readDeriveAnswer(answer: unknown, status?: number): DeriveResult {
  const a = answer as { payment?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  const withStatus = status === undefined ? {} : { status };
  if (a && typeof a === 'object' && a.payment && typeof a.payment === 'object' && !Array.isArray(a.payment)) {
    if (status === undefined || (status >= 200 && status < 300)) {
      return { ok: true, payment: a.payment as Record<string, unknown>, ...withStatus };
    }
  }
  if (a && typeof a === 'object' && a.error && typeof a.error === 'object') {
    const out: { code?: string; message?: string; status?: number; body: unknown } = {
      body: answer,
      ...withStatus,
    };
    if (typeof a.error.code === 'string') out.code = a.error.code;
    if (typeof a.error.message === 'string') out.message = a.error.message;
    return { ok: false, error: out };
  }
  return {
    ok: false,
    error: {
      ...withStatus,
      message: 'the answer has neither a "payment" nor an "error" object',
      body: answer,
    },
  };
}

/**
 * The default wallet driver over the HTTP harness: `POST {harness_url}/derive` (profile section 3).
 * @example
 * ```ts
 * const wallet = createHttpWallet('https://127.0.0.1:9443/harness', http);
 * const r = await wallet.derive({ cpr, context: { payer, rail, authorization } });
 * ```
 */
export function createHttpWallet(harnessUrl: string, http: HttpClient): WalletDriver {
  return {
    channel: 'http',
    async derive(input: DeriveInput): Promise<DeriveResult> {
      const res = await http.exchange({ method: 'POST', url: joinUrl(harnessUrl, 'derive'), json: input });
      if (res.json === undefined) {
        return {
          ok: false,
          error: { ...errorFromResponse(res), message: res.jsonError ?? 'the body is not JSON' },
        };
      }
      return readDeriveAnswer(res.json, res.status);
    },
  };
}
