import type { PermittedVariant } from '../../broken/types.js';
import { assetRefusedAsBalance } from './asset-refused-as-balance.js';
import { eagerSweep } from './eager-sweep.js';
import { expiryOwnForm } from './expiry-own-form.js';
import { malformedSignature401 } from './malformed-signature-401.js';
import { noBalanceHarness } from './no-balance-harness.js';
import { noClock, noClockShortExpiry } from './no-clock.js';
import { replayNotActiveFirst } from './replay-not-active-first.js';
import { shortMaxExpiry } from './short-max-expiry.js';
import { stateBeforeSignatures } from './state-before-signatures.js';
import {
  noClockInvalidRequest,
  undefinedInvalidRequest,
  undefinedMethodNotAllowed,
  undefinedNotFound,
} from './undefined-requests.js';
import { unknownMembersRefused } from './unknown-members-refused.js';

/** Every permitted variant of the operator: each must pass the whole operator suite. */
export const variants: PermittedVariant[] = [
  stateBeforeSignatures,
  replayNotActiveFirst,
  noClock,
  noClockShortExpiry,
  eagerSweep,
  shortMaxExpiry,
  expiryOwnForm,
  assetRefusedAsBalance,
  malformedSignature401,
  unknownMembersRefused,
  noBalanceHarness,
  undefinedMethodNotAllowed,
  undefinedNotFound,
  undefinedInvalidRequest,
  noClockInvalidRequest,
];
