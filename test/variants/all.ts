import type { BrokenTarget, PermittedVariant } from '../broken/types.js';
import { variants as operatorVariants } from './operator/index.js';
import { variants as payeeVariants } from './payee/index.js';
import { variants as walletVariants } from './wallet/index.js';

/** Every permitted variant, by target. */
export const variantsByTarget: Record<BrokenTarget, PermittedVariant[]> = {
  payee: payeeVariants,
  wallet: walletVariants,
  operator: operatorVariants,
};

/** Every permitted variant. */
export const allVariants: PermittedVariant[] = [...payeeVariants, ...walletVariants, ...operatorVariants];
