import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getSchemaValidator } from '../../src/schemas/registry.js';
import { cprArbitrary } from '../../src/testing/arbitraries.js';
import { validateCpr } from '../../src/validator/index.js';

const findingSchema = getSchemaValidator('tool/finding');

const NOW = new Date('2026-06-01T12:00:00Z');
const FINDING_KEYS = ['level', 'message', 'path', 'requirement', 'severity'];

function wellFormed(r: ReturnType<typeof validateCpr>): void {
  expect(typeof r.valid).toBe('boolean');
  expect(r.valid).toBe(!r.findings.some((f) => f.severity === 'error'));
  for (const f of r.findings) {
    expect(Object.keys(f).sort()).toEqual(FINDING_KEYS);
    expect(f.requirement).toMatch(/^(CPR|CP|PRF)-/);
    expect(f.path === '' || f.path.startsWith('/')).toBe(true);
    expect(findingSchema(f), JSON.stringify(findingSchema.errors)).toBe(true);
  }
}

describe('the validator never throws', () => {
  it('validateCpr returns a well-formed result for fc.anything() in both modes', () => {
    fc.assert(
      fc.property(
        fc.anything({
          withBigInt: true,
          withDate: true,
          withMap: true,
          withTypedArray: true,
          withNullPrototype: true,
        }),
        (x) => {
          for (const mode of ['payee', 'wallet'] as const) {
            const r = validateCpr(x, { mode, now: NOW });
            wellFormed(r);
            if (typeof x !== 'object' || x === null || Array.isArray(x)) expect(r.valid).toBe(false);
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('validateCpr returns a well-formed result when any member of a valid CPR is replaced by anything', () => {
    fc.assert(
      fc.property(cprArbitrary({ now: NOW }), fc.anything(), fc.nat(), (cpr, junk, pick) => {
        const keys = Object.keys(cpr);
        const key = keys[pick % keys.length] as string;
        const r = validateCpr({ ...cpr, [key]: junk }, { mode: 'wallet', now: NOW });
        wellFormed(r);
      }),
      { numRuns: 300 },
    );
  });

  it('an object with a throwing getter yields a finding, not an exception', () => {
    const doc = {
      cpr_version: 'CPR-1.0',
      get payee(): never {
        throw new Error('boom');
      },
    };
    const r = validateCpr(doc, { now: NOW });
    expect(r.valid).toBe(false);
    expect(r.findings[0]?.requirement).toBe('CPR-4.3-VALIDATE-BEFORE-PROCESSING');
  });

  it('deeply nested extensions do not overflow the stack', () => {
    let deep: unknown = { leaf: true };
    for (let i = 0; i < 5000; i++) deep = { n: deep };
    const r = validateCpr({ cpr_version: 'CPR-1.0', extensions: deep }, { now: NOW });
    wellFormed(r);
    expect(r.valid).toBe(false);
  });

  it('invalid options are a usage error naming the option', () => {
    expect(() => validateCpr({}, { mode: 'merchant' as 'payee' })).toThrow(
      /mode must be "payee" or "wallet"/,
    );
    expect(() => validateCpr({}, { now: new Date('nope') })).toThrow(/now must be a valid Date/);
  });
});
