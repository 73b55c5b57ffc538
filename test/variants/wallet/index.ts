import type { PermittedVariant } from '../../broken/types.js';

/** Every permitted variant of the wallet: each must pass the whole wallet suite. */
export const variants: PermittedVariant[] = [];
