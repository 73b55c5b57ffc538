import type { BrokenImplementation } from '../types.js';
import { amountAsNumber } from './amount-as-number.js';
import { contentTypeText } from './content-type-text.js';
import { documentDefects } from './document-defects.js';
import { endpointNotEncoded } from './endpoint-not-encoded.js';
import { errorBodyNoMessage } from './error-body-no-message.js';
import { errorLeaksCpr } from './error-leaks-cpr.js';
import { fulfillment202 } from './fulfillment-202.js';
import { fulfillmentAfterExpiry } from './fulfillment-after-expiry.js';
import { fulfillmentUnknownDuplicate } from './fulfillment-unknown-duplicate.js';
import { harness200 } from './harness-200.js';
import { inlinePadded } from './inline-padded.js';
import { inlinePartial } from './inline-partial.js';
import { invalidRequest422 } from './invalid-request-422.js';
import { noQr } from './no-qr.js';
import { partialCpr } from './partial-cpr.js';
import { payerData } from './payer-data.js';
import { plainHttp } from './plain-http.js';
import { qrHttpsUrl } from './qr-https-url.js';
import { qrMixedModes } from './qr-mixed-modes.js';
import { repeatedRequestId } from './repeated-request-id.js';
import { requestIdV1 } from './request-id-v1.js';
import { retrieval203 } from './retrieval-203.js';
import { secondFulfillment } from './second-fulfillment.js';
import { sequentialTokens } from './sequential-tokens.js';
import { tokenNeverExpires } from './token-never-expires.js';
import { tokenRace } from './token-race.js';
import { tokenReuse } from './token-reuse.js';
import { tokenTtlOver900 } from './token-ttl-over-900.js';
import { unboundedExpiry } from './unbounded-expiry.js';
import { unknownTokenConsumed } from './unknown-token-consumed.js';
import { uppercaseTokens } from './uppercase-tokens.js';
import { validityIgnored } from './validity-ignored.js';
import { wrongVersion } from './wrong-version.js';

/** Deliberately broken payee implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = [
  // the faults of the task (issue 4)
  tokenReuse,
  tokenRace,
  plainHttp,
  payerData,
  repeatedRequestId,
  unboundedExpiry,
  tokenNeverExpires,
  sequentialTokens,
  secondFulfillment,
  // one more fault for every payee check the ones above do not trip
  fulfillmentAfterExpiry,
  unknownTokenConsumed,
  errorLeaksCpr,
  errorBodyNoMessage,
  tokenTtlOver900,
  wrongVersion,
  requestIdV1,
  contentTypeText,
  retrieval203,
  partialCpr,
  qrHttpsUrl,
  qrMixedModes,
  inlinePadded,
  inlinePartial,
  noQr,
  endpointNotEncoded,
  harness200,
  fulfillment202,
  invalidRequest422,
  fulfillmentUnknownDuplicate,
  uppercaseTokens,
  validityIgnored,
  amountAsNumber,
  // documents breaking one document rule each (suites/payee/2-document-rules.ts)
  ...documentDefects,
];
