import type { BrokenImplementation } from '../types.js';

/** Deliberately broken operator implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = [];
