import { DocumentBuilder, type ValidityWindow } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** The window the broken builder always uses, whatever is asked: one hour. */
const FIXED_SECONDS = 3600;

/** Profile 2 harness broken: validity_seconds is ignored. */
class FixedWindowBuilder extends DocumentBuilder {
  override validityWindow(now: Date, _requestedSeconds: number, maxSeconds: number): ValidityWindow {
    return super.validityWindow(now, FIXED_SECONDS, maxSeconds);
  }
}

/** Every CPR is valid one hour, whatever validity_seconds says. */
export const validityIgnored: BrokenImplementation = {
  id: 'payee-validity-ignored',
  target: 'payee',
  fault: 'the harness ignores validity_seconds: every CPR is valid for one hour',
  expected: ['PRF-2-HARNESS-VALIDITY'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new FixedWindowBuilder() }),
};
