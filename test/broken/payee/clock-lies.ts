import type { ServerResponse } from 'node:http';
import { parseClockAdvance, ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Profile 2 (test clock) broken: the clock answers as if it advanced, and advances nothing. */
class LyingClockPayee extends ReferencePayee {
  protected override async advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    const parsed = parseClockAdvance(body);
    if (!parsed.ok) return super.advanceClock(body, res);
    // the fault: the answer claims the advance, the payee's notion of now stays where it was
    const claimed = new Date(this.now().getTime() + parsed.value * 1000).toISOString();
    const text = JSON.stringify({ now: claimed });
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(text)),
    });
    res.end(text);
  }
}

/** The test clock lies: 200 with a moved "now", no expiry decision moves. */
export const clockLies: BrokenImplementation = {
  id: 'payee-clock-lies',
  target: 'payee',
  fault: 'POST {harness}/clock answers 200 with "now" moved forward but advances nothing',
  expected: ['PRF-2-HARNESS-CLOCK'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, LyingClockPayee),
};
