import type { BrokenImplementation } from '../types.js';
import { acceptsExpired } from './accepts-expired.js';
import { acceptsUnsafeNumber } from './accepts-unsafe-number.js';
import { acceptsWrongVersion } from './accepts-wrong-version.js';
import { expiresAtOptional, extensionsNeverRead } from './base-fields.js';
import { chokesOnExtensions } from './chokes-on-extensions.js';
import { conditionsWrong } from './conditions-wrong.js';
import { contextRailReplaced } from './context-rail-replaced.js';
import { displayNameBlankRefused } from './display-name-blank-refused.js';
import type { WalletFault } from './harness.js';
import {
  harnessBodyUnchecked,
  httpsTestUnanchored,
  invalidRequestWithoutMessage,
  payerAmountUnchecked,
  paysAtExpiryInstant,
  retrievesOverHttp,
  undecodableUriInvalidRequest,
  unreachablePayeeAsStructure,
} from './mutation-faults.js';
import { noReferenceUris } from './no-reference-uris.js';
import { openAmountIgnored } from './open-amount-ignored.js';
import { ownAuthorization } from './own-authorization.js';
import { partialAmount } from './partial-amount.js';
import { pathsFaults } from './paths-faults.js';
import { payeeCopiedUnscreened } from './payee-copied-unscreened.js';
import { payeeDescriptorOnly } from './payee-descriptor-only.js';
import { payerFromExtensions } from './payer-from-extensions.js';
import { payerDetailsFromExtensions, stateFromDottedStatus } from './payer-readings.js';
import { payerReplaced } from './payer-replaced.js';
import { profileFaults } from './profile-faults.js';
import { readingFaults } from './reading-faults.js';
import { referenceAlwaysRequestId } from './reference-always-request-id.js';
import { rejectsNumberAmount } from './rejects-number-amount.js';
import { rejectsUnknownRailHint } from './rejects-unknown-rail-hint.js';
import { requestIdUnbound } from './request-id-unbound.js';
import { retrievalFaults } from './retrieval-faults.js';
import { reusedPaymentId } from './reused-payment-id.js';
import { roundsAmount } from './rounds-amount.js';
import { rulesBeyondStructureFaults } from './rules-beyond-structure.js';
import { sharedContextRace, sharedNextIdRace } from './shared-context-race.js';
import { silentUnsupportedRail } from './silent-unsupported-rail.js';
import { stateFromExtensions } from './state-from-extensions.js';
import { stateNotCreated } from './state-not-created.js';
import { undefinedFrameworkPage, undefinedMethodDerives, unknownPath500 } from './undefined-requests.js';
import { verbatimFaults } from './verbatim-faults.js';
import { wireGarbage } from './wire-garbage.js';

const all = [
  acceptsExpired,
  roundsAmount,
  silentUnsupportedRail,
  rejectsUnknownRailHint,
  chokesOnExtensions,
  referenceAlwaysRequestId,
  stateNotCreated,
  reusedPaymentId,
  payerFromExtensions,
  payeeCopiedUnscreened,
  displayNameBlankRefused,
  payerDetailsFromExtensions,
  stateFromDottedStatus,
  undefinedMethodDerives,
  unknownPath500,
  undefinedFrameworkPage,
  expiresAtOptional,
  extensionsNeverRead,
  requestIdUnbound,
  acceptsWrongVersion,
  openAmountIgnored,
  partialAmount,
  acceptsUnsafeNumber,
  contextRailReplaced,
  payeeDescriptorOnly,
  noReferenceUris,
  ownAuthorization,
  payerReplaced,
  conditionsWrong,
  rejectsNumberAmount,
  stateFromExtensions,
  ...profileFaults,
  ...wireGarbage,
  harnessBodyUnchecked,
  httpsTestUnanchored,
  invalidRequestWithoutMessage,
  undecodableUriInvalidRequest,
  payerAmountUnchecked,
  unreachablePayeeAsStructure,
  retrievesOverHttp,
  paysAtExpiryInstant,
  ...retrievalFaults,
  ...verbatimFaults,
  sharedContextRace,
  sharedNextIdRace,
  ...readingFaults,
  ...pathsFaults,
  ...rulesBeyondStructureFaults,
];

/** Deliberately broken wallet implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = all;

/** The broken cores by fault id (used by `stdio.ts`, the stdio form of each broken wallet). */
export const walletFaults: WalletFault[] = all.map((f) => f.walletFault);
