import type { PermittedVariant } from '../../broken/types.js';
import { eagerSweep } from './eager-sweep.js';
import { noClock, noClockShortExpiry } from './no-clock.js';
import { replayNotActiveFirst } from './replay-not-active-first.js';
import { stateBeforeSignatures } from './state-before-signatures.js';

/** Every permitted variant of the operator: each must pass the whole operator suite. */
export const variants: PermittedVariant[] = [
  stateBeforeSignatures,
  replayNotActiveFirst,
  noClock,
  noClockShortExpiry,
  eagerSweep,
];
