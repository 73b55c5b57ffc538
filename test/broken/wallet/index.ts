import type { BrokenImplementation } from '../types.js';

/** Deliberately broken wallet implementations, one fault each (see ../types.ts). */
export const faults: BrokenImplementation[] = [];
