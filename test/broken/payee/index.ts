import type { BrokenImplementation } from '../types.js';
import { amountAsNumber } from './amount-as-number.js';
import { assetChainIdNotRequired } from './asset-chain-id-not-required.js';
import { assetIgnored } from './asset-ignored.js';
import { bareRequestNoRail } from './bare-request-no-rail.js';
import { clockBodyMisread } from './clock-body-misread.js';
import { clockLies } from './clock-lies.js';
import { clockMovesBack } from './clock-moves-back.js';
import { contentTypeText } from './content-type-text.js';
import { documentDefects } from './document-defects.js';
import { documentDefects2 } from './document-defects-2.js';
import { documentDefects3 } from './document-defects-3.js';
import { duplicateMembers } from './duplicate-members.js';
import { emitsBom } from './emits-bom.js';
import { endpointNotEncoded } from './endpoint-not-encoded.js';
import { errorBodyNoMessage } from './error-body-no-message.js';
import { errorLeaksCpr } from './error-leaks-cpr.js';
import {
  extensionDottedPrefixCarried,
  extensionLastTailOnly,
  extensionPayerNamesCarried,
  extensionSpacedPrefixCarried,
} from './extension-payer-names-carried.js';
import { extensionUnprefixedKeysCarried } from './extension-unprefixed-keys-carried.js';
import { fulfillRace } from './fulfill-race.js';
import { fulfillment202 } from './fulfillment-202.js';
import { fulfillmentAfterExpiry } from './fulfillment-after-expiry.js';
import { fulfillmentExtraMemberUnknown, fulfillmentNumberId404 } from './fulfillment-number-id-404.js';
import { fulfillmentUnknownDuplicate } from './fulfillment-unknown-duplicate.js';
import { harness200 } from './harness-200.js';
import { harnessCoercesMembers } from './harness-coerces-members.js';
import { harnessCountFloor } from './harness-count-floor.js';
import { harnessIgnoresMalformedMembers } from './harness-ignores-malformed-members.js';
import { harnessMalformedErrorAnswers } from './harness-malformed-error-answers.js';
import { harnessRefusesOptions } from './harness-refuses-options.js';
import { harnessTextPlain } from './harness-text-plain.js';
import { harnessUnparsableBody } from './harness-unparsable-body.js';
import { inlinePadded } from './inline-padded.js';
import { inlinePartial } from './inline-partial.js';
import { invalidRequest422 } from './invalid-request-422.js';
import { memoOverLimitHonoured } from './memo-over-limit-honoured.js';
import { memoUtf16Limit } from './memo-utf16-limit.js';
import { noQr } from './no-qr.js';
import { optionalRefusalsWithoutMessage } from './optional-refusals-without-message.js';
import { partialCpr } from './partial-cpr.js';
import { payerData } from './payer-data.js';
import { plainHttp } from './plain-http.js';
import { qrEcLow } from './qr-ec-low.js';
import { qrHttpsUrl } from './qr-https-url.js';
import { qrMixedModes } from './qr-mixed-modes.js';
import { qrOverflowDropped } from './qr-overflow-dropped.js';
import { repeatedRequestId } from './repeated-request-id.js';
import { requestExpiresEarly } from './request-expires-early.js';
import { requestExpiryGrace } from './request-expiry-grace.js';
import { requestIdV1 } from './request-id-v1.js';
import { retrieval203 } from './retrieval-203.js';
import { retrievalLanguageEcho, retrievalQueryEcho } from './retrieval-context-echo.js';
import { retrievalEcho } from './retrieval-echo.js';
import { cprPathPrefixMatch, headConsumes, headServerError } from './retrieval-route-loose.js';
import { secondFulfillment } from './second-fulfillment.js';
import { sequentialTokens } from './sequential-tokens.js';
import { servedToClient } from './served-to-client.js';
import { tokenExpiresEarly } from './token-expires-early.js';
import { tokenNeverExpires } from './token-never-expires.js';
import { tokenRace } from './token-race.js';
import { tokenReuse } from './token-reuse.js';
import { tokenTtlCapOffByOne } from './token-ttl-cap-off-by-one.js';
import { tokenTtlOver900 } from './token-ttl-over-900.js';
import { unboundedExpiry } from './unbounded-expiry.js';
import {
  undefinedFrameworkPage,
  undefinedMethodLeaksCpr,
  undefinedMethodServesCpr,
  unknownPath500,
} from './undefined-requests.js';
import { unknownTokenConsumed } from './unknown-token-consumed.js';
import { uppercaseTokens } from './uppercase-tokens.js';
import { validityCapOffByOne } from './validity-cap-off-by-one.js';
import { validityIgnored } from './validity-ignored.js';
import { wrongDomainSeparator } from './wrong-domain-separator.js';
import { wrongVersion } from './wrong-version.js';

/** Deliberately broken payee implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = [
  // the faults of the task (issue 4)
  tokenReuse,
  tokenRace,
  fulfillRace,
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
  // the revised profile (issue 7) and the test clock (issue 11)
  clockLies,
  clockMovesBack,
  retrievalEcho,
  memoUtf16Limit,
  memoOverLimitHonoured,
  validityCapOffByOne,
  tokenTtlCapOffByOne,
  tokenExpiresEarly,
  requestExpiryGrace,
  requestExpiresEarly,
  fulfillmentNumberId404,
  fulfillmentExtraMemberUnknown,
  harnessTextPlain,
  emitsBom,
  duplicateMembers,
  // documents breaking one document rule each (suites/payee/2-document-rules.ts)
  ...documentDefects,
  ...documentDefects2,
  ...documentDefects3,
  // mutation survivors (issue 16): harness options no check asked for
  assetIgnored,
  harnessCoercesMembers,
  // mutation survivors (issue 16): document members that are well formed but not what was asked
  wrongDomainSeparator,
  // mutation survivors (issue 16): a harness request the payee cannot honour (server.ts)
  qrOverflowDropped,
  // mutation survivors (issue 16): harness.ts, malformed bodies member by member and options it can honour
  harnessIgnoresMalformedMembers,
  harnessMalformedErrorAnswers,
  optionalRefusalsWithoutMessage,
  clockBodyMisread,
  extensionPayerNamesCarried,
  extensionSpacedPrefixCarried,
  extensionLastTailOnly,
  extensionDottedPrefixCarried,
  undefinedMethodServesCpr,
  unknownPath500,
  undefinedMethodLeaksCpr,
  undefinedFrameworkPage,
  extensionUnprefixedKeysCarried,
  harnessRefusesOptions,
  harnessCountFloor,
  bareRequestNoRail,
  assetChainIdNotRequired,
  // mutation survivors (issue 16), full run: the harness's reading of a body that is no JSON text
  harnessUnparsableBody,
  // foreign-stack misses (issue 26)
  qrEcLow,
  headConsumes,
  cprPathPrefixMatch,
  headServerError,
  servedToClient,
  retrievalQueryEcho,
  retrievalLanguageEcho,
];
