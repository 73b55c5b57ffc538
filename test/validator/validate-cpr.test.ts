import { describe, expect, it } from 'vitest';
import { CprcError } from '../../src/errors.js';
import { CPR_RULES, documentRequirementIds, validateCpr } from '../../src/validator/index.js';
import { SCHEMA_FINDING_REQUIREMENTS } from '../../src/validator/schema-findings.js';

const base = {
  cpr_version: 'CPR-1.0',
  request_id: '3b241101-e2bb-4255-8caf-4136c566a962',
  created_at: '2026-06-01T00:00:00Z',
  expires_at: '2026-06-01T00:10:00Z',
  payee: { display_name: 'Shop', rail_address: { iban: 'DE89370400440532013000' } },
  value: { amount: '100', asset: { type: 'fiat', code: 'EUR' } },
  iban: 'DE89370400440532013000',
  beneficiary_name: 'Shop',
};
const now = new Date('2026-06-01T00:05:00Z');
const triples = (r: { findings: { requirement: string; path: string; severity: string }[] }) =>
  r.findings.map((f) => [f.requirement, f.path, f.severity]);

function usage(fn: () => unknown, names: string): void {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown).toBeInstanceOf(CprcError);
  expect((thrown as CprcError).code).toBe('CPRC_USAGE');
  expect((thrown as CprcError).message).toContain(names);
}

describe('validateCpr: options', () => {
  it('takes mode payee or wallet, wallet by default', () => {
    const offset = { ...base, created_at: '2026-06-01T01:00:00+01:00' };
    expect(triples(validateCpr(offset, { mode: 'payee', now }))).toEqual([
      ['CPR-2.1-TIMESTAMPS-UTC', '/created_at', 'error'],
    ]);
    const wallet = validateCpr(offset, { mode: 'wallet', now });
    expect(triples(wallet)).toEqual([['PRF-1-TIMESTAMP-Z', '/created_at', 'warning']]);
    expect(validateCpr(offset, { now })).toEqual(wallet);
    // each reading keeps its own schema, whichever ran first
    expect(validateCpr(offset, { mode: 'payee', now }).valid).toBe(false);
    usage(() => validateCpr(base, { mode: 'PAYEE' as 'payee' }), 'mode');
    usage(() => validateCpr(base, { mode: '' as 'payee' }), 'mode');
  });

  it('takes now as a valid Date, the current time by default', () => {
    usage(() => validateCpr(base, { now: new Date(Number.NaN) }), 'now');
    usage(() => validateCpr(base, { now: '2026-06-01T00:00:00Z' as unknown as Date }), 'now');
    usage(() => validateCpr(base, { now: Date.now() as unknown as Date }), 'now');
    const t = Date.now();
    const live = {
      ...base,
      created_at: new Date(t - 60_000).toISOString(),
      expires_at: new Date(t + 3_600_000).toISOString(),
    };
    expect(validateCpr(live, { mode: 'payee' })).toEqual({ valid: true, findings: [] });
    expect(validateCpr(live, { mode: 'payee', now: new Date(t + 7_200_000) }).valid).toBe(false);
    expect(validateCpr(base).valid).toBe(false); // expired by now
  });

  it('takes maxValiditySeconds as a positive number of seconds, 30 days by default', () => {
    for (const max of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '60' as unknown as number]) {
      usage(() => validateCpr(base, { maxValiditySeconds: max }), 'maxValiditySeconds');
    }
    expect(validateCpr(base, { now, maxValiditySeconds: 600 }).findings).toEqual([]);
    expect(triples(validateCpr(base, { now, maxValiditySeconds: 599 }))).toEqual([
      ['PRF-2-VALIDITY-CEILING', '/expires_at', 'warning'],
    ]);
    expect(validateCpr(base, { now, maxValiditySeconds: 0.5 }).valid).toBe(true);
    const thirty = { ...base, expires_at: '2026-07-01T00:00:00Z' };
    expect(validateCpr(thirty, { now }).findings).toEqual([]);
    const more = { ...base, expires_at: '2026-07-01T00:00:01Z' };
    expect(triples(validateCpr(more, { now }))).toEqual([
      ['PRF-2-VALIDITY-CEILING', '/expires_at', 'warning'],
    ]);
  });
});

