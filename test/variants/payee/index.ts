import type { PermittedVariant } from '../../broken/types.js';
import { retrievalSpellingsServed } from './retrieval-spellings.js';
import {
  noClockInvalidRequest,
  undefinedInvalidRequest,
  undefinedMethodNotAllowed,
} from './undefined-requests.js';
import { payeeVariants } from './variants.js';

/** Every permitted variant of the payee: each must pass the whole payee suite. */
export const variants: PermittedVariant[] = [
  ...payeeVariants,
  undefinedMethodNotAllowed,
  undefinedInvalidRequest,
  noClockInvalidRequest,
  retrievalSpellingsServed,
];
