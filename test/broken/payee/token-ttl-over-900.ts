import { ReferencePayee, type ReferencePayeeOptions } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** The broken token ceiling: one hour. */
const CEILING_SECONDS = 3600;

/** Spec 5 rule 1 (15 minutes) and profile 2 (900 s) broken: the payee's token ceiling is one hour. */
class HourTokensPayee extends ReferencePayee {
  constructor(options: ReferencePayeeOptions) {
    super(options);
    // the fault: the ceiling the reference validates (at most 900) is replaced after the check
    Object.defineProperty(this, 'maxTokenTtlSeconds', { value: CEILING_SECONDS });
  }
}

/** Tokens live up to an hour, and an hour by default. */
export const tokenTtlOver900: BrokenImplementation = {
  id: 'payee-token-ttl-over-900',
  target: 'payee',
  fault: 'the token lifetime ceiling is 3600 s: tokens live an hour by default and when asked for more',
  expected: [
    'CPR-5-TOKEN-WINDOW-15-MIN',
    'CPR-8-TOKEN-LIFETIME',
    'PRF-2-HARNESS-TOKEN-TTL',
    'PRF-2-TOKEN-LIFETIME',
  ],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, HourTokensPayee),
};
