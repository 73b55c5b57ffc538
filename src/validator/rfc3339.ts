/**
 * RFC 3339 `date-time` parsing (section 5.6), exact rather than `Date.parse`'s lenient reading.
 *
 * @packageDocumentation
 */

/** A parsed RFC 3339 timestamp. */
export interface Rfc3339Instant {
  /** The instant, in ms since the epoch (offset applied). */
  epochMs: number;
  /** True when the offset is written `Z` (or `z`). */
  zulu: boolean;
  /** Offset from UTC in minutes (0 for `Z`, `+00:00` and `-00:00`). */
  offsetMinutes: number;
}

/**
 * Parses an RFC 3339 date-time (section 5.6 `date-time`), checking every field's range and the
 * day against the month (leap years included; a leap second `:60` counts as `:59`).
 * Returns null when `text` is not one.
 *
 * @example
 * ```ts
 * parseRfc3339('2026-01-01T10:00:00+01:00')?.epochMs === Date.UTC(2026, 0, 1, 9); // true
 * parseRfc3339('2026-02-30T00:00:00Z'); // null
 * ```
 */
export function parseRfc3339(text: string): Readonly<Rfc3339Instant> | null {
  // the rules read their timestamps through instantOf (and the document's view keeps them):
  // this reading is for callers outside the rules, so it keeps no cache of its own
  return Object.freeze(parseUncached(text));
}

/**
 * {@link parseRfc3339} for the validator's rules, with one more condition: a leap second (`:60`)
 * only where ajv-formats' `date-time` takes it (23:59:60 UTC, the offset applied), so that this
 * refuses every string ajv-formats refuses and `validateCpr` can leave that format to its
 * timestamps rule (`dateTime: 'caller'` of the schema registry). Not frozen (freezing costs more
 * than the parse) and never leaving the validator: the rules only read it. Not cached here: within
 * one `validateCpr` the document's view (`view.ts`) keeps the two instants its rules share.
 *
 * @example
 * ```ts
 * instantOf('2026-12-31T23:59:60Z') !== null; // true
 * instantOf('2026-12-31T12:30:60Z'); // null (parseRfc3339 reads it as 12:30:59)
 * ```
 */
export function instantOf(text: string): Readonly<Rfc3339Instant> | null {
  const instant = parseUncached(text);
  if (instant === null || text.charCodeAt(17) !== 0x36 /* 6 */) return instant;
  // seconds 60: the UTC hour and minute must be 23:59 (ajv-formats reads -1 as the hour or
  // minute before 0 of the next day, without carrying further)
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const utcMinute = minute - (instant.offsetMinutes % 60);
  const utcHour = hour - Math.trunc(instant.offsetMinutes / 60) - (utcMinute === -1 ? 1 : 0);
  return (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) ? instant : null;
}

/** Days in each month of a common year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/**
 * Days from 1970-01-01 to the proleptic Gregorian date `year`-`month`-`day` (year 0-9999, month
 * 1-12): `Date.UTC` without its mapping of years 0-99 to 1900-1999 (H. Hinnant's days_from_civil).
 */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** Value of `n` ASCII digits of `s` at `i`, or -1 when one is not a digit. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const d = s.charCodeAt(k) - 0x30;
    if (d < 0 || d > 9) return -1;
    v = v * 10 + d;
  }
  return v;
}

function parseUncached(text: string): Rfc3339Instant | null {
  // date-time = YYYY-MM-DD "T" hh:mm:ss [.frac] ("Z" / +hh:mm / -hh:mm), T and Z in either case
  // a text shorter than the 20 characters of the shortest form ends before its offset: each
  // character read past the end is NaN, which no test below takes
  const n = text.length;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  // a field that is not all digits reads as -1: the range checks below refuse it in the month
  // and the day (both at least 1), not in the year and the time fields
  if (year < 0 || hour < 0 || minute < 0 || second < 0) return null;
  const t = text.charCodeAt(10);
  if (
    text.charCodeAt(4) !== 0x2d ||
    text.charCodeAt(7) !== 0x2d ||
    (t !== 0x54 && t !== 0x74) ||
    text.charCodeAt(13) !== 0x3a ||
    text.charCodeAt(16) !== 0x3a
  ) {
    return null;
  }
  let i = 19;
  let fraction = 0;
  if (text.charCodeAt(i) === 0x2e) {
    const start = ++i;
    while (text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === start) return null;
    fraction = Number(`0.${text.slice(start, i)}`) * 1000;
  }
  // past the end, charCodeAt gives NaN: neither Z nor a sign, refused below
  const z = text.charCodeAt(i);
  let zulu = false;
  let offsetMinutes = 0;
  if (z === 0x5a || z === 0x7a) {
    if (i + 1 !== n) return null;
    zulu = true;
  } else if (z === 0x2b || z === 0x2d) {
    if (i + 6 !== n || text.charCodeAt(i + 3) !== 0x3a) return null;
    const oh = digits(text, i + 1, 2);
    const om = digits(text, i + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return null;
    offsetMinutes = (z === 0x2d ? -1 : 1) * (oh * 60 + om);
  } else {
    return null;
  }
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return null;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  if (day > (DAYS[month - 1] as number) + leap) return null;
  // 0000-02-29 counts as 0000-03-01, as it always has here (Date.UTC read year 0 as 1900, which
  // has no February 29): kept so that no instant, and no finding, changes
  const days =
    year === 0 && month === 2 && day === 29 ? daysFromCivil(0, 3, 1) : daysFromCivil(year, month, day);
  const base = days * 86_400_000 + hour * 3_600_000 + minute * 60_000 + Math.min(second, 59) * 1000;
  return {
    epochMs: base + Math.floor(fraction) - offsetMinutes * 60_000,
    zulu,
    offsetMinutes,
  };
}
