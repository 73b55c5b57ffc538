import type { Rule } from '../types.js';
import { describe, finding, member } from '../util.js';

/** Identifiers are UUIDs (profile section 1). */
const REQ_UUID = 'PRF-1-IDENTIFIER-UUID';
/** UUIDv4 recommended (spec 2.1). */
const REQ_V4 = 'CPR-2.1-REQUEST-ID-UUIDV4';

/**
 * CPR-1.0 2.1 ("globally unique; UUIDv4 recommended") and profile section 1 (identifiers are
 * UUIDs): a request_id that is not a UUID is an error; a UUID of another version than 4 is a
 * warning (v4 is only recommended). Uniqueness across documents is checked by `cprc validate
 * --ndjson`, which sees many documents.
 */
export const requestIdFormat: Rule = {
  name: 'request-id-format',
  requirements: [REQ_UUID, REQ_V4],
  check({ doc }) {
    const id = member(doc, 'request_id');
    if (id === undefined) return [];
    if (
      typeof id !== 'string' ||
      !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)
    ) {
      return [finding(REQ_UUID, '/request_id', `request_id ${describe(id)} must be a UUID`)];
    }
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i.test(id)) {
      return [
        finding(REQ_V4, '/request_id', `request_id ${id} is not a version 4 UUID (recommended)`, 'warning'),
      ];
    }
    return [];
  },
};
