import { MessageParser, OperatorError, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Reads the balance figure with BigInt(): a sign, a leading zero, spaces, hex, "" and numbers pass. */
class LenientBalanceParser extends MessageParser {
  override balanceBody(body: unknown): { principal_id: string; available_balance: bigint } {
    const o = this.object(body, 'the request body');
    const principal_id = this.str(o, 'principal_id', 'the request body');
    try {
      return { principal_id, available_balance: BigInt(o.available_balance as string) }; // the fault
    } catch {
      throw new OperatorError('INVALID_REQUEST', '"available_balance" is not a number');
    }
  }
}

/** Profile 4 harness balance broken: a malformed amount is read as whatever BigInt() makes of it. */
class LenientBalanceOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new LenientBalanceParser();
  }
}

/** A malformed balance figure is accepted. */
export const harnessBalanceLenientAmount: BrokenImplementation = {
  id: 'operator-harness-balance-lenient-amount',
  target: 'operator',
  fault:
    'POST {harness}/balance accepts a malformed amount (a sign, a leading zero, spaces, hex, "", a JSON number)',
  expected: ['PRF-4-HARNESS-BALANCE-INVALID-400'],
  start: ({ workDir }) => startBrokenOperator(workDir, LenientBalanceOperator),
};
