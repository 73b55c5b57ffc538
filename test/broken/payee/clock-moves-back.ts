import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 (test clock) broken: a negative advance moves the payee's now back. */
class BackwardClockPayee extends ReferencePayee {
  protected override async advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    const n = (body as { advance_seconds?: unknown } | null)?.advance_seconds;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n >= 0) return super.advanceClock(body, res);
    // the fault: the clock moves back
    this.clockOffsetMs += n * 1000;
    const text = JSON.stringify({ now: this.now().toISOString() });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  }
}

/** The test clock moves back when asked a negative advance. */
export const clockMovesBack: BrokenImplementation = {
  id: 'payee-clock-moves-back',
  target: 'payee',
  fault: 'POST {harness}/clock with a negative advance_seconds moves the payee’s now back',
  expected: ['PRF-2-HARNESS-CLOCK'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, BackwardClockPayee),
};
