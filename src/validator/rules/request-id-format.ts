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
  for (let i = 0; i < 36; i++) {
    const c = id.charCodeAt(i);
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 0x2d) return false; // -
    } else if (i === 14) {
      if (c !== 0x34) return false; // 4
    } else if (i === 19) {
      // 8, 9, a, b in either case
      if (c !== 0x38 && c !== 0x39 && c !== 0x61 && c !== 0x62 && c !== 0x41 && c !== 0x42) return false;
    } else if (!((c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46))) {
      return false;
    }
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
  if (typeof id === 'string' && isUuidV4(id)) return;
  if (typeof id !== 'string' || id === '') {
    out.push(
      finding(REQ_UUID, '/request_id', `request_id ${describe(id)} must be a non-empty string (a UUID)`),
    );
    return;
  }
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
  if (!isUuidV4(id)) {
    out.push(
      finding(REQ_V4, '/request_id', `request_id ${id} is not a version 4 UUID (recommended)`, 'warning'),
    );
  }
}
