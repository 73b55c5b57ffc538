import type { PermittedVariant } from '../../broken/types.js';
import { payeeVariants } from './variants.js';

/** Every permitted variant of the payee: each must pass the whole payee suite. */
export const variants: PermittedVariant[] = [...payeeVariants];
