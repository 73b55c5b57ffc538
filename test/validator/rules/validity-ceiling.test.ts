import { describe, expect, it } from 'vitest';
import { validityCeiling } from '../../../src/validator/rules/validity-ceiling.js';
import { expectFindings } from './run-rule.js';

// Profile section 2: expires_at - created_at is bounded by the payee's configuration; the suite's
// default ceiling is 30 days, a WARNING above, however long.
const REQ = 'PRF-2-VALIDITY-CEILING';
const C = '2026-06-01T00:00:00Z';
const doc = (expires_at: unknown, created_at: unknown = C): Record<string, unknown> => ({
  created_at,
  expires_at,
});

describe('validity-ceiling', () => {
  it('accepts a window up to the ceiling, exactly at it included', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(validityCeiling, doc('2026-07-01T00:00:00Z'), [], { mode }); // 30 days
      expectFindings(validityCeiling, doc('2026-06-30T23:59:59.999Z'), [], { mode });
      expectFindings(validityCeiling, doc('2026-06-01T00:01:00Z'), [], { mode, maxValiditySeconds: 60 });
      expectFindings(validityCeiling, doc('2026-05-01T00:00:00Z'), [], { mode }); // negative: another rule's
    }
  });

  it('warns above the ceiling, from one millisecond over, naming both durations', () => {
    const [f] = expectFindings(validityCeiling, doc('2026-07-01T00:00:01Z'), [
      [REQ, '/expires_at', 'warning'],
    ]);
    expect(f?.message).toContain('2592000');
    expect(f?.message).toContain('2592001');
    expectFindings(validityCeiling, doc('2026-07-01T00:00:00.001Z'), [[REQ, '/expires_at', 'warning']]);
    expectFindings(validityCeiling, doc('2126-06-01T00:00:00Z'), [[REQ, '/expires_at', 'warning']], {
      mode: 'wallet',
    });
    const [g] = expectFindings(
      validityCeiling,
      doc('2026-06-01T00:01:01Z'),
      [[REQ, '/expires_at', 'warning']],
      { maxValiditySeconds: 60 },
    );
    expect(g?.message).toContain('61 s');
    const [h] = expectFindings(
      validityCeiling,
      doc('2026-06-01T00:01:00.600Z'),
      [[REQ, '/expires_at', 'warning']],
      { maxValiditySeconds: 60 },
    );
    expect(h?.message).toContain('61 s'); // rounded, not cut
  });

  it('judges nothing without two RFC 3339 timestamps', () => {
    expectFindings(validityCeiling, {}, []);
    expectFindings(validityCeiling, doc('2126-06-01T00:00:00Z', 'x'), []);
    expectFindings(validityCeiling, doc(42), []);
  });
});
