import type { ServerResponse } from 'node:http';

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

/** A JSON object (not null, not an array). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
