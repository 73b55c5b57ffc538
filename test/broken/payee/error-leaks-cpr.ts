import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { PeekableTokenStore } from './_peek.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: the TOKEN_CONSUMED answer repeats the CPR "for convenience". */
class LeakingPayee extends ReferencePayee {
  protected override async retrieve(token: string, res: ServerResponse): Promise<void> {
    const record = (this.tokens as PeekableTokenStore).peek(token);
    if (record?.consumed !== true) return super.retrieve(token, res);
    const body = JSON.stringify({
      error: { code: 'TOKEN_CONSUMED', message: 'this token was already used; here is the CPR it served' },
      cpr: JSON.parse(record.body) as unknown,
    });
    res.writeHead(410, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    });
    res.end(body);
  }
}

/** The error body of a consumed token carries the CPR. */
export const errorLeaksCpr: BrokenImplementation = {
  id: 'payee-error-leaks-cpr',
  target: 'payee',
  fault: 'the 410 TOKEN_CONSUMED error body also carries the CPR the token served',
  expected: ['PRF-2-NO-CPR-IN-ERROR'],
  start: ({ workDir }) => startBrokenPayee(workDir, { tokenStore: new PeekableTokenStore() }, LeakingPayee),
};
