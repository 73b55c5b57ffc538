import { DocumentBuilder } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * How often the broken builder repeats the previous request_id (every Nth request). Which checks
 * meet a repeated id depends on how many requests the suite makes before them: 47 lands the
 * repeats in the uniqueness check only (50 also hit the request of a fulfilment check once the
 * on-chain domain check asked for three more requests).
 */
const REPEAT_EVERY = 47;

/** INV-3 broken: every 47th request reuses the request_id of the one before it. */
class RepeatingIdBuilder extends DocumentBuilder {
  #count = 0;
  #last = '';
  override newRequestId(): string {
    this.#count += 1;
    if (this.#count % REPEAT_EVERY === 0 && this.#last !== '') return this.#last;
    this.#last = super.newRequestId();
    return this.#last;
  }
}

/** request_ids repeat now and then. */
export const repeatedRequestId: BrokenImplementation = {
  id: 'payee-repeated-request-id',
  target: 'payee',
  fault: 'every 47th request reuses the request_id of the request before it',
  expected: ['CPR-2.1-REQUEST-ID-UNIQUE', 'CPR-INV-3-REQUEST-ID-UNIQUE', 'CPR-INV-8-UNIQUE-REQUEST-ID'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new RepeatingIdBuilder() }),
};
