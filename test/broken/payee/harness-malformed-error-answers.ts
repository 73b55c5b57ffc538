import type { ServerResponse } from 'node:http';
import {
  parseClockAdvance,
  parseCreateRequest,
  parseFulfillment,
  ReferencePayee,
} from '../../../src/reference/payee/index.js';
import type { BrokenImplementation } from '../types.js';
import { isObject, sendBareInvalidRequest } from './_json.js';
import { startBrokenPayee } from './_start.js';

/**
 * Profile 1 broken: the harness's answers to malformed bodies. A body, an asset or extensions that
 * is JSON `null` crashes the handler (500); other refusals of the member checks (asset, counts,
 * extensions, the clock and fulfillment bodies) say INVALID_REQUEST without a message. The refusal
 * of a missing or unknown `delivery` and of a non-UUID request_id keep theirs.
 */
class MalformedErrorAnswersPayee extends ReferencePayee {
  protected override createRequest(body: unknown, res: ServerResponse): Promise<void> {
    if (body === null || (isObject(body) && (body.asset === null || body.extensions === null)))
      throw new TypeError('Cannot convert undefined or null to object'); // the fault: a 500
    const parsed = parseCreateRequest(body);
    if (!parsed.ok && !parsed.message.includes('"delivery"')) return sendBareInvalidRequest(res); // the fault
    return super.createRequest(body, res);
  }

  protected override advanceClock(body: unknown, res: ServerResponse): Promise<void> {
    if (body === null) throw new TypeError('Cannot convert undefined or null to object'); // the fault
    if (!parseClockAdvance(body).ok) return sendBareInvalidRequest(res); // the fault
    return super.advanceClock(body, res);
  }

  protected override fulfill(body: unknown, res: ServerResponse): Promise<void> {
    if (body === null) throw new TypeError('Cannot convert undefined or null to object'); // the fault
    if (!parseFulfillment(body).ok) return sendBareInvalidRequest(res); // the fault
    return super.fulfill(body, res);
  }
}

/** Malformed harness bodies crash the payee or are refused without a message. */
export const harnessMalformedErrorAnswers: BrokenImplementation = {
  id: 'payee-harness-malformed-error-answers',
  target: 'payee',
  fault:
    'a harness body, asset or extensions that is JSON null answers 500; other malformed members of the create, clock and fulfillment bodies answer 400 INVALID_REQUEST without a message',
  expected: ['PRF-1-INVALID-REQUEST', 'PRF-1-ERROR-BODY', 'PRF-2-HARNESS-CLOCK'],
  start: ({ workDir }) => startBrokenPayee(workDir, {}, MalformedErrorAnswersPayee),
};
