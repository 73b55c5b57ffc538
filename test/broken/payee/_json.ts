import type { ServerResponse } from 'node:http';
import {
  type CreateRequestParams,
  parseCreateRequest,
  ReferencePayee,
  type ReferencePayeeOptions,
} from '../../../src/reference/payee/index.js';

/** Writes a JSON answer as the reference payee does (the broken payees' own faults aside). */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** 400 INVALID_REQUEST without the message profile 1 asks for (the fault of several broken payees). */
export async function sendBareInvalidRequest(res: ServerResponse): Promise<void> {
  sendJson(res, 400, { error: { code: 'INVALID_REQUEST' } });
}

/**
 * A payee class that refuses the well-formed harness requests `why` names (400 INVALID_REQUEST
 * with `why`'s message, as profile 2 lets a payee refuse what it cannot honour) and is the
 * reference otherwise.
 */
export function refusingPayee(
  why: (params: CreateRequestParams) => string | undefined,
): new (
  options: ReferencePayeeOptions,
) => ReferencePayee {
  return class extends ReferencePayee {
    protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
      const parsed = parseCreateRequest(body);
      const refusal = parsed.ok ? why(parsed.value) : undefined;
      if (refusal !== undefined) {
        sendJson(res, 400, { error: { code: 'INVALID_REQUEST', message: refusal } });
        return Promise.resolve();
      }
      return super.createRequest(body, res);
    }
  };
}

/** A JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
