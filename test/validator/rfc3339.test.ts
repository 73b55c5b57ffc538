import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRfc3339 } from '../../src/validator/index.js';
import { instantOf } from '../../src/validator/rfc3339.js';

/** The reference reading: the RFC 3339 date-time grammar as a regular expression, checked with Date. */
function reference(text: string): { epochMs: number; zulu: boolean; offsetMinutes: number } | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/.exec(
    text,
  );
  if (!m) return null;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  if ((mo as number) < 1 || (mo as number) > 12 || (d as number) < 1 || (h as number) > 23) return null;
  if ((mi as number) > 59 || (s as number) > 60) return null;
  const dim = new Date(Date.UTC(y as number, mo as number, 0));
  dim.setUTCFullYear(y as number, mo as number, 0);
  if ((d as number) > dim.getUTCDate()) return null;
  const zulu = m[8] === 'Z' || m[8] === 'z';
  let off = 0;
  if (!zulu) {
    if (Number(m[10]) > 23 || Number(m[11]) > 59) return null;
    off = (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
  }
  const dt = new Date(0);
  dt.setUTCFullYear(y as number, (mo as number) - 1, d as number);
  dt.setUTCHours(h as number, mi as number, Math.min(s as number, 59), 0);
  const frac = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  return { epochMs: dt.getTime() + frac - off * 60_000, zulu, offsetMinutes: off };
}

describe('parseRfc3339', () => {
  it('reads +14:00 and -12:00 as instants', () => {
    expect(parseRfc3339('2026-06-02T00:30:00+14:00')?.epochMs).toBe(Date.UTC(2026, 5, 1, 10, 30));
    expect(parseRfc3339('2026-06-01T13:00:00-12:00')?.epochMs).toBe(Date.UTC(2026, 5, 2, 1));
    expect(parseRfc3339('2024-02-29T00:00:00Z')).not.toBeNull();
    expect(parseRfc3339('2026-02-29T00:00:00Z')).toBeNull();
    expect(parseRfc3339('2026-06-01T12:00:00.5Z')?.epochMs).toBe(Date.UTC(2026, 5, 1, 12, 0, 0, 500));
    expect(new Date(parseRfc3339('0099-01-01T00:00:00Z')?.epochMs ?? 0).getUTCFullYear()).toBe(99);
  });

  it('agrees with the grammar on generated and mutated timestamps (fast-check)', () => {
    const part = (min: number, max: number, width: number) =>
      fc.integer({ min, max }).map((n) => String(n).padStart(width, '0'));
    const stamp = fc
      .tuple(
        part(0, 9999, 4),
        part(0, 13, 2),
        part(0, 32, 2),
        fc.constantFrom('T', 't', ' '),
        part(0, 24, 2),
        part(0, 60, 2),
        part(0, 61, 2),
        fc.constantFrom('', '.5', '.123456', '.'),
        fc.constantFrom('Z', 'z', '+14:00', '-12:00', '+05:30', '+24:00', '-00:60', '', '+0500'),
      )
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);
    const mutated = fc
      .tuple(stamp, fc.nat(30), fc.constantFrom('', 'x', '9', '-', ':'))
      .map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1));
    fc.assert(
      fc.property(fc.oneof(stamp, mutated, fc.string({ maxLength: 30 })), (text) => {
        const got = parseRfc3339(text);
        const want = reference(text);
        expect(got === null ? null : { ...got }).toEqual(want);
      }),
      { numRuns: 3000 },
    );
  });
});

describe("instantOf (the rules' reading, to which validateCpr leaves the schema's date-time format)", () => {
  const format = fullFormats['date-time'];
  const ajvDateTime = (
    typeof format === 'function' ? format : (format as { validate: (s: string) => boolean }).validate
  ) as (s: string) => boolean;

  it('refuses every string ajv-formats refuses as a date-time, and otherwise reads as parseRfc3339 (fast-check)', () => {
    const two = (min: number, max: number) => fc.integer({ min, max }).map((n) => String(n).padStart(2, '0'));
    const near = fc
      .tuple(
        fc.integer({ min: 0, max: 9999 }).map((n) => String(n).padStart(4, '0')),
        two(0, 13),
        two(0, 32),
        fc.constantFrom('T', 't', ' ', '_'),
        two(0, 25),
        two(0, 61),
        two(0, 61),
        fc.constantFrom('', '.5', '.123456789', '.'),
        fc.constantFrom(
          'Z',
          'z',
          '+00:00',
          '-00:00',
          '+05:30',
          '-23:59',
          '+23:59',
          '+24:00',
          '+23:60',
          '+0530',
          '+05',
          '',
          '-01:01',
        ),
      )
      .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`);
    // leap seconds with the offsets that move them onto or off 23:59 UTC
    const leap = fc
      .tuple(
        two(0, 23),
        two(0, 59),
        fc.constantFrom('Z', '+00:00', '-00:01', '+00:01', '-01:00', '+01:00', '-00:00', '+23:59', '-23:59'),
      )
      .map(([h, mi, z]) => `2016-12-31T${h}:${mi}:60${z}`);
    const mutated = fc
      .tuple(near, fc.nat(30), fc.constantFrom('', 'x', '9', '-', ':'))
      .map(([s, i, c]) => s.slice(0, i) + c + s.slice(i + 1));
    let refusedByAjv = 0;
    let total = 0;
    fc.assert(
      fc.property(fc.oneof(near, leap, mutated, fc.string({ maxLength: 30 })), (text) => {
        total++;
        const ours = instantOf(text);
        if (!ajvDateTime(text)) {
          refusedByAjv++;
          expect(ours, text).toBeNull();
        }
        if (ours !== null) expect({ ...ours }).toEqual({ ...(parseRfc3339(text) as object) });
      }),
      { numRuns: 20_000, seed: 20261126 },
    );
    // the generators reach the refusals (a share, not a count: the mutation run bounds the runs)
    expect(refusedByAjv).toBeGreaterThan(total / 20);
  });

  it('takes a leap second only at 23:59:60 UTC, as ajv-formats does', () => {
    expect(instantOf('2016-12-31T23:59:60Z')).not.toBeNull();
    expect(instantOf('2017-01-01T00:59:60+01:00')).not.toBeNull();
    expect(instantOf('2016-12-31T18:59:60-05:00')).not.toBeNull();
    expect(instantOf('2016-12-31T12:30:60Z')).toBeNull();
    expect(instantOf('2016-12-31T23:59:60+01:00')).toBeNull();
    expect(parseRfc3339('2016-12-31T12:30:60Z')).not.toBeNull(); // the lenient reading, unchanged
  });
});
