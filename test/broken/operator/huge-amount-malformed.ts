import { MessageParser, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

/**
 * Profile 1 broken: the amount range stops short of 2^256 - 1 (an exclusive bound), so the
 * largest well-formed amount is called malformed (400 INVALID_REQUEST) instead of exceeding the
 * limit (422 AMOUNT_EXCEEDS_LIMIT).
 */
class ExclusiveRangeParser extends MessageParser {
  protected override amount(obj: Record<string, unknown>, key: string, where: string): string {
    const v = super.amount(obj, key, where);
    if (BigInt(v) >= (1n << 256n) - 1n) throw this.bad(`"${key}" in ${where} is out of range`); // the fault
    return v;
  }
}

class HugeAmountMalformedOperator extends ReferenceOperator {
  protected override createParser(): MessageParser {
    return new ExclusiveRangeParser();
  }
}

/** An amount of 2^256 - 1 answers INVALID_REQUEST, not AMOUNT_EXCEEDS_LIMIT. */
export const hugeAmountMalformed: BrokenImplementation = {
  id: 'operator-huge-amount-malformed',
  target: 'operator',
  fault: 'the amount 2^256 - 1 is refused as malformed (INVALID_REQUEST) instead of AMOUNT_EXCEEDS_LIMIT',
  expected: ['CP-7-AMOUNT-EXCEEDS-LIMIT', 'CP-8-MAX-AMOUNT'],
  start: ({ workDir }) => startBrokenOperator(workDir, HugeAmountMalformedOperator),
};
