import type { PermittedVariant } from '../../broken/types.js';

/** Every permitted variant of the payee: each must pass the whole payee suite. */
export const variants: PermittedVariant[] = [];
