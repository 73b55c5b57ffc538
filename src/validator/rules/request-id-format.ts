import { type Finding, finding } from '../../model/finding.js';
import type { Rule, RuleContext } from '../types.js';
import { describe, findingsOf } from '../util.js';
import { viewOf } from '../view.js';

/** Identifiers are UUIDs (profile section 1). */
const REQ_UUID = 'PRF-1-IDENTIFIER-UUID';
/** UUIDv4 recommended (spec 2.1). */
const REQ_V4 = 'CPR-2.1-REQUEST-ID-UUIDV4';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/**
 * A version 4 UUID, any case: `/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i`,
 * tested without a regular expression (it runs on every document).
 */
function isUuidV4(id: string): boolean {
  if (id.length !== 36) return false;
  if (
    id.charCodeAt(8) !== 0x2d || // -
    id.charCodeAt(13) !== 0x2d ||
    id.charCodeAt(18) !== 0x2d ||
    id.charCodeAt(23) !== 0x2d ||
    id.charCodeAt(14) !== 0x34 // 4
  ) {
    return false;
  }
  // 8, 9, a, b in either case
  const v = id.charCodeAt(19);
  if (v !== 0x38 && v !== 0x39 && v !== 0x61 && v !== 0x62 && v !== 0x41 && v !== 0x42) return false;
  return (
    hexRun(id, 0, 8) && hexRun(id, 9, 13) && hexRun(id, 15, 18) && hexRun(id, 20, 23) && hexRun(id, 24, 36)
  );
}

/** 1 for the ASCII hex digits (either case), by character code. */
const HEX: Uint8Array = (() => {
  const t = new Uint8Array(128);
  for (const c of '0123456789abcdefABCDEF') t[c.charCodeAt(0)] = 1;
  return t;
})();

/** True when the characters of `s` from `from` to `to` (excluded) are all hex digits. */
function hexRun(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    // a code above 0x7f reads undefined: not a hex digit either
    if (HEX[s.charCodeAt(i)] !== 1) return false;
  }
  return true;
}

/**
 * CPR-1.0 2.1 ("globally unique; UUIDv4 recommended") and profile section 1 (identifiers are
 * UUIDs; this binds what an implementation emits; a wallet accepts any non-empty string
 * request_id).
 * - Payee reading: a request_id that is not a UUID is a PROFILE error.
 * - Wallet reading: any non-empty string is accepted; a non-UUID one is a PROFILE warning.
 * - Both: a missing-in-effect value (empty or not a string) is an error; a UUID of another
 *   version than 4 is a warning (v4 is only recommended).
 * Uniqueness across documents is checked by `cprc validate`, which sees many documents.
 */
export const requestIdFormat: Rule = {
  name: 'request-id-format',
  requirements: [REQ_UUID, REQ_V4],
  check: (ctx) => findingsOf(collectRequestIdFormat, ctx),
  collect: collectRequestIdFormat,
};

function collectRequestIdFormat({ doc, mode }: RuleContext, out: Finding[]): void {
  const id = viewOf(doc).request_id;
  if (id === undefined) return;
  if (typeof id !== 'string' || id === '') {
    out.push(
      finding(REQ_UUID, '/request_id', `request_id ${describe(id)} must be a non-empty string (a UUID)`),
    );
    return;
  }
  if (isUuidV4(id)) return;
  if (!UUID.test(id)) {
    out.push(
      mode === 'payee'
        ? finding(REQ_UUID, '/request_id', `request_id ${describe(id)} must be a UUID`)
        : finding(
            REQ_UUID,
            '/request_id',
            `request_id ${describe(id)} is not a UUID; a wallet accepts it, but a payee must emit a UUID`,
            'warning',
          ),
    );
    return;
  }
  out.push(
    finding(REQ_V4, '/request_id', `request_id ${id} is not a version 4 UUID (recommended)`, 'warning'),
  );
}
