import { DocumentBuilder, type ValidityWindow } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** INV-8 broken: the validity window ignores the payee's ceiling. */
class UnboundedBuilder extends DocumentBuilder {
  override validityWindow(now: Date, requestedSeconds: number, _maxSeconds: number): ValidityWindow {
    return super.validityWindow(now, requestedSeconds, Number.MAX_SAFE_INTEGER);
  }
}

/** expires_at is whatever the caller asks, 100 years included. */
export const unboundedExpiry: BrokenImplementation = {
  id: 'payee-unbounded-expiry',
  target: 'payee',
  fault: 'the validity window ignores the payee’s ceiling: asked for 100 years, expires_at is 100 years away',
  expected: ['CPR-INV-8-BOUNDED-EXPIRY', 'PRF-2-HARNESS-VALIDITY', 'PRF-2-VALIDITY-CEILING'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new UnboundedBuilder() }),
};
