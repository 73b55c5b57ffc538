import type { BrokenImplementation } from '../types.js';
import { amountFormatUnchecked } from './amount-format-unchecked.js';
import { amountLimitExclusive } from './amount-limit-exclusive.js';
import { assetChainIdUnchecked } from './asset-chain-id-unchecked.js';
import { assetMatchIgnoresChainId } from './asset-match-ignores-chain-id.js';
import { cancelRefundsPrincipal } from './cancel-refunds-principal.js';
import { cancelledStillActive } from './cancelled-still-active.js';
import { cashpackVersionMissing } from './cashpack-version-missing.js';
import { chainDigestNotJcs } from './chain-digest-not-jcs.js';
import { clockAdvanceCoerced } from './clock-advance-coerced.js';
import { clockLies } from './clock-lies.js';
import { clockMovesBack } from './clock-moves-back.js';
import { clockRefusalWithoutMessage } from './clock-refusal-without-message.js';
import { clockZeroRefused } from './clock-zero-refused.js';
import { confirmationWithoutRedeemedAt } from './confirmation-without-redeemed-at.js';
import { confirmationWrongKid } from './confirmation-wrong-kid.js';
import { decidesFromCopy } from './decides-from-copy.js';
import { depthLimitExclusive } from './depth-limit-exclusive.js';
import { destinationBareString } from './destination-bare-string.js';
import { emptyStringsAccepted } from './empty-strings-accepted.js';
import { errorCodeBlank } from './error-code-blank.js';
import { exactBalanceRefused } from './exact-balance-refused.js';
import { expiredFundsWaitForAccess } from './expired-funds-wait-for-access.js';
import { expiredStillActive } from './expired-still-active.js';
import { expiryKeepsFunds } from './expiry-keeps-funds.js';
import { expiryMaxExclusiveFromCreated } from './expiry-max-exclusive-from-created.js';
import { expiryNotEnforcedLive } from './expiry-not-enforced-live.js';
import { expiryNotEnforcedNoClock } from './expiry-not-enforced-no-clock.js';
import { expiryRangeLenient } from './expiry-range-lenient.js';
import { expiryRangeNarrowed } from './expiry-range-narrowed.js';
import { harnessBalanceAdds } from './harness-balance-adds.js';
import { harnessBalanceLenientAmount } from './harness-balance-lenient-amount.js';
import { harnessBalanceReleasesLocked } from './harness-balance-releases-locked.js';
import { harnessBalanceUnknownPrincipal200 } from './harness-balance-unknown-principal-200.js';
import { harnessCancelTerminal200 } from './harness-cancel-terminal-200.js';
import { harnessExpireNoPackId } from './harness-expire-no-pack-id.js';
import { harnessUnknownPack500 } from './harness-unknown-pack-500.js';
import { hugeAmountMalformed } from './huge-amount-malformed.js';
import { idempotentReplays } from './idempotent-replays.js';
import { idsNotUuid } from './ids-not-uuid.js';
import { ignoredSignature } from './ignored-signature.js';
import { issue200 } from './issue-200.js';
import { issueRace } from './issue-race.js';
import { issuedBearerWrong } from './issued-bearer-wrong.js';
import { lenientTimestamps } from './lenient-timestamps.js';
import { missingSignature400 } from './missing-signature-400.js';
import { noAmountLimit } from './no-amount-limit.js';
import { noBalanceCheck } from './no-balance-check.js';
import { noBearerCheck } from './no-bearer-check.js';
import { noDepthLimit } from './no-depth-limit.js';
import { noExpiryRange } from './no-expiry-range.js';
import { noRedeemerCheck } from './no-redeemer-check.js';
import { nonStringMembersAccepted } from './non-string-members-accepted.js';
import { nullMessageCrash } from './null-message-crash.js';
import { offsetEchoed } from './offset-echoed.js';
import { offsetIgnored } from './offset-ignored.js';
import { offsetMinutesSubtracted } from './offset-minutes-subtracted.js';
import { oldBearerKeepsRights } from './old-bearer-keeps-rights.js';
import { operatorCredentialRefused } from './operator-credential-refused.js';
import { oversizedBody500 } from './oversized-body-500.js';
import { packCopyUnverified } from './pack-copy-unverified.js';
import { packIdUnchecked } from './pack-id-unchecked.js';
import { policyMissing } from './policy-missing.js';
import { policyWithoutAlg } from './policy-without-alg.js';
import { principalSignatureIgnored } from './principal-signature-ignored.js';
import { pubkeyLeaksPrivate } from './pubkey-leaks-private.js';
import { redeemRace } from './redeem-race.js';
import { redeemRefundsPrincipal } from './redeem-refunds-principal.js';
import { redemptionIdReplay } from './redemption-id-replay.js';
import { renewRace } from './renew-race.js';
import { renewReportsOldBearer } from './renew-reports-old-bearer.js';
import { renewalIdPerPack } from './renewal-id-per-pack.js';
import { renewalIdReplay } from './renewal-id-replay.js';
import { renewalRestampsWholeSeconds } from './renewal-restamps-whole-seconds.js';
import { renewalRewritesIssuedAt } from './renewal-rewrites-issued-at.js';
import { requestIdReplay } from './request-id-replay.js';
import { statusBodyWithoutPackId } from './status-body-without-pack-id.js';
import { statusHidesRedeemed } from './status-hides-redeemed.js';
import { statusLeaksExistence } from './status-leaks-existence.js';
import { statusOpen } from './status-open.js';
import { statusUnknown403 } from './status-unknown-403.js';
import { terminalPackExpires } from './terminal-pack-expires.js';
import { timestampsCommonFormsOnly } from './timestamps-common-forms-only.js';
import { timestampsUnanchored } from './timestamps-unanchored.js';
import { uncheckedChainDigest } from './unchecked-chain-digest.js';
import { undefinedMethodEchoesBody, undefinedRequest500, unknownPath200 } from './undefined-requests.js';
import { unknownPrincipalCrash } from './unknown-principal-crash.js';
import { unsignedAccepted } from './unsigned-accepted.js';
import { wrongKid } from './wrong-kid.js';
import { wrongMethodBare405 } from './wrong-method-bare-405.js';

