/**
 * Rewrites one JSON answer of the reference payee before it leaves: the tool several broken
 * payees use to change exactly one thing on the wire (a status, a member) without copying the
 * reference's handlers. The reference writes each answer with one `writeHead` and one `end`
 * (see `send` in src/reference/payee/server.ts); both are intercepted and replayed.
 */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** An answer as the reference wrote it, and what the fault makes of it. */
export interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  /** The parsed body (undefined when it is not JSON). */
  json: unknown;
  /** The body text. */
  text: string;
}

/**
 * Intercepts the next answer written to `res` and passes it through `transform` (which may be
 * async and returns the answer to send). Call before delegating to the reference handler.
 * @example
 * ```ts
 * rewriteAnswer(res, (a) => ({ ...a, status: a.status === 201 ? 200 : a.status }));
 * return super.createRequest(body, res);
 * ```
 */
export function rewriteAnswer(res: ServerResponse, transform: (a: Answer) => Answer | Promise<Answer>): void {
  const writeHead = res.writeHead.bind(res);
  const end = res.end.bind(res);
  let status = 200;
  let headers: OutgoingHttpHeaders = {};
  res.writeHead = ((code: number, h?: OutgoingHttpHeaders) => {
    status = code;
    headers = { ...(h ?? {}) };
    return res;
  }) as typeof res.writeHead;
  res.end = ((chunk?: unknown) => {
    const text = chunk === undefined ? '' : String(chunk);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    void Promise.resolve(transform({ status, headers, json, text })).then(
      (a) => {
        const body = a.json === undefined ? a.text : JSON.stringify(a.json);
        writeHead(a.status, { ...a.headers, 'content-length': String(Buffer.byteLength(body)) });
        end(body);
      },
      () => {
        writeHead(500, { 'content-type': 'application/json' });
        end(JSON.stringify({ error: { code: 'INVALID_REQUEST', message: 'the broken payee failed' } }));
      },
    );
    return res;
  }) as typeof res.end;
}
