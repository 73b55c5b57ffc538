import type { BrokenImplementation } from '../types.js';
import { amountFormatUnchecked } from './amount-format-unchecked.js';
import { amountLimitExclusive } from './amount-limit-exclusive.js';
import { cancelRefundsPrincipal } from './cancel-refunds-principal.js';
import { cancelledStillActive } from './cancelled-still-active.js';
import { cashpackVersionMissing } from './cashpack-version-missing.js';
import { chainDigestNotJcs } from './chain-digest-not-jcs.js';
import { clockLies } from './clock-lies.js';
import { clockMovesBack } from './clock-moves-back.js';
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
import { expiryNotEnforcedLive } from './expiry-not-enforced-live.js';
import { expiryNotEnforcedNoClock } from './expiry-not-enforced-no-clock.js';
import { expiryRangeLenient } from './expiry-range-lenient.js';
import { expiryRangeNarrowed } from './expiry-range-narrowed.js';
import { harnessCancelTerminal200 } from './harness-cancel-terminal-200.js';
import { harnessExpireNoPackId } from './harness-expire-no-pack-id.js';
import { idempotentReplays } from './idempotent-replays.js';
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
import { offsetEchoed } from './offset-echoed.js';
import { offsetIgnored } from './offset-ignored.js';
import { oldBearerKeepsRights } from './old-bearer-keeps-rights.js';
import { operatorCredentialRefused } from './operator-credential-refused.js';
import { packCopyUnverified } from './pack-copy-unverified.js';
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
import { renewalRewritesIssuedAt } from './renewal-rewrites-issued-at.js';
import { requestIdReplay } from './request-id-replay.js';
import { statusBodyWithoutPackId } from './status-body-without-pack-id.js';
import { statusHidesRedeemed } from './status-hides-redeemed.js';
import { statusLeaksExistence } from './status-leaks-existence.js';
import { statusOpen } from './status-open.js';
import { statusUnknown403 } from './status-unknown-403.js';
import { uncheckedChainDigest } from './unchecked-chain-digest.js';
import { unsignedAccepted } from './unsigned-accepted.js';
import { wrongKid } from './wrong-kid.js';

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
  lenientTimestamps,
  missingSignature400,
  nonStringMembersAccepted,
  offsetEchoed,
  offsetIgnored,
  redeemRefundsPrincipal,
  renewalIdPerPack,
  renewalRewritesIssuedAt,
  statusLeaksExistence,
  unsignedAccepted,
];
