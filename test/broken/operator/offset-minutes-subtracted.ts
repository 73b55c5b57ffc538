import { OperatorError, parseRfc3339, ReferenceOperator } from '../../../src/reference/operator/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenOperator } from './_start.js';

const OFFSET = /([+-])(\d{2}):(\d{2})$/;

/** The instant of an RFC 3339 text whose offset minutes are subtracted from its hours. */
function misread(text: string): number {
  const ms = parseRfc3339(text) as number;
  const m = OFFSET.exec(text);
  if (m === null) return ms;
  const sign = m[1] === '-' ? -1 : 1;
  // The reference subtracts sign * (hh * 60 + mm) minutes; this reader sign * (hh * 60 - mm).
  return ms + sign * 2 * Number(m[3]) * 60_000; // the fault
}

/**
 * Profile 4 broken: an offset's minutes are subtracted from its hours (+05:45 read as +05:15),
 * so an expires_at with a half- or quarter-hour offset names another instant. Whole-hour
 * offsets and Z are read correctly.
 */
class OffsetMinutesSubtractedOperator extends ReferenceOperator {
  protected override checkExpiryRange(expiresAt: string, now: number): number {
    const ms = misread(expiresAt);
    const seconds = (ms - now) / 1000;
    const { min_expiry_seconds: min, max_expiry_seconds: max } = this.deps.policy;
    if (seconds < min || seconds > max)
      throw new OperatorError('EXPIRY_INVALID', '"expires_at" is out of range');
    return ms;
  }
}

/** `...+05:45` is read 90 minutes off. */
export const offsetMinutesSubtracted: BrokenImplementation = {
  id: 'operator-offset-minutes-subtracted',
  target: 'operator',
  fault: 'an offset with minutes is misread (+05:45 as +05:15): the cash-pack expires at another instant',
  expected: ['PRF-4-REQUEST-TIMESTAMP-OFFSET'],
  start: ({ workDir }) => startBrokenOperator(workDir, OffsetMinutesSubtractedOperator),
};
