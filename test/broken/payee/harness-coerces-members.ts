import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 1 broken: the harness coerces what it is sent instead of refusing a schema failure:
 * counts written as strings are read as numbers, any `qr` is read as truthy, a JSON-number amount
 * is written as a string.
 */
class CoercingPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (typeof body !== 'object' || body === null || Array.isArray(body))
      return super.createRequest(body, res);
    const b = { ...(body as Record<string, unknown>) };
    for (const k of ['token_ttl_seconds', 'validity_seconds']) {
      if (typeof b[k] === 'string' || typeof b[k] === 'boolean') b[k] = Number(b[k]) || 1; // the fault
    }
    if (b.qr !== undefined && typeof b.qr !== 'boolean') b.qr = Boolean(b.qr); // the fault
    if (typeof b.amount === 'number') b.amount = String(b.amount); // the fault
    return super.createRequest(b, res);
  }
}

/** Harness members of the wrong JSON type are coerced and honoured, not refused. */
export const harnessCoercesMembers: BrokenImplementation = {
  id: 'payee-harness-coerces-members',
  target: 'payee',
  fault:
    'the harness coerces members of the wrong type (counts as strings, a non-boolean qr, a JSON-number amount) and honours them instead of answering 400 INVALID_REQUEST',
  expected: ['PRF-1-INVALID-REQUEST'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, CoercingPayee),
};
