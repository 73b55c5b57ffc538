import {
  type CprDocument,
  type CreateRequestParams,
  DocumentBuilder,
  type ValidityWindow,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 1 broken: the amount goes through a JS number (precision lost, "1e+21" above 2^70). */
class NumberAmountBuilder extends DocumentBuilder {
  override build(params: CreateRequestParams, requestId: string, window: ValidityWindow): CprDocument {
    const doc = super.build(params, requestId, window);
    const value = doc.value as { amount?: string; asset: unknown };
    if (value.amount === undefined) return doc;
    return { ...doc, value: { ...value, amount: String(Number(value.amount)) } };
  }
}

/** Large amounts are rounded or written in exponent form. */
export const amountAsNumber: BrokenImplementation = {
  id: 'payee-amount-as-number',
  target: 'payee',
  fault: 'the amount is parsed into a JS number: large amounts lose digits or become "1.2e+76"',
  expected: ['CPR-4.2-INLINE-URI', 'PRF-2-HARNESS-REQUESTS'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new NumberAmountBuilder() }),
};
