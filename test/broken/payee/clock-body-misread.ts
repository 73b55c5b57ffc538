import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject, sendJson } from './_json.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 2 (test clock) broken: `advance_seconds` is read with Number(), so a numeric string,
 * true, null or [5] moves the clock instead of a 400 INVALID_REQUEST; and 0 is refused as if the
 * clock had to move.
 */
class ClockMisreadPayee extends ReferencePayee {
  protected override advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    if (!isObject(body)) return super.advanceClock(body, res);
    const n = Number(body.advance_seconds); // the fault: coercion
    if (n === 0) {
      // the fault: 0 refused
      sendJson(res, 400, {
        error: { code: 'INVALID_REQUEST', message: '"advance_seconds" must be at least 1' },
      });
      return Promise.resolve();
    }
    return super.advanceClock(Number.isSafeInteger(n) ? { advance_seconds: n } : body, res);
  }
}

/** The clock coerces advance_seconds and refuses 0. */
export const clockBodyMisread: BrokenImplementation = {
  id: 'payee-clock-body-misread',
  target: 'payee',
  fault:
    'POST {harness}/clock reads advance_seconds with Number(): "5", true, null and [5] move the clock instead of 400 INVALID_REQUEST; {"advance_seconds": 0} is refused',
  expected: ['PRF-2-HARNESS-CLOCK', 'PRF-1-INVALID-REQUEST'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, ClockMisreadPayee),
};
