import { describe, expect, it } from 'vitest';
import { createdBeforeExpires } from '../../../src/validator/rules/created-before-expires.js';
import { expectFindings } from './run-rule.js';

// Profile section 2: created_at < expires_at, instants compared whatever the offsets.
const REQ = 'PRF-2-CREATED-BEFORE-EXPIRES';
const doc = (created_at: unknown, expires_at: unknown): Record<string, unknown> => ({
  created_at,
  expires_at,
});

describe('created-before-expires', () => {
  it('accepts expires_at one millisecond or more after created_at', () => {
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(createdBeforeExpires, doc('2026-06-01T11:00:00Z', '2026-06-01T11:00:00.001Z'), [], {
        mode,
      });
      expectFindings(createdBeforeExpires, doc('2026-06-01T11:00:00Z', '2026-06-08T11:00:00Z'), [], { mode });
      // 12:30+02:00 is 10:30Z, before 11:00Z
      expectFindings(createdBeforeExpires, doc('2026-06-01T12:30:00+02:00', '2026-06-01T11:00:00Z'), [], {
        mode,
      });
    }
  });

  it('refuses expires_at equal to or before created_at, naming both', () => {
    const [f] = expectFindings(createdBeforeExpires, doc('2026-06-01T11:00:00Z', '2026-06-01T11:00:00Z'), [
      [REQ, '/expires_at'],
    ]);
    expect(f?.message).toContain('2026-06-01T11:00:00Z');
    expectFindings(createdBeforeExpires, doc('2026-06-01T11:00:00.001Z', '2026-06-01T11:00:00Z'), [
      [REQ, '/expires_at'],
    ]);
    expectFindings(
      createdBeforeExpires,
      doc('2026-06-02T11:00:00Z', '2026-06-01T11:00:00Z'),
      [[REQ, '/expires_at']],
      { mode: 'wallet' },
    );
    // the same instant in two offsets
    expectFindings(createdBeforeExpires, doc('2026-06-01T13:00:00+02:00', '2026-06-01T11:00:00Z'), [
      [REQ, '/expires_at'],
    ]);
    // 11:00Z written later on the clock face but earlier as an instant
    expectFindings(createdBeforeExpires, doc('2026-06-01T11:00:00Z', '2026-06-01T12:00:00+02:00'), [
      [REQ, '/expires_at'],
    ]);
  });

  it('compares nothing when either timestamp is absent, not a string or not RFC 3339', () => {
    expectFindings(createdBeforeExpires, {}, []);
    expectFindings(createdBeforeExpires, doc('2026-06-02T11:00:00Z', undefined), []);
    expectFindings(createdBeforeExpires, doc(undefined, '2026-06-01T11:00:00Z'), []);
    expectFindings(createdBeforeExpires, doc(1, '2026-06-01T11:00:00Z'), []);
    expectFindings(createdBeforeExpires, doc('2026-06-02T11:00:00Z', 'yesterday'), []);
  });
});
