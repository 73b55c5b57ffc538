import type { BrokenImplementation } from '../types.js';
import { cancelledStillActive } from './cancelled-still-active.js';
import { decidesFromCopy } from './decides-from-copy.js';
import { expiryKeepsFunds } from './expiry-keeps-funds.js';
import { ignoredSignature } from './ignored-signature.js';
import { issue200 } from './issue-200.js';
import { noAmountLimit } from './no-amount-limit.js';
import { noBalanceCheck } from './no-balance-check.js';
import { noBearerCheck } from './no-bearer-check.js';
import { noDepthLimit } from './no-depth-limit.js';
import { noExpiryRange } from './no-expiry-range.js';
import { noRedeemerCheck } from './no-redeemer-check.js';
import { oldBearerKeepsRights } from './old-bearer-keeps-rights.js';
import { pubkeyLeaksPrivate } from './pubkey-leaks-private.js';
import { redeemRace } from './redeem-race.js';
import { redemptionIdReplay } from './redemption-id-replay.js';
import { renewalIdReplay } from './renewal-id-replay.js';
import { requestIdReplay } from './request-id-replay.js';
import { statusOpen } from './status-open.js';
import { uncheckedChainDigest } from './unchecked-chain-digest.js';
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
];
