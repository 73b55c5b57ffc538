import { describe, expect, it } from 'vitest';
import { timestamps } from '../../../src/validator/rules/timestamps.js';
import { type Expected, expectFindings } from './run-rule.js';

// CPR-1.0 2.1 (created_at, expires_at: ISO 8601, UTC) and profile section 1 (RFC 3339 with Z in
// everything emitted; a reader accepts any offset, with a warning).

const UTC = 'CPR-2.1-TIMESTAMPS-UTC';
const Z = 'PRF-1-TIMESTAMP-Z';
const OK_CREATED = '2026-06-01T11:00:00Z';
const OK_EXPIRES = '2026-06-01T13:00:00.250Z';

const both = (value: unknown, payee: Expected[], wallet: Expected[]): void => {
  // the value at created_at, then at expires_at, the other one valid
  const at = (field: string, list: Expected[]): Expected[] => list.map(([r, , s]) => [r, `/${field}`, s]);
  expectFindings(timestamps, { created_at: value, expires_at: OK_EXPIRES }, at('created_at', payee), {
    mode: 'payee',
  });
  expectFindings(timestamps, { created_at: OK_CREATED, expires_at: value }, at('expires_at', payee), {
    mode: 'payee',
  });
  expectFindings(timestamps, { created_at: value, expires_at: OK_EXPIRES }, at('created_at', wallet), {
    mode: 'wallet',
  });
  expectFindings(timestamps, { created_at: OK_CREATED, expires_at: value }, at('expires_at', wallet), {
    mode: 'wallet',
  });
};

describe('timestamps', () => {
  it('accepts RFC 3339 with Z, with or without a fraction, and absent members', () => {
    for (const t of [OK_CREATED, OK_EXPIRES, '2026-12-31T23:59:59.999999Z', '2024-02-29T00:00:00Z'])
      both(t, [], []);
    for (const mode of ['payee', 'wallet'] as const) {
      expectFindings(timestamps, {}, [], { mode });
      expectFindings(timestamps, { created_at: undefined, expires_at: OK_EXPIRES }, [], { mode });
    }
  });

  it('refuses a non-string or a string that is not RFC 3339, in both readings', () => {
    for (const v of [null, 1_780_000_000, true, {}, ['x']]) both(v, [[UTC, '']], [[UTC, '']]);
    for (const v of [
      '',
      'yesterday',
      '2026-06-01',
      '2026-06-01 11:00:00Z',
      '2026-06-01T11:00:00',
      '2026-02-30T00:00:00Z',
      '2026-06-01T25:00:00Z',
      '2026-06-01T11:00:00+0100',
    ]) {
      both(v, [[UTC, '']], [[UTC, '']]);
    }
  });

  it('payee: a non-zero offset is not UTC (SPEC error)', () => {
    for (const v of [
      '2026-06-01T12:00:00+01:00',
      '2026-06-01T06:00:00-05:00',
      '2026-06-01T11:00:00+00:01',
      '2026-06-01T11:00:00-00:30',
    ]) {
      both(v, [[UTC, '']], [[Z, '', 'warning']]);
    }
  });

  it('payee: a zero offset other than Z is UTC but breaks the profile (PROFILE error)', () => {
    for (const v of [
      '2026-06-01T11:00:00+00:00',
      '2026-06-01T11:00:00-00:00',
      '2026-06-01T11:00:00.5+00:00',
    ]) {
      both(v, [[Z, '']], [[Z, '', 'warning']]);
    }
  });

  it('a lower-case z is RFC 3339 but not the Z the profile asks for', () => {
    both('2026-06-01T11:00:00z', [[Z, '']], [[Z, '', 'warning']]);
  });

  it('reports both members when both are wrong, created_at first, naming each', () => {
    const found = expectFindings(timestamps, { created_at: 'x', expires_at: '2026-06-01T11:00:00+00:00' }, [
      [UTC, '/created_at'],
      [Z, '/expires_at'],
    ]);
    expect(found[0]?.message).toContain('created_at');
    expect(found[1]?.message).toContain('expires_at');
  });
});
