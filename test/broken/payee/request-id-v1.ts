import { randomBytes } from 'node:crypto';
import { DocumentBuilder } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/** Spec 2.1 (UUIDv4 recommended) broken: request_ids are version-1 (time-based) UUIDs. */
class TimeUuidBuilder extends DocumentBuilder {
  override newRequestId(): string {
    const b = randomBytes(16);
    b[6] = ((b[6] ?? 0) & 0x0f) | 0x10; // version 1
    b[8] = ((b[8] ?? 0) & 0x3f) | 0x80; // RFC 4122 variant
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}

/** request_id is a UUID, but not version 4. */
export const requestIdV1: BrokenImplementation = {
  id: 'payee-request-id-v1',
  target: 'payee',
  fault: 'request_ids are version-1 UUIDs instead of the recommended version 4',
  expected: ['CPR-2.1-REQUEST-ID-UUIDV4', 'PRF-1-IDENTIFIER-UUIDV4'],
  start: ({ workDir }) => startBrokenPayee(workDir, { documentBuilder: new TimeUuidBuilder() }),
};
