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

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|([+-])(\d{2}):(\d{2}))$/;

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
  // Several rules read the same two timestamps of a document: the last few answers are kept
  // (a small ring, so a stream of distinct documents never thrashes a large cache).
  for (let k = 0; k < RING; k++)
    if (ringKeys[k] === text) return ringValues[k] as Readonly<Rfc3339Instant> | null;
  const parsed = parseUncached(text);
  ringKeys[ringNext] = text;
  ringValues[ringNext] = parsed;
  ringNext = (ringNext + 1) % RING;
  return parsed;
}

/** Recently parsed timestamps (results are frozen, so sharing them is safe). */
const RING = 4;
const ringKeys: (string | undefined)[] = new Array(RING).fill(undefined);
const ringValues: (Readonly<Rfc3339Instant> | null)[] = new Array(RING).fill(null);
let ringNext = 0;

/** Days in each month of a common year. */
const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function parseUncached(text: string): Readonly<Rfc3339Instant> | null {
  const m = RFC3339.exec(text);
  if (!m) return null;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  const hour = Number(m[4]);
  const minute = Number(m[5]);
  const second = Number(m[6]);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 60) return null;
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 1 : 0;
  if (day > (DAYS[month - 1] as number) + leap) return null;
  const zulu = m[8] === 'Z' || m[8] === 'z';
  let offsetMinutes = 0;
  if (!zulu) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const fraction = m[7] ? Number(`0${m[7]}`) * 1000 : 0;
  let base = Date.UTC(year, month - 1, day, hour, minute, Math.min(second, 59));
  if (year < 100) {
    const d = new Date(base);
    d.setUTCFullYear(year); // Date.UTC maps years 0-99 to 1900-1999
    base = d.getTime();
  }
  return Object.freeze({
    epochMs: base + Math.floor(fraction) - offsetMinutes * 60_000,
    zulu,
    offsetMinutes,
  });
}
