import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken: the first use answers 203 instead of 200. */
class NonAuthoritativePayee extends ReferencePayee {
  protected override retrieve(token: string, res: ServerResponse): Promise<void> {
    rewriteAnswer(res, (a) => (a.status === 200 ? { ...a, status: 203 } : a));
    return super.retrieve(token, res);
  }
}

/** The CPR comes with HTTP 203. */
export const retrieval203: BrokenImplementation = {
  id: 'payee-retrieval-203',
  target: 'payee',
  fault: 'the first use of a token answers 203 (with the CPR) instead of 200',
  expected: ['PRF-2-RETRIEVAL-200'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, NonAuthoritativePayee),
};
