import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/** Spec 4.1 broken: the CPR is served as text/plain. */
class TextPlainPayee extends ReferencePayee {
  protected override retrieve(token: string, res: ServerResponse): Promise<void> {
    rewriteAnswer(res, (a) =>
      a.status === 200 ? { ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' } } : a,
    );
    return super.retrieve(token, res);
  }
}

/** The retrieval answers Content-Type text/plain. */
export const contentTypeText: BrokenImplementation = {
  id: 'payee-content-type-text',
  target: 'payee',
  fault: 'the CPR is served with Content-Type text/plain instead of application/json',
  expected: ['CPR-4.1-CONTENT-TYPE', 'PRF-1-JSON-UTF8'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, TextPlainPayee),
};
