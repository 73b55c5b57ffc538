import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { PeekableTokenStore } from './_peek.js';
import { startBrokenPayee } from './_start.js';

/** Profile 1 broken: the TOKEN_UNKNOWN error body has no message for a person. */
class TersePayee extends ReferencePayee {
  protected override async retrieve(token: string, res: ServerResponse): Promise<void> {
    if ((this.tokens as PeekableTokenStore).peek(token) !== undefined) return super.retrieve(token, res);
    const body = JSON.stringify({ error: { code: 'TOKEN_UNKNOWN' } });
    res.writeHead(404, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    });
    res.end(body);
  }
}

/** An error body without `error.message`. */
export const errorBodyNoMessage: BrokenImplementation = {
  id: 'payee-error-body-no-message',
  target: 'payee',
  fault: 'the 404 TOKEN_UNKNOWN error body has no "message"',
  expected: ['PRF-1-ERROR-BODY', 'PRF-1-UNDEFINED-REQUEST-ERROR'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new PeekableTokenStore() }, TersePayee),
};
