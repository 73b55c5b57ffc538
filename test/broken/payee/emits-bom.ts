import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { rewriteAnswer } from './_rewrite.js';
import { startBrokenPayee } from './_start.js';

/** Profile 1 broken (no byte order mark in emitted JSON): the CPR is served behind a BOM. */
class BomPayee extends ReferencePayee {
  protected override retrieve(token: string, res: ServerResponse): Promise<void> {
    rewriteAnswer(res, (a) => (a.status === 200 ? { ...a, json: undefined, text: `\uFEFF${a.text}` } : a));
    return super.retrieve(token, res);
  }
}

/** The retrieval body starts with U+FEFF. */
export const emitsBom: BrokenImplementation = {
  id: 'payee-emits-bom',
  target: 'payee',
  fault: 'the CPR retrieval body starts with a byte order mark (U+FEFF)',
  expected: ['PRF-1-JSON-NO-BOM'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, BomPayee),
};
