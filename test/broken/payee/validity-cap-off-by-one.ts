import { DocumentBuilder, type ValidityWindow } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 broken (validity capped at the payee's maximum): one second over the cap is granted. */
class OffByOneValidityBuilder extends DocumentBuilder {
  override validityWindow(now: Date, requestedSeconds: number, maxSeconds: number): ValidityWindow {
    // the fault: the cap applies only from two seconds over it
    const cap = requestedSeconds === maxSeconds + 1 ? maxSeconds + 1 : maxSeconds;
    return super.validityWindow(now, requestedSeconds, cap);
  }
}

/** validity_seconds one over the cap is granted. */
export const validityCapOffByOne: BrokenImplementation = {
  id: 'payee-validity-cap-off-by-one',
  target: 'payee',
  fault: 'validity_seconds one second over the payee’s cap is granted instead of capped',
  expected: ['PRF-2-HARNESS-VALIDITY'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new OffByOneValidityBuilder() }),
};
