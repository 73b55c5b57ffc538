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
  // the parser reads 0000-02-29 as 0000-03-01 (its own test below, "reads 0000-02-29 as
  // 0000-03-01"): the reference does too, or the property fails on that one input in ~1 run of 10
  const leapDayOfYearZero = y === 0 && mo === 2 && d === 29;
  dt.setUTCFullYear(
    y as number,
    leapDayOfYearZero ? 2 : (mo as number) - 1,
    leapDayOfYearZero ? 1 : (d as number),
  );
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

/** The instant of a proleptic Gregorian UTC date and time (years 0-99 included, unlike Date.UTC). */
function utc(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number {
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  t.setUTCHours(h, mi, s, ms);
  return t.getTime();
}

describe('parseRfc3339 at the edges of each field (RFC 3339 section 5.6)', () => {
  const ok = (text: string) => expect(parseRfc3339(text), text).not.toBeNull();
  const refused = (text: string) => expect(parseRfc3339(text), text).toBeNull();

  it('reads the shortest form (20 characters) and refuses it cut short', () => {
    expect({ ...parseRfc3339('2026-06-01T12:34:56Z') }).toEqual({
      epochMs: utc(2026, 6, 1, 12, 34, 56),
      zulu: true,
      offsetMinutes: 0,
    });
    refused('2026-06-01T12:34:56');
    refused('2026-06-01T12:34:5Z');
    refused('2026-06-01');
    refused('');
  });

  it('takes every digit 0-9 in every field, and refuses a non-digit on either side of them', () => {
    expect(parseRfc3339('1999-09-19T19:09:09Z')?.epochMs).toBe(utc(1999, 9, 19, 19, 9, 9));
    expect(parseRfc3339('2000-10-10T10:00:00Z')?.epochMs).toBe(utc(2000, 10, 10, 10));
    const good = '2026-06-01T12:34:56Z';
    for (const i of [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]) {
      for (const c of ['/', ':', 'a', ' ']) refused(good.slice(0, i) + c + good.slice(i + 1));
    }
  });

  it('needs "-", "-", "T" (or "t"), ":", ":" at their places', () => {
    expect(parseRfc3339('2026-06-01t12:34:56z')?.epochMs).toBe(utc(2026, 6, 1, 12, 34, 56));
    const good = '2026-06-01T12:34:56Z';
    for (const i of [4, 7, 10, 13, 16]) {
      for (const c of ['0', '_', ' ', '.', good[i] === '-' ? ':' : '-']) {
        refused(good.slice(0, i) + c + good.slice(i + 1));
      }
    }
  });

  it('keeps the year as written, 0000 to 9999, and the day before and after the end of each era', () => {
    expect(parseRfc3339('0000-01-01T00:00:00Z')?.epochMs).toBe(utc(0, 1, 1));
    expect(parseRfc3339('0001-02-28T00:00:00Z')?.epochMs).toBe(utc(1, 2, 28));
    expect(parseRfc3339('0099-12-31T23:59:59Z')?.epochMs).toBe(utc(99, 12, 31, 23, 59, 59));
    expect(parseRfc3339('0399-12-31T00:00:00Z')?.epochMs).toBe(utc(399, 12, 31));
    expect(parseRfc3339('0400-03-01T00:00:00Z')?.epochMs).toBe(utc(400, 3, 1));
    expect(parseRfc3339('1969-12-31T23:59:59Z')?.epochMs).toBe(-1000);
    expect(parseRfc3339('1970-01-01T00:00:00Z')?.epochMs).toBe(0);
    expect(parseRfc3339('2000-02-29T12:00:00Z')?.epochMs).toBe(utc(2000, 2, 29, 12));
    expect(parseRfc3339('2000-03-01T00:00:00Z')?.epochMs).toBe(utc(2000, 3, 1));
    expect(parseRfc3339('9999-12-31T23:59:59Z')?.epochMs).toBe(utc(9999, 12, 31, 23, 59, 59));
  });

  it('gives the right instant on the first and last day of every month', () => {
    const last = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    for (const year of [1970, 2026, 1600]) {
      for (let m = 1; m <= 12; m++) {
        const mm = String(m).padStart(2, '0');
        expect(parseRfc3339(`${year}-${mm}-01T00:00:00Z`)?.epochMs).toBe(utc(year, m, 1));
        const d = (last[m - 1] as number) + (m === 2 && year % 4 === 0 ? 1 : 0);
        expect(parseRfc3339(`${year}-${mm}-${d}T23:59:59Z`)?.epochMs).toBe(utc(year, m, d, 23, 59, 59));
        refused(`${year}-${mm}-${d + 1}T00:00:00Z`);
      }
    }
  });

  it('bounds the month to 01-12 and the day to 01 and the length of the month', () => {
    ok('2026-01-01T00:00:00Z');
    ok('2026-12-31T00:00:00Z');
    refused('2026-00-01T00:00:00Z');
    refused('2026-13-01T00:00:00Z');
    refused('2026-01-00T00:00:00Z');
    refused('2026-01-32T00:00:00Z');
    ok('2026-04-30T00:00:00Z');
    refused('2026-04-31T00:00:00Z');
    ok('2026-02-28T00:00:00Z');
    refused('2026-02-29T00:00:00Z');
  });

  it('has February 29 only in leap years (every 4th, not every 100th, every 400th)', () => {
    ok('2024-02-29T00:00:00Z');
    refused('2024-02-30T00:00:00Z');
    refused('2023-02-29T00:00:00Z');
    refused('2022-02-29T00:00:00Z');
    refused('1900-02-29T00:00:00Z');
    refused('2100-02-29T00:00:00Z');
    ok('2000-02-29T00:00:00Z');
    ok('1600-02-29T00:00:00Z');
    // a leap year adds a day to February only
    refused('2024-01-32T00:00:00Z');
    refused('2024-04-31T00:00:00Z');
    refused('2024-12-32T00:00:00Z');
  });

  it('reads 0000-02-29 as 0000-03-01, and no other day of year 0 so', () => {
    expect(parseRfc3339('0000-02-29T00:00:00Z')?.epochMs).toBe(utc(0, 3, 1));
    expect(parseRfc3339('0000-02-28T00:00:00Z')?.epochMs).toBe(utc(0, 2, 28));
    expect(parseRfc3339('0000-01-29T00:00:00Z')?.epochMs).toBe(utc(0, 1, 29));
    expect(parseRfc3339('0000-03-29T00:00:00Z')?.epochMs).toBe(utc(0, 3, 29));
    expect(parseRfc3339('0400-02-29T00:00:00Z')?.epochMs).toBe(utc(400, 2, 29));
  });

  it('bounds the hour to 00-23, the minute to 00-59 and the second to 00-60 (a leap second reads as :59)', () => {
    expect(parseRfc3339('2026-06-01T23:59:59Z')?.epochMs).toBe(utc(2026, 6, 1, 23, 59, 59));
    refused('2026-06-01T24:00:00Z');
    refused('2026-06-01T00:60:00Z');
    expect(parseRfc3339('2026-06-01T12:30:60Z')?.epochMs).toBe(utc(2026, 6, 1, 12, 30, 59));
    expect(parseRfc3339('2026-06-01T12:30:60.5Z')?.epochMs).toBe(utc(2026, 6, 1, 12, 30, 59, 500));
    refused('2026-06-01T00:00:61Z');
  });

  it('reads a fraction of any length, to the millisecond (cut, not rounded)', () => {
    const at = utc(2026, 6, 1, 12);
    expect(parseRfc3339('2026-06-01T12:00:00.5Z')?.epochMs).toBe(at + 500);
    expect(parseRfc3339('2026-06-01T12:00:00.05Z')?.epochMs).toBe(at + 50);
    expect(parseRfc3339('2026-06-01T12:00:00.25Z')?.epochMs).toBe(at + 250);
    expect(parseRfc3339('2026-06-01T12:00:00.005Z')?.epochMs).toBe(at + 5);
    expect(parseRfc3339('2026-06-01T12:00:00.123Z')?.epochMs).toBe(at + 123);
    expect(parseRfc3339('2026-06-01T12:00:00.9999Z')?.epochMs).toBe(at + 999);
    expect(parseRfc3339('2026-06-01T12:00:00.1239+01:00')?.epochMs).toBe(at + 123 - 3_600_000);
    expect(parseRfc3339('2026-06-01T12:00:00.000000001Z')?.epochMs).toBe(at);
    refused('2026-06-01T12:00:00.Z');
    refused('2026-06-01T12:00:00.');
    refused('2026-06-01T12:00:00.5');
    refused('2026-06-01T12:00:00.5x');
    refused('2026-06-01T12:00:00,5Z');
  });

  it('takes Z or z alone at the end', () => {
    expect(parseRfc3339('2026-06-01T12:00:00z')?.zulu).toBe(true);
    refused('2026-06-01T12:00:00ZZ');
    refused('2026-06-01T12:00:00Z ');
    refused('2026-06-01T12:00:00Z+00:00');
    refused('2026-06-01T12:00:00X');
    refused('2026-06-01T12:00:00 ');
  });

  it('applies a numeric offset +hh:mm / -hh:mm, 00:00 to 23:59, and names it', () => {
    const noon = utc(2026, 6, 1, 12);
    expect({ ...parseRfc3339('2026-06-01T12:00:00+05:30') }).toEqual({
      epochMs: noon - 330 * 60_000,
      zulu: false,
      offsetMinutes: 330,
    });
    expect({ ...parseRfc3339('2026-06-01T12:00:00-05:30') }).toEqual({
      epochMs: noon + 330 * 60_000,
      zulu: false,
      offsetMinutes: -330,
    });
    expect({ ...parseRfc3339('2026-06-01T12:00:00+00:00') }).toEqual({
      epochMs: noon,
      zulu: false,
      offsetMinutes: 0,
    });
    expect(parseRfc3339('2026-06-01T12:00:00-00:00')?.epochMs).toBe(noon);
    expect(parseRfc3339('2026-06-01T12:00:00+23:59')?.offsetMinutes).toBe(23 * 60 + 59);
    expect(parseRfc3339('2026-06-01T12:00:00-23:59')?.offsetMinutes).toBe(-(23 * 60 + 59));
    expect(parseRfc3339('2026-06-01T12:00:00+09:09')?.offsetMinutes).toBe(549);
    refused('2026-06-01T12:00:00+24:00');
    refused('2026-06-01T12:00:00+00:60');
    refused('2026-06-01T12:00:00+0530');
    refused('2026-06-01T12:00:00+05');
    refused('2026-06-01T12:00:00+05:300');
    refused('2026-06-01T12:00:00+05-30');
    refused('2026-06-01T12:00:00+/5:30');
    refused('2026-06-01T12:00:00+05:3:');
    refused('2026-06-01T12:00:00+:5:30');
    refused('2026-06-01T12:00:00+05::0');
    // only "+" and "-" lead an offset
    for (const c of ['X', ' ', '*', '0', ',', '/']) refused(`2026-06-01T12:00:00${c}05:30`);
  });

  it('gives a frozen result', () => {
    expect(Object.isFrozen(parseRfc3339('2026-06-01T12:00:00Z'))).toBe(true);
  });
});

describe('instantOf takes a leap second exactly where ajv-formats does (23:59:60 UTC)', () => {
  const format = fullFormats['date-time'];
  const ajvDateTime = (
    typeof format === 'function' ? format : (format as { validate: (s: string) => boolean }).validate
  ) as (s: string) => boolean;

  it.each([
    ['2016-12-31T23:59:60Z', true],
    ['2016-12-31T23:59:60.999Z', true],
    ['2016-12-31T23:58:60Z', false],
    ['2016-12-31T22:59:60Z', false],
    ['2016-12-31T00:59:60Z', false],
    ['2016-12-31T23:00:60Z', false],
    ['2016-12-31T23:59:60+00:00', true],
    ['2016-12-31T23:59:60-00:00', true],
    ['2016-12-31T23:58:60-00:01', true],
    ['2016-12-31T23:59:60-00:01', false],
    ['2017-01-01T00:00:60+00:01', true],
    ['2017-01-01T00:59:60+01:00', true],
    ['2017-01-01T00:58:60+01:00', false],
    ['2016-12-31T18:59:60-05:00', true],
    ['2016-12-31T18:29:60-05:30', true],
    ['2016-12-31T18:59:60-05:30', false],
    ['2017-01-01T05:29:60+05:30', true],
    ['2017-01-01T05:59:60+05:30', false],
    ['2016-12-31T22:59:60-01:00', true],
    ['2016-12-31T22:59:60+01:00', false],
    ['2016-12-31T00:00:60+00:01', true],
  ])('%s: taken %s', (text, taken) => {
    expect(ajvDateTime(text)).toBe(taken);
    if (taken) expect({ ...instantOf(text) }).toEqual({ ...parseRfc3339(text) });
    else expect(instantOf(text)).toBeNull();
  });

  it('reads every other second as parseRfc3339 does', () => {
    for (const text of ['2016-12-31T12:30:59Z', '2016-12-31T12:30:00+05:30', '2016-12-31T23:59:59-00:01']) {
      expect({ ...instantOf(text) }).toEqual({ ...parseRfc3339(text) });
    }
    expect(instantOf('2016-12-31T23:59:61Z')).toBeNull();
    expect(instantOf('2016-12-31T23:59:6Z')).toBeNull();
  });
});
