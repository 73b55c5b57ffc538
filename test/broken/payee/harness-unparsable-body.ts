import type { IncomingMessage } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 1 broken: a harness body that is no JSON text makes the body reader throw (as
 * `JSON.parse` does when nothing catches it), so the handler fails and the payee answers 500.
 * Every body that is JSON is read as the reference reads it.
 */
class UnparsableBodyPayee extends ReferencePayee {
  protected override async readJson(
    req: IncomingMessage,
  ): Promise<{ ok: true; value: unknown } | { ok: false; message: string }> {
    const read = await super.readJson(req);
    if (!read.ok && read.message.startsWith('the body is not valid json'))
      throw new SyntaxError(read.message); // the fault: nothing turns it into 400 INVALID_REQUEST
    return read;
  }
}

/** A harness body that is not JSON text answers 500 instead of 400 INVALID_REQUEST. */
export const harnessUnparsableBody: BrokenImplementation = {
  id: 'payee-harness-unparsable-body',
  target: 'payee',
  fault:
    'a harness body that is no JSON text (empty, cut short, a trailing comma) fails the handler: 500 instead of 400 INVALID_REQUEST',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-1-ERROR-BODY'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, UnparsableBodyPayee),
};
