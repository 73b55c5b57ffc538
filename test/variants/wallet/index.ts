import type { PermittedVariant } from '../../broken/types.js';
import type { WalletFault } from '../../broken/wallet/harness.js';
import { conditionsAllWithDefault, conditionsFew } from './conditions.js';
import { ignoresPayerData } from './ignores-payer-data.js';
import { sepaInstOnly, unknownKeyTypeRefused } from './reading.js';
import { retrievalVariants } from './retrieval.js';
import { derivesRulesBeyondStructure } from './rules-beyond-structure.js';
import { strictWallet } from './strict.js';
import { twoRailsUndeclared } from './two-rails-undeclared.js';
import { undefinedInvalidRequest, undefinedMethodNotAllowed } from './undefined-requests.js';

const all = [
  strictWallet,
  ignoresPayerData,
  twoRailsUndeclared,
  conditionsFew,
  conditionsAllWithDefault,
  ...retrievalVariants,
  unknownKeyTypeRefused,
  sepaInstOnly,
  undefinedMethodNotAllowed,
  undefinedInvalidRequest,
  derivesRulesBeyondStructure,
];

/** Every permitted variant of the wallet: each must pass the whole wallet suite. */
export const variants: PermittedVariant[] = all;

/** The variant cores by id (used by `../../broken/wallet/stdio.ts`, the stdio form of each). */
export const walletVariants: WalletFault[] = all.map((v) => v.walletFault);
