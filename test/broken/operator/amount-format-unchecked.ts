import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/** Profile 1 broken: any string BigInt can read is an amount (leading zeros, signs, spaces, hex). */
class LooseAmountParser extends MessageParser {
  protected override amount(obj: Record<string, unknown>, key: string, where: string): string {
    const v = obj[key];
    try {
      if (typeof v === 'string' && BigInt(v) > 0n) return v; // the fault: no format check
    } catch {
      // not a number at all
    }
    throw this.bad(`"${key}" in ${where} is not an amount`);
  }
}

class AmountFormatUncheckedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new LooseAmountParser();
  }
}

/** `"0100"`, `"+5"`, `" 100"` and `"0x10"` are accepted as amounts. */
export const amountFormatUnchecked: BrokenImplementation = {
  id: 'operator-amount-format-unchecked',
  target: 'operator',
  fault: 'the amount format is not checked: leading zeros, a sign, spaces or hex digits pass',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-4-LOCK-REQUEST-SHAPE'],
  start: ({ workDir }) => startBrokenOperator(workDir, AmountFormatUncheckedOperator),
};
