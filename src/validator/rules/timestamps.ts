// Profile section 2 restates section 1 for the CPR (PRF-2-TIMESTAMPS-Z): the payee suite's
// cpr-timestamps-rfc-3339-z check names it.

import { type Finding, finding } from '../../model/finding.js';
import type { Rfc3339Instant } from '../rfc3339.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf } from '../util.js';
import { createdInstant, expiresInstant, viewOf } from '../view.js';

/** Requirement: timestamps are ISO 8601 in UTC (spec). */
const REQ_UTC = 'CPR-2.1-TIMESTAMPS-UTC';
/** Requirement: emitted timestamps are RFC 3339 with `Z` (profile). */
const REQ_Z = 'PRF-1-TIMESTAMP-Z';

/**
 * CPR-1.0 2.1 (created_at, expires_at: "ISO 8601, UTC") and profile section 1 (RFC 3339 with
 * `Z` in everything emitted; a reader accepts any offset).
 * - Not RFC 3339: SPEC error in both modes.
 * - Payee mode: a non-zero offset is a SPEC error (not UTC); `+00:00`/`-00:00` is UTC but a
 *   PROFILE error (not `Z`); a lower-case `z` is a PROFILE error too.
 * - Wallet mode: any offset is accepted; a non-`Z` offset is a PROFILE warning.
 */
export const timestamps: Rule = {
  name: 'timestamps',
  requirements: [REQ_UTC, REQ_Z],
  check: (ctx) => findingsOf(collectTimestamps, ctx),
  collect: collectTimestamps,
};

function collectTimestamps({ doc, mode }: RuleContext, out: Finding[]): void {
  const v = viewOf(doc);
  const created = v.created_at;
  const expires = v.expires_at;
  const c = typeof created === 'string' ? createdInstant(v) : null;
  const e = typeof expires === 'string' ? expiresInstant(v) : null;
  checkTimestamp('created_at', '/created_at', created, c, mode, out);
  checkTimestamp('expires_at', '/expires_at', expires, e, mode, out);
}

function checkTimestamp(
  name: string,
  where: string,
  value: unknown,
  t: Readonly<Rfc3339Instant> | null,
  mode: RuleContext['mode'],
  out: Finding[],
): void {
  if (value === undefined) return; // a missing member is the schema's finding
  // t is null for a non-string value too (only strings are read as instants)
  if (!t) {
    out.push(
      finding(
        REQ_UTC,
        where,
        `${name} ${describe(value)} is not an RFC 3339 date-time (e.g. "2026-01-31T12:00:00Z")`,
      ),
    );
    return;
  }
  const isZ = (value as string).endsWith('Z');
  if (mode === 'payee') {
    if (t.offsetMinutes !== 0) {
      out.push(finding(REQ_UTC, where, `${name} ${describe(value)} is not in UTC; write it with "Z"`));
    } else if (!isZ) {
      out.push(finding(REQ_Z, where, `${name} ${describe(value)} must end in "Z" (profile section 1)`));
    }
  } else if (!isZ) {
    out.push(
      finding(
        REQ_Z,
        where,
        `${name} ${describe(value)} does not use "Z"; accepted by a reader, but a payee must emit "Z"`,
        'warning',
      ),
    );
  }
}
