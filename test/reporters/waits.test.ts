import { describe, expect, it } from 'vitest';
import { waitSummary } from '../../src/reporters/waits.js';

describe('waitSummary: the longest real wait of a run, as the reports name it', () => {
  it('names the check that slept longest, in seconds', () => {
    expect(
      waitSummary([
        { id: 'payee/a' },
        { id: 'operator/real-expiry-by-waiting', waited_ms: 4200 },
        { id: 'payee/token-expired-one-second-past-expiry', waited_ms: 1600 },
      ]),
    ).toBe('longest real wait of a check: 4.2 s (operator/real-expiry-by-waiting)');
  });
  it('says so when no check slept', () => {
    expect(waitSummary([{ id: 'payee/a' }, { id: 'payee/b', waited_ms: 0 }])).toMatch(/^no check slept/);
  });
});
