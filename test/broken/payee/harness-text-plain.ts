import type { BrokenImplementation } from '../types.js';
import { harnessRewritingPayee } from './_harness.js';
import { startBrokenPayee } from './_start.js';

/** Profile 1 broken (JSON answers are application/json): the harness answers a request as text/plain. */
export const harnessTextPlain: BrokenImplementation = {
  id: 'payee-harness-text-plain',
  target: 'payee',
  fault: 'the harness answers POST /requests (201) with Content-Type text/plain',
  expected: ['PRF-1-JSON-UTF8'],
  start: ({ workDir }) =>
    startBrokenPayee(
      workDir,
      {},
      harnessRewritingPayee('requests', (a) =>
        a.status === 201
          ? { ...a, headers: { ...a.headers, 'content-type': 'text/plain; charset=utf-8' } }
          : a,
      ),
    ),
};
