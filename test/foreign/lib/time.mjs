// RFC 3339 timestamps as exact instants (BigInt nanoseconds since the epoch),
// and an adjustable clock for the test harnesses.

const RFC3339_RE =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|([+-])(\d{2}):(\d{2}))$/;

const NS_PER_MS = 1_000_000n;
const NS_PER_S = 1_000_000_000n;

function daysInMonth(year, month) {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * Parse an RFC 3339 date-time. Returns `{ ns, offsetMinutes, fraction }`
 * (`ns`: BigInt nanoseconds since 1970-01-01T00:00:00Z) or null when the text
 * is not RFC 3339. Options: `ignoreOffset` reads the wall time as UTC;
 * `flipOffset` applies the offset with the wrong sign (both exist only so that
 * faults can be switched on; the clean stack never sets them).
 */
export function parseRfc3339(text, { ignoreOffset = false, flipOffset = false } = {}) {
  if (typeof text !== 'string') return null;
  const m = RFC3339_RE.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 60) return null;
  let offsetMinutes = 0;
  if (m[9]) {
    const oh = Number(m[10]);
    const om = Number(m[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (m[9] === '+' ? 1 : -1) * (oh * 60 + om);
  }
  // A leap second is read as the first instant of the next minute's second 0.
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, day); // Date.UTC would map years 0-99 to 1900-1999
  wall.setUTCHours(hour, minute, Math.min(second, 59), 0);
  const wallMs = wall.getTime();
  const fraction = m[7] ? m[7].slice(1) : '';
  const fracNs = fraction ? BigInt(fraction.padEnd(9, '0')) : 0n;
  let applied = offsetMinutes;
  if (ignoreOffset) applied = 0;
  else if (flipOffset) applied = -offsetMinutes;
  const ns =
    BigInt(wallMs) * NS_PER_MS + (second === 60 ? NS_PER_S : 0n) + fracNs - BigInt(applied) * 60n * NS_PER_S;
  return { ns, offsetMinutes, fraction };
}

/** Format an instant (BigInt ns) as RFC 3339 in UTC with `Z`; the fraction digits given are kept. */
export function formatNs(ns, fractionDigits = 0) {
  const wholeSeconds = ns >= 0n ? ns / NS_PER_S : (ns - NS_PER_S + 1n) / NS_PER_S;
  const base = new Date(Number(wholeSeconds) * 1000).toISOString().slice(0, 19);
  if (fractionDigits <= 0) return `${base}Z`;
  const nsInSecond = ((ns % NS_PER_S) + NS_PER_S) % NS_PER_S;
  const frac = nsInSecond.toString().padStart(9, '0').slice(0, fractionDigits);
  return `${base}.${frac}Z`;
}

/** Re-write a parsed RFC 3339 timestamp in `Z`, keeping its fraction exactly. */
export function toZulu(parsed) {
  return formatNs(parsed.ns, parsed.fraction.length);
}

export const nsFromMs = (ms) => BigInt(Math.round(ms)) * NS_PER_MS;
export const nsFromSeconds = (s) => BigInt(Math.round(s * 1000)) * NS_PER_MS;
export const SECOND_NS = NS_PER_S;

/**
 * A clock that follows the wall clock plus a forward-only offset set by the
 * harness (`POST {harness}/clock`).
 */
export class TestClock {
  #offsetMs = 0;

  /** Current instant in BigInt nanoseconds. */
  nowNs() {
    return nsFromMs(Date.now() + this.#offsetMs);
  }

  /** The wall clock, ignoring any harness offset. */
  wallNs() {
    return nsFromMs(Date.now());
  }

  advance(seconds) {
    this.#offsetMs += Math.round(seconds * 1000);
  }

  nowText() {
    return formatNs(this.nowNs(), 3);
  }
}
