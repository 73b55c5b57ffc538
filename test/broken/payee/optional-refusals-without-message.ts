import type { ServerResponse } from 'node:http';
import { ReferencePayee } from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject, sendBareInvalidRequest } from './_json.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 1 broken on the refusals profile 2 leaves optional: a clock body with a member profile 2
 * does not list, a fractional or a negative advance, and a fulfillment carrying another member are
 * refused 400 INVALID_REQUEST, as allowed, but the error body has no message for a person (the
 * mutants that empty these refusals' messages). Malformed bodies keep theirs.
 */
class OptionalRefusalsWithoutMessagePayee extends ReferencePayee {
  protected override advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && typeof body.advance_seconds === 'number') {
      const n = body.advance_seconds;
      if (Object.keys(body).length > 1 || !Number.isInteger(n) || n < 0) return sendBareInvalidRequest(res); // the fault
    }
    return super.advanceClock(body, res);
  }

  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    if (isObject(body) && typeof body.request_id === 'string' && Object.keys(body).length > 1)
      return sendBareInvalidRequest(res); // the fault
    return super.fulfill(body, res);
  }
}

/** The refusals the payee may make carry no message. */
export const optionalRefusalsWithoutMessage: BrokenImplementation = {
  id: 'payee-optional-refusals-without-message',
  target: 'payee',
  fault:
    'the refusals profile 2 leaves optional (an unlisted member in a clock or fulfillment body, a fractional or negative advance) answer 400 INVALID_REQUEST without a message',
  expected: ['PRF-1-ERROR-BODY'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, OptionalRefusalsWithoutMessagePayee),
};