/** Deliberately broken operator implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = [
  // the faults of the task (issue 4)
  requestIdReplay,
  renewalIdReplay,
  noBearerCheck,
  ignoredSignature,
  uncheckedChainDigest,
  redeemRace,
  issueRace,
  renewRace,
  noDepthLimit,
  noAmountLimit,
  noExpiryRange,
  noBalanceCheck,
  noRedeemerCheck,
  statusOpen,
  decidesFromCopy,
  oldBearerKeepsRights,
  // further faults, so that every other check of the suite is shown to fail
  redemptionIdReplay,
  expiryKeepsFunds,
  cancelledStillActive,
  issue200,
  pubkeyLeaksPrivate,
  wrongKid,
  chainDigestNotJcs,
  statusUnknown403,
  policyWithoutAlg,
  confirmationWrongKid,
  harnessCancelTerminal200,
  operatorCredentialRefused,
  packCopyUnverified,
  principalSignatureIgnored,
  renewReportsOldBearer,
  statusBodyWithoutPackId,
  statusHidesRedeemed,
  wrongMethodBare405,
  unknownPath200,
  undefinedRequest500,
  undefinedMethodEchoesBody,
  oversizedBody500,
  cashpackVersionMissing,
  confirmationWithoutRedeemedAt,
  expiredStillActive,
  harnessExpireNoPackId,
  issuedBearerWrong,
  policyMissing,
  // the revised profile (issue 7), the test clock (issue 11) and mutation survivors (issue 16)
  amountFormatUnchecked,
  amountLimitExclusive,
  cancelRefundsPrincipal,
  clockLies,
  clockMovesBack,
  depthLimitExclusive,
  destinationBareString,
  emptyStringsAccepted,
  errorCodeBlank,
  exactBalanceRefused,
  expiredFundsWaitForAccess,
  expiryNotEnforcedLive,
  expiryNotEnforcedNoClock,
  idempotentReplays,
  expiryRangeLenient,
  expiryRangeNarrowed,
  expiryMaxExclusiveFromCreated,
  lenientTimestamps,
  missingSignature400,
  nonStringMembersAccepted,
  offsetEchoed,
  offsetIgnored,
  redeemRefundsPrincipal,
  renewalIdPerPack,
  renewalRewritesIssuedAt,
  renewalRestampsWholeSeconds,
  statusLeaksExistence,
  unsignedAccepted,
  // operator.ts and store.ts survivors (issue 16): pack binding, unknown signer, assets, harness, terminal expiry
  assetMatchIgnoresChainId,
  harnessUnknownPack500,
  packIdUnchecked,
  terminalPackExpires,
  unknownPrincipalCrash,
  // parse.ts survivors (issue 16): identifiers, timestamps, null messages, amounts, assets, clock body
  idsNotUuid,
  timestampsUnanchored,
  timestampsCommonFormsOnly,
  offsetMinutesSubtracted,
  nullMessageCrash,
  hugeAmountMalformed,
  assetChainIdUnchecked,
  clockAdvanceCoerced,
  clockZeroRefused,
  clockRefusalWithoutMessage,
  harnessBalanceReleasesLocked,
  harnessBalanceAdds,
  harnessBalanceUnknownPrincipal200,
  harnessBalanceLenientAmount,
];
