import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateCpr } from '../../src/validator/index.js';

const NOW = new Date('2026-06-01T12:00:00Z');
const sepa = JSON.parse(readFileSync(join(import.meta.dirname, 'fixtures', 'sepa-ct-ok.json'), 'utf8'));
const errors = (r: ReturnType<typeof validateCpr>) => r.findings.filter((f) => f.severity === 'error');

describe('wallet reading: what a conformant paying application must accept', () => {
  it('CPR-INV-7-UNKNOWN-RAIL-HINT-TOLERATED: an unknown rail_hint is a warning, not an error', () => {
    const r = validateCpr({ ...sepa, rail_hint: 'FEDNOW' }, { mode: 'wallet', now: NOW });
    expect(r.valid).toBe(true);
    expect(r.findings).toEqual([
      expect.objectContaining({ requirement: 'CPR-2.4-RAIL-HINT-ENUM', severity: 'warning' }),
    ]);
  });

  it('CPR-9-IGNORE-UNKNOWN-EXTENSIONS: unknown extension keys and unknown top-level members give no finding', () => {
    const doc = { ...sepa, extensions: { 'org.example:x': [1, { y: null }] }, 'org.example:top': true };
    expect(validateCpr(doc, { mode: 'wallet', now: NOW }).findings).toEqual([]);
    expect(validateCpr(doc, { mode: 'payee', now: NOW }).findings).toEqual([]);
  });

  it('PRF-1-TIMESTAMP-ANY-OFFSET: instants are compared, not strings (+14:00 that is still in the future)', () => {
    // 2026-06-02T01:30:00+14:00 is 2026-06-01T11:30:00Z (past); 2026-06-02T03:00:00+14:00 is 13:00Z (future).
    const past = { ...sepa, created_at: '2026-06-01T10:00:00Z', expires_at: '2026-06-02T01:30:00+14:00' };
    const future = { ...sepa, created_at: '2026-06-01T10:00:00Z', expires_at: '2026-06-02T03:00:00+14:00' };
    expect(errors(validateCpr(past, { mode: 'wallet', now: NOW })).map((f) => f.requirement)).toEqual([
      'CPR-7-EXPIRED-REJECTED',
    ]);
    expect(validateCpr(future, { mode: 'wallet', now: NOW }).valid).toBe(true);
  });

  it('PRF-1-AMOUNT-NUMBER-SAFE: a safe-integer JSON amount is accepted with a warning; payee mode rejects it', () => {
    const doc = { ...sepa, value: { ...sepa.value, amount: 9007199254740991 } };
    const wallet = validateCpr(doc, { mode: 'wallet', now: NOW });
    expect(wallet.valid).toBe(true);
    expect(wallet.findings.map((f) => [f.requirement, f.severity])).toEqual([
      ['PRF-1-AMOUNT-NUMBER-SAFE', 'warning'],
    ]);
    expect(errors(validateCpr(doc, { mode: 'payee', now: NOW })).map((f) => f.requirement)).toEqual([
      'PRF-1-AMOUNT-FORMAT',
    ]);
  });

  it('PRF-1-AMOUNT-PRECISION: amounts beyond 2^53 keep every digit (compared with BigInt, never a JS number)', () => {
    const max = (2n ** 256n - 1n).toString();
    const over = (2n ** 256n).toString();
    expect(validateCpr({ ...sepa, value: { ...sepa.value, amount: max } }, { now: NOW }).valid).toBe(true);
    expect(
      validateCpr({ ...sepa, value: { ...sepa.value, amount: '9007199254740993' } }, { now: NOW }).valid,
    ).toBe(true);
    const r = validateCpr({ ...sepa, value: { ...sepa.value, amount: over } }, { now: NOW });
    expect(errors(r)).toEqual([
      expect.objectContaining({ requirement: 'PRF-1-AMOUNT-FORMAT', path: '/value/amount' }),
    ]);
  });

  it('PRF-2-VALIDITY-CEILING: maxValiditySeconds moves the warning threshold', () => {
    const r = validateCpr(sepa, { now: NOW, maxValiditySeconds: 3600 });
    expect(r.valid).toBe(true);
    expect(r.findings.map((f) => [f.requirement, f.severity])).toEqual([
      ['PRF-2-VALIDITY-CEILING', 'warning'],
    ]);
    expect(validateCpr(sepa, { now: NOW, maxValiditySeconds: 86_400 }).findings).toEqual([]);
  });

  it('PRF-2-LENGTH-CODE-POINTS: 140 astral characters (280 UTF-16 units) fit in a memo', () => {
    const memo = '\u{1F4B6}'.repeat(140);
    expect(memo.length).toBe(280);
    expect(validateCpr({ ...sepa, memo }, { mode: 'payee', now: NOW }).findings).toEqual([]);
  });
});
