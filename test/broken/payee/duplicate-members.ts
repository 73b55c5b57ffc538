import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 1 broken (no duplicate member names in emitted JSON): the CPR text repeats
 * `cpr_version`, first with a stale value. A parser keeping the last one reads the right CPR.
 */
class DuplicatingPayee extends ReferencePayee {
  protected override retrieve(token: string, res: ServerResponse): Promise<void> {
    rewriteAnswer(res, (a) =>
      a.status === 200 && a.text.startsWith('{')
        ? { ...a, json: undefined, text: `{"cpr_version":"CPR-0.9",${a.text.slice(1)}` }
        : a,
    );
    return super.retrieve(token, res);
  }
}

/** The retrieval body has a member name twice. */
export const duplicateMembers: BrokenImplementation = {
  id: 'payee-duplicate-members',
  target: 'payee',
  fault: 'the CPR retrieval body repeats the member "cpr_version" (a stale value first)',
  expected: ['PRF-1-JSON-UNIQUE-MEMBER-NAMES'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, DuplicatingPayee),
};
