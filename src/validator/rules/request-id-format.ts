import { finding } from '../../model/finding.js';
import type { Rule } from '../types.js';
import { describe, member } from '../util.js';

/** Identifiers are UUIDs (profile section 1). */
const REQ_UUID = 'PRF-1-IDENTIFIER-UUID';
/** UUIDv4 recommended (spec 2.1). */
const REQ_V4 = 'CPR-2.1-REQUEST-ID-UUIDV4';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

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
  check({ doc, mode }) {
    const id = member(doc, 'request_id');
    if (id === undefined) return [];
    if (typeof id === 'string' && UUID_V4.test(id)) return [];
    if (typeof id !== 'string' || id === '') {
      return [
        finding(REQ_UUID, '/request_id', `request_id ${describe(id)} must be a non-empty string (a UUID)`),
      ];
    }
    if (!UUID.test(id)) {
      return mode === 'payee'
        ? [finding(REQ_UUID, '/request_id', `request_id ${describe(id)} must be a UUID`)]
        : [
            finding(
              REQ_UUID,
              '/request_id',
              `request_id ${describe(id)} is not a UUID; a wallet accepts it, but a payee must emit a UUID`,
              'warning',
            ),
          ];
    }
    if (!UUID_V4.test(id)) {
      return [
        finding(REQ_V4, '/request_id', `request_id ${id} is not a version 4 UUID (recommended)`, 'warning'),
      ];
    }
    return [];
  },
};