describe('validateCpr: the document', () => {
  it('refuses anything but an object, naming what it is', () => {
    for (const [doc, what] of [
      [[], 'an array'],
      [null, 'null'],
      [5, 'a number'],
      ['x', 'a string'],
      [undefined, 'a undefined'],
      [true, 'a boolean'],
    ] as const) {
      const r = validateCpr(doc, { now });
      expect(r.valid).toBe(false);
      expect(triples(r)).toEqual([['CPR-4.3-VALIDATE-BEFORE-PROCESSING', '', 'error']]);
      expect(r.findings[0]?.message).toContain(what);
    }
  });

  it('accepts a valid document with no finding, and a warning leaves it valid', () => {
    expect(validateCpr(base, { mode: 'payee', now })).toEqual({ valid: true, findings: [] });
    const r = validateCpr({ ...base, purpose_code: 'ZZZZ' }, { mode: 'payee', now });
    expect(r.valid).toBe(true);
    expect(triples(r)).toEqual([['CPR-2.6-PURPOSE-CODE', '/purpose_code', 'warning']]);
  });

  it("keeps a rule's error at a path rather than the schema's there, and both elsewhere", () => {
    const r = validateCpr(
      { ...base, memo: 'x'.repeat(141), created_at: '2026-06-01T01:00:00+01:00' },
      { mode: 'payee', now },
    );
    expect(r.valid).toBe(false);
    expect(triples(r)).toEqual([
      ['CPR-2.1-TIMESTAMPS-UTC', '/created_at', 'error'],
      ['CPR-2.1-MEMO-LENGTH', '/memo', 'error'],
    ]);
  });

  it("keeps the schema's error beside a rule's warning at the same path, schema first", () => {
    const r = validateCpr({ ...base, expires_at: '2026-08-01t00:00:00Z' }, { mode: 'payee', now });
    expect(r.valid).toBe(false);
    expect(triples(r)).toEqual([
      ['PRF-1-TIMESTAMP-Z', '/expires_at', 'error'],
      ['PRF-2-VALIDITY-CEILING', '/expires_at', 'warning'],
    ]);
  });

  it('gives a finding, not an exception, for an object that cannot be read', () => {
    for (const [thrown, text] of [
      [new Error('boom'), 'boom'],
      ['plain', 'plain'],
    ] as const) {
      const doc = new Proxy(
        {},
        {
          get() {
            throw thrown;
          },
          has() {
            throw thrown;
          },
          ownKeys() {
            throw thrown;
          },
          getOwnPropertyDescriptor() {
            throw thrown;
          },
        },
      );
      const r = validateCpr(doc, { now });
      expect(r.valid).toBe(false);
      expect(triples(r)).toEqual([['CPR-4.3-VALIDATE-BEFORE-PROCESSING', '', 'error']]);
      expect(r.findings[0]?.message).toContain(text);
    }
  });
});

describe('documentRequirementIds', () => {
  it('is every ID a finding can carry, sorted, once each', () => {
    const ids = documentRequirementIds();
    expect(ids).toEqual([...new Set(ids)].sort());
    expect(ids).toContain('CPR-4.3-VALIDATE-BEFORE-PROCESSING');
    for (const id of SCHEMA_FINDING_REQUIREMENTS) expect(ids).toContain(id);
    for (const rule of CPR_RULES) for (const id of rule.requirements) expect(ids).toContain(id);
    expect(ids).toEqual(
      [
        ...new Set([
          'CPR-4.3-VALIDATE-BEFORE-PROCESSING',
          ...SCHEMA_FINDING_REQUIREMENTS,
          ...CPR_RULES.flatMap((r) => r.requirements),
        ]),
      ].sort(),
    );
  });
});
