import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

type Obj = Record<string, unknown>;

/**
 * Robustness broken: a message that is JSON `null` reaches `'signature' in value`, which throws
 * a TypeError: the server answers 500 instead of 400 INVALID_REQUEST.
 */
class NullUnsafeParser extends MessageParser {
  protected override signedObject(value: unknown, where: string): Obj {
    if (value === null) void ('signature' in (value as unknown as object)); // the fault: throws on null
    return super.signedObject(value, where);
  }

  override submittedPack(body: Record<string, unknown>): Obj & { pack_id: string } {
    const value = body.cashpack;
    if (value === null) void ('signature' in (value as unknown as object)); // the fault: throws on null
    return super.submittedPack(body);
  }
}

class NullMessageCrashOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new NullUnsafeParser();
  }
}

/** A null Lock Request, Renewal Entry, Redemption Request or cash-pack copy answers 500. */
export const nullMessageCrash: BrokenImplementation = {
  id: 'operator-null-message-crash',
  target: 'operator',
  fault:
    'a message or cash-pack copy that is JSON null makes the Operator throw (500) instead of answering 400 INVALID_REQUEST',
  expected: [
    'PRF-1-INVALID-REQUEST',
    'PRF-4-DESTINATION-SHAPE',
    'PRF-4-LOCK-REQUEST-SHAPE',
    'PRF-4-REDEEM-BINDING',
    'PRF-4-REDEMPTION-REQUEST-SHAPE',
    'PRF-4-RENEW-BINDING',
    'PRF-4-RENEWAL-ENTRY-SHAPE',
  ],
  start: ({ workDir }) => startBrokenOperator(workDir, NullMessageCrashOperator),
};
