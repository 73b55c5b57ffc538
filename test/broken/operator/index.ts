import type { BrokenImplementation } from '../types.js';
import { decidesFromCopy } from './decides-from-copy.js';
import { ignoredSignature } from './ignored-signature.js';
import { noAmountLimit } from './no-amount-limit.js';
import { noBalanceCheck } from './no-balance-check.js';
import { noBearerCheck } from './no-bearer-check.js';
import { noDepthLimit } from './no-depth-limit.js';
import { noExpiryRange } from './no-expiry-range.js';
import { noRedeemerCheck } from './no-redeemer-check.js';
import { oldBearerKeepsRights } from './old-bearer-keeps-rights.js';
import { redeemRace } from './redeem-race.js';
import { renewalIdReplay } from './renewal-id-replay.js';
import { requestIdReplay } from './request-id-replay.js';
import { statusOpen } from './status-open.js';
import { uncheckedChainDigest } from './unchecked-chain-digest.js';

/** Deliberately broken operator implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = [
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
];
