import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CPR_RAILS, cprArbitrary } from '../../src/testing/arbitraries.js';
import { CPR_MUTATIONS } from '../../src/testing/mutations.js';
import { validateCpr } from '../../src/validator/index.js';

const NOW = new Date('2026-06-01T12:00:00Z');

describe('generated valid CPRs (fast-check)', () => {
  for (const rail of CPR_RAILS) {
    it(`every generated valid ${rail} CPR validates in payee and wallet mode without errors`, () => {
      fc.assert(
        fc.property(cprArbitrary({ rail, now: NOW }), (cpr) => {
          for (const mode of ['payee', 'wallet'] as const) {
            const r = validateCpr(cpr, { mode, now: NOW });
            expect(
              r.findings.filter((f) => f.severity === 'error'),
              JSON.stringify(cpr),
            ).toEqual([]);
            expect(r.valid).toBe(true);
          }
        }),
        { numRuns: 200 },
      );
    });
  }
});

describe('single-defect mutations (fast-check)', () => {
  for (const m of CPR_MUTATIONS) {
    it(`mutation ${m.name} is rejected with ${[...new Set(m.modes.map((mode) => m.requirement[mode]))].join(' / ')}`, () => {
      let applied = 0;
      fc.assert(
        fc.property(
          fc.constantFrom(...(m.rails ?? CPR_RAILS)).chain((rail) => cprArbitrary({ rail, now: NOW })),
          (cpr) => {
            fc.pre(m.applies(cpr));
            applied++;
            const bad = m.apply(cpr, NOW);
            for (const mode of m.modes) {
              const r = validateCpr(bad, { mode, now: NOW });
              expect(r.valid, `${mode}: ${JSON.stringify(bad)}`).toBe(false);
              const ids = r.findings.filter((f) => f.severity === 'error').map((f) => f.requirement);
              expect(ids, `${mode}: ${JSON.stringify(r.findings)}`).toContain(m.requirement[mode]);
            }
          },
        ),
        { numRuns: 60 },
      );
      expect(applied).toBeGreaterThan(0);
    });
  }
});
