import type { PermittedVariant } from '../../broken/types.js';

/** Every permitted variant of the operator: each must pass the whole operator suite. */
export const variants: PermittedVariant[] = [];
